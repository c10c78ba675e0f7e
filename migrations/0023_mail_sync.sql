-- Mailbox sync: how far each INBOX was read, and the messages acted on, so a reply counts once (runtime/mail/sync/tables.ts); row-level security is added by secure_tenant_tables() after migrating.
CREATE TABLE "mail_sync_messages" (
	"org_id" bigint NOT NULL,
	"message_key" text NOT NULL,
	"mailbox_id" bigint NOT NULL,
	"mailing_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"applied_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "mail_sync_messages_pkey" PRIMARY KEY("org_id","message_key")
);
--> statement-breakpoint
CREATE TABLE "mailbox_sync_states" (
	"org_id" bigint NOT NULL,
	"mailbox_id" bigint NOT NULL,
	"uid_validity" text NOT NULL,
	"last_uid" bigint NOT NULL,
	"synced_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "mailbox_sync_states_pkey" PRIMARY KEY("org_id","mailbox_id")
);
--> statement-breakpoint
ALTER TABLE "mail_sync_messages" ADD CONSTRAINT "mail_sync_messages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_sync_messages" ADD CONSTRAINT "mail_sync_messages_mailbox_fk" FOREIGN KEY ("org_id","mailbox_id") REFERENCES "public"."mailboxes"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_sync_states" ADD CONSTRAINT "mailbox_sync_states_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_sync_states" ADD CONSTRAINT "mailbox_sync_states_mailbox_fk" FOREIGN KEY ("org_id","mailbox_id") REFERENCES "public"."mailboxes"("org_id","id") ON DELETE cascade ON UPDATE no action;