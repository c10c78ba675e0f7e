CREATE TABLE "custom_object_definitions" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "custom_object_definitions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"display_field" text NOT NULL,
	"fields" jsonb NOT NULL,
	"relationships" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_object_definitions_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "custom_object_records" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "custom_object_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"definition_id" bigint NOT NULL,
	"s01" text,
	"s02" text,
	"s03" text,
	"s04" text,
	"s05" text,
	"s06" text,
	"s07" text,
	"s08" text,
	"s09" text,
	"s10" text,
	"n01" double precision,
	"n02" double precision,
	"n03" double precision,
	"n04" double precision,
	"n05" double precision,
	"t01" timestamp(3) with time zone,
	"t02" timestamp(3) with time zone,
	"t03" timestamp(3) with time zone,
	"t04" timestamp(3) with time zone,
	"t05" timestamp(3) with time zone,
	"b01" boolean,
	"b02" boolean,
	"b03" boolean,
	"r01" bigint,
	"r02" bigint,
	"r03" bigint,
	"r04" bigint,
	"r05" bigint,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_object_records_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "custom_object_definitions" ADD CONSTRAINT "custom_object_definitions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_object_records" ADD CONSTRAINT "custom_object_records_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_object_records" ADD CONSTRAINT "custom_object_records_definition_fk" FOREIGN KEY ("org_id","definition_id") REFERENCES "public"."custom_object_definitions"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "custom_object_definitions_name_idx" ON "custom_object_definitions" USING btree ("org_id","name");--> statement-breakpoint
CREATE INDEX "custom_object_records_definition_idx" ON "custom_object_records" USING btree ("org_id","definition_id","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s01_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s01","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s02_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s02","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s03_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s03","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s04_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s04","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s05_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s05","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s06_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s06","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s07_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s07","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s08_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s08","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s09_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s09","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_s10_idx" ON "custom_object_records" USING btree ("org_id","definition_id","s10","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_n01_idx" ON "custom_object_records" USING btree ("org_id","definition_id","n01","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_n02_idx" ON "custom_object_records" USING btree ("org_id","definition_id","n02","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_n03_idx" ON "custom_object_records" USING btree ("org_id","definition_id","n03","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_n04_idx" ON "custom_object_records" USING btree ("org_id","definition_id","n04","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_n05_idx" ON "custom_object_records" USING btree ("org_id","definition_id","n05","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_t01_idx" ON "custom_object_records" USING btree ("org_id","definition_id","t01","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_t02_idx" ON "custom_object_records" USING btree ("org_id","definition_id","t02","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_t03_idx" ON "custom_object_records" USING btree ("org_id","definition_id","t03","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_t04_idx" ON "custom_object_records" USING btree ("org_id","definition_id","t04","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_t05_idx" ON "custom_object_records" USING btree ("org_id","definition_id","t05","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_created_at_idx" ON "custom_object_records" USING btree ("org_id","definition_id","created_at","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_updated_at_idx" ON "custom_object_records" USING btree ("org_id","definition_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "custom_object_records_b01_idx" ON "custom_object_records" USING btree ("org_id","definition_id","b01");--> statement-breakpoint
CREATE INDEX "custom_object_records_b02_idx" ON "custom_object_records" USING btree ("org_id","definition_id","b02");--> statement-breakpoint
CREATE INDEX "custom_object_records_b03_idx" ON "custom_object_records" USING btree ("org_id","definition_id","b03");--> statement-breakpoint
CREATE INDEX "custom_object_records_r01_idx" ON "custom_object_records" USING btree ("org_id","definition_id","r01");--> statement-breakpoint
CREATE INDEX "custom_object_records_r02_idx" ON "custom_object_records" USING btree ("org_id","definition_id","r02");--> statement-breakpoint
CREATE INDEX "custom_object_records_r03_idx" ON "custom_object_records" USING btree ("org_id","definition_id","r03");--> statement-breakpoint
CREATE INDEX "custom_object_records_r04_idx" ON "custom_object_records" USING btree ("org_id","definition_id","r04");--> statement-breakpoint
CREATE INDEX "custom_object_records_r05_idx" ON "custom_object_records" USING btree ("org_id","definition_id","r05");