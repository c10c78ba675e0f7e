-- Import keys: the lower-cased x-importKey values of every keyed record, for CSV imports' duplicate lookups (runtime/imports/tables.ts); kept by the triggers of 0019; row-level security is added by secure_tenant_tables() after migrating.
CREATE TABLE "import_keys" (
	"org_id" bigint NOT NULL,
	"resource_type" text NOT NULL,
	"key_column" text NOT NULL,
	"key" text NOT NULL,
	"record_id" bigint NOT NULL,
	CONSTRAINT "import_keys_pkey" PRIMARY KEY("org_id","resource_type","key_column","key","record_id")
);
--> statement-breakpoint
ALTER TABLE "import_keys" ADD CONSTRAINT "import_keys_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_keys_record_idx" ON "import_keys" USING btree ("org_id","resource_type","key_column","record_id");