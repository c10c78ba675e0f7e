-- Compliance request tasks (schema/complianceRequestTask.json): one row per prospect deleted or kind of data scrubbed; the request's create attributes become optional columns, because the service (not the engine's create) sets them and clears the address when done.
CREATE TABLE "compliance_request_tasks" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "compliance_request_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"attempts" integer,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"kind" text,
	"last_error" text,
	"next_attempt_at" timestamp(3) with time zone,
	"phase" integer,
	"prospect_id" integer,
	"state" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"compliance_request_id" bigint,
	CONSTRAINT "compliance_request_tasks_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "compliance_requests" ALTER COLUMN "object_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "compliance_requests" ALTER COLUMN "request_object_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "compliance_requests" ALTER COLUMN "request_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "compliance_requests" ALTER COLUMN "requester_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "compliance_request_tasks" ADD CONSTRAINT "compliance_request_tasks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_request_tasks" ADD CONSTRAINT "compliance_request_tasks_compliance_request_fk" FOREIGN KEY ("org_id","compliance_request_id") REFERENCES "public"."compliance_requests"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_compliance_request_id_idx" ON "compliance_request_tasks" USING btree ("org_id","compliance_request_id","id");--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_created_at_idx" ON "compliance_request_tasks" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_kind_idx" ON "compliance_request_tasks" USING btree ("org_id","kind","id");--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_phase_idx" ON "compliance_request_tasks" USING btree ("org_id","phase","id");--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_state_idx" ON "compliance_request_tasks" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_updated_at_idx" ON "compliance_request_tasks" USING btree ("org_id","updated_at","id");