-- Mailing sends: the sends due, one row per scheduled or delivering mailing, claimed in sets by the set sender (runtime/mail/sending/set-sender.ts, runtime/mail/tables.ts), filled from the mailings already scheduled; mail_messages gets an index by Message-ID; row-level security is added by secure_tenant_tables() after migrating.
CREATE TABLE "mailing_sends" (
	"org_id" bigint NOT NULL,
	"mailing_id" bigint NOT NULL,
	"due_at" timestamp(3) with time zone NOT NULL,
	"claimed_by" bigint,
	CONSTRAINT "mailing_sends_pkey" PRIMARY KEY("org_id","mailing_id")
);
--> statement-breakpoint
ALTER TABLE "mailing_sends" ADD CONSTRAINT "mailing_sends_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_sends" ADD CONSTRAINT "mailing_sends_mailing_fk" FOREIGN KEY ("org_id","mailing_id") REFERENCES "public"."mailings"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mailing_sends_due_at_idx" ON "mailing_sends" USING btree ("org_id","due_at","mailing_id") WHERE claimed_by is null;--> statement-breakpoint
CREATE INDEX "mailing_sends_claimed_by_idx" ON "mailing_sends" USING btree ("org_id","claimed_by") WHERE claimed_by is not null;--> statement-breakpoint
CREATE INDEX "mail_messages_message_id_idx" ON "mail_messages" USING btree ("org_id","message_id");--> statement-breakpoint
-- The mailings a deployment has scheduled or delivering are due as before (one delivering is a
-- send interrupted by the upgrade, settled by the next run); the send_mailing jobs already
-- pending still run, through the set sender.
INSERT INTO "mailing_sends" ("org_id", "mailing_id", "due_at")
SELECT "org_id", "id", coalesce("retry_at", "scheduled_at", now()) FROM "mailings" WHERE "state" IN ('scheduled', 'delivering');
