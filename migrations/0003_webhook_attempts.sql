CREATE TABLE "webhook_attempts" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"webhook_id" bigint NOT NULL,
	"event_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"status" integer,
	"error" text,
	"latency_ms" integer NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_webhook_fk" FOREIGN KEY ("org_id","webhook_id") REFERENCES "public"."webhooks"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_webhook_idx" ON "webhook_attempts" USING btree ("org_id","webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_created_at_idx" ON "webhook_attempts" USING btree ("org_id","created_at");