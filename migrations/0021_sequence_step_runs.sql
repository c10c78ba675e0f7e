-- Sequence step runs: one row per sequence state and step the automation has run, so a step job run twice does nothing (runtime/sequences/tables.ts); row-level security is added by secure_tenant_tables() after migrating.
CREATE TABLE "sequence_step_runs" (
	"org_id" bigint NOT NULL,
	"sequence_state_id" bigint NOT NULL,
	"sequence_step_id" bigint NOT NULL,
	"due_at" timestamp(3) with time zone NOT NULL,
	"ran_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "sequence_step_runs_pkey" PRIMARY KEY("org_id","sequence_state_id","sequence_step_id")
);
--> statement-breakpoint
ALTER TABLE "sequence_step_runs" ADD CONSTRAINT "sequence_step_runs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_step_runs" ADD CONSTRAINT "sequence_step_runs_state_fk" FOREIGN KEY ("org_id","sequence_state_id") REFERENCES "public"."sequence_states"("org_id","id") ON DELETE cascade ON UPDATE no action;