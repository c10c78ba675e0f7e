-- Bulk upserts: batches record their resource type, dupeMethod and the actor who started them, batch items their JSON:API errors; each org's daily allowance of bulk items (a token bucket) and the Idempotency-Key values of its bulk upserts, as tenant tables.
CREATE TABLE "bulk_allowances" (
	"org_id" bigint NOT NULL,
	"allowance" text NOT NULL,
	"tokens" double precision NOT NULL,
	"refilled_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "bulk_allowances_pkey" PRIMARY KEY("org_id","allowance")
);
--> statement-breakpoint
CREATE TABLE "bulk_idempotency_keys" (
	"org_id" bigint NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"batch_id" bigint NOT NULL,
	"created_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "bulk_idempotency_keys_pkey" PRIMARY KEY("org_id","key")
);
--> statement-breakpoint
ALTER TABLE "batch_items" ADD COLUMN "errors" jsonb;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "actor" jsonb;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "dupe_method" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "resource_type" text;--> statement-breakpoint
ALTER TABLE "bulk_allowances" ADD CONSTRAINT "bulk_allowances_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_idempotency_keys" ADD CONSTRAINT "bulk_idempotency_keys_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_idempotency_keys" ADD CONSTRAINT "bulk_idempotency_keys_batch_fk" FOREIGN KEY ("org_id","batch_id") REFERENCES "public"."batches"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_idempotency_keys_created_at_idx" ON "bulk_idempotency_keys" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "batches_resource_type_idx" ON "batches" USING btree ("org_id","resource_type");