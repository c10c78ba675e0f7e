-- The test clocks of sandbox mode (CADENCE_SANDBOX=true, runtime/sandbox/clock.ts): how many seconds each org's time was moved ahead of real time; no row is real time.
CREATE TABLE "cadence_system"."sandbox_clocks" (
	"org_id" bigint PRIMARY KEY NOT NULL,
	"offset_seconds" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cadence_system"."sandbox_clocks" ADD CONSTRAINT "sandbox_clocks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE cascade ON UPDATE no action;