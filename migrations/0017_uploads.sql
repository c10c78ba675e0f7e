-- CSV uploads: one row per upload link (state, size, SHA-512, validated headers and record count) and the file itself in 1 MiB chunks; row-level security is added by secure_tenant_tables() after migrating.
CREATE TABLE "upload_chunks" (
	"org_id" bigint NOT NULL,
	"storage_key" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "upload_chunks_pkey" PRIMARY KEY("org_id","storage_key","seq")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"org_id" bigint NOT NULL,
	"storage_key" uuid NOT NULL,
	"state" text NOT NULL,
	"byte_size" bigint,
	"sha512" text,
	"record_count" integer,
	"headers" jsonb,
	"created_at" timestamp(3) with time zone NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"uploaded_at" timestamp(3) with time zone,
	"validated_at" timestamp(3) with time zone,
	CONSTRAINT "uploads_pkey" PRIMARY KEY("org_id","storage_key")
);
--> statement-breakpoint
ALTER TABLE "upload_chunks" ADD CONSTRAINT "upload_chunks_upload_fk" FOREIGN KEY ("org_id","storage_key") REFERENCES "public"."uploads"("org_id","storage_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_created_at_idx" ON "uploads" USING btree ("org_id","created_at");