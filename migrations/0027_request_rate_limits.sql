-- Request rate limits (runtime/ratelimit): per-holder hourly request counters in cadence_system, and an org's own limit on cadence_system.orgs.
CREATE TABLE "cadence_system"."request_counts" (
	"org_id" bigint NOT NULL,
	"holder" text NOT NULL,
	"window_start" timestamp(3) with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "request_counts_pkey" PRIMARY KEY("org_id","holder","window_start")
);
--> statement-breakpoint
ALTER TABLE "cadence_system"."orgs" ADD COLUMN "request_limit_per_hour" integer;--> statement-breakpoint
ALTER TABLE "cadence_system"."request_counts" ADD CONSTRAINT "request_counts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_counts_window_start_idx" ON "cadence_system"."request_counts" USING btree ("window_start");--> statement-breakpoint
ALTER TABLE "cadence_system"."orgs" ADD CONSTRAINT "orgs_request_limit_per_hour_check" CHECK ("cadence_system"."orgs"."request_limit_per_hour" > 0);