-- Sequence steps due: one row per sequence state waiting for its next step and when it is due, claimed in sets by the step runner (runtime/sequences/step-runner/); pending sequence_step jobs from before run through it (legacy-step-task.ts); row-level security is added by secure_tenant_tables() after migrating.
CREATE TABLE "sequence_steps_due" (
	"org_id" bigint NOT NULL,
	"sequence_state_id" bigint NOT NULL,
	"sequence_step_id" bigint NOT NULL,
	"due_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "sequence_steps_due_pkey" PRIMARY KEY("org_id","sequence_state_id")
);
--> statement-breakpoint
ALTER TABLE "sequence_steps_due" ADD CONSTRAINT "sequence_steps_due_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps_due" ADD CONSTRAINT "sequence_steps_due_state_fk" FOREIGN KEY ("org_id","sequence_state_id") REFERENCES "public"."sequence_states"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sequence_steps_due_due_at_idx" ON "sequence_steps_due" USING btree ("org_id","due_at","sequence_state_id");