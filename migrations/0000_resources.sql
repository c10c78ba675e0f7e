CREATE SCHEMA "cadence_system";
--> statement-breakpoint
CREATE TABLE "account_notes" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "account_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"message" text,
	"note_type" text,
	"pinned" boolean,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"account_id" bigint,
	CONSTRAINT "account_notes_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"annual_revenue_range" text,
	"buyer_intent_score" double precision,
	"company_type" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"custom1" text,
	"domain" text,
	"naics_codes" text[],
	"name" text,
	"named" boolean,
	"sic_codes" text[],
	"ticker_symbol" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"owner_id" bigint,
	CONSTRAINT "accounts_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "batch_items" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "batch_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"data" text,
	"info" text,
	"item_id" integer,
	"state" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"batch_id" bigint,
	CONSTRAINT "batch_items_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text,
	"canceled_at" timestamp(3) with time zone,
	"confirm_count" integer,
	"confirmed_at" timestamp(3) with time zone,
	"confirmed_count_required" boolean,
	"context_id" integer,
	"context_type" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"external_start_payload" jsonb,
	"failures" integer,
	"finished_at" timestamp(3) with time zone,
	"pending" integer,
	"started_at" timestamp(3) with time zone,
	"state" text,
	"summary" jsonb,
	"total" integer,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batches_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "call_dispositions" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "call_dispositions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"order" integer,
	"outcome" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "call_dispositions_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "call_purposes" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "call_purposes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"order" integer,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "call_purposes_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "calls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"answered_at" timestamp(3) with time zone,
	"associated_id" integer,
	"completed_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"direction" text,
	"note" text,
	"outcome" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"call_disposition_id" bigint,
	"call_purpose_id" bigint,
	"prospect_id" bigint,
	"task_id" bigint,
	"user_id" bigint,
	CONSTRAINT "calls_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "compliance_requests" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "compliance_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"batch_compliance_request" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"object_type" text NOT NULL,
	"request_object_email" text NOT NULL,
	"request_type" text NOT NULL,
	"requester_email" text NOT NULL,
	"state" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_requests_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "email_addresses" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "email_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	"email_type" text,
	"order" integer,
	"status" text,
	"status_changed_at" timestamp(3) with time zone,
	"unsubscribed_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"prospect_id" bigint,
	CONSTRAINT "email_addresses_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"payload" jsonb,
	"resource_id" integer,
	"resource_type" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "favorites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"target_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"user_id" bigint,
	CONSTRAINT "favorites_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"dupe_method" text,
	"dupes" integer,
	"error_reason" text,
	"external_id" text,
	"external_name" text,
	"external_type" text,
	"failures" integer,
	"file_name" text,
	"file_size" integer,
	"frequency" text,
	"import_type" text,
	"load_from_plugin" boolean,
	"mappings" jsonb,
	"plugin_id" integer,
	"prospect_owner_id" integer,
	"recurring" boolean,
	"report_instance_id" text,
	"scheduled_at" timestamp(3) with time zone,
	"source" text,
	"stage_id" integer,
	"state" text,
	"state_changed_at" timestamp(3) with time zone,
	"synced_until" timestamp(3) with time zone,
	"time_zone" text,
	"total" integer,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "kaia_recordings" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "kaia_recordings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"end_time" timestamp(3) with time zone,
	"format" text,
	"host" jsonb,
	"instance_id" text,
	"media_duration_seconds" text,
	"participant_count" integer,
	"participants" jsonb,
	"provider" text,
	"recording_url" text,
	"source_id" text,
	"start_time" timestamp(3) with time zone,
	"state" text,
	"title" text,
	"topics" jsonb,
	"transcript_url" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"owner_id" bigint,
	CONSTRAINT "kaia_recordings_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "kaia_voice_imports" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "kaia_voice_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"call_id" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"instance_id" text,
	"metadata" text,
	"recording_url" text NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kaia_voice_imports_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "mailboxes" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "mailboxes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	"email_signature" text,
	"max_emails_per_day" integer,
	"max_mailings_per_day" integer,
	"max_mailings_per_week" integer,
	"send_disabled" boolean,
	"send_errored_at" timestamp(3) with time zone,
	"send_success_at" timestamp(3) with time zone,
	"sync_disabled" boolean,
	"sync_errored_at" timestamp(3) with time zone,
	"sync_success_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"username" text,
	"user_id" bigint,
	CONSTRAINT "mailboxes_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "mailings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"body_html" text,
	"body_text" text,
	"bounced_at" timestamp(3) with time zone,
	"click_count" integer,
	"clicked_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp(3) with time zone,
	"error_reason" text,
	"mailing_type" text,
	"message_id" text,
	"open_count" integer,
	"opened_at" timestamp(3) with time zone,
	"replied_at" timestamp(3) with time zone,
	"scheduled_at" timestamp(3) with time zone,
	"state" text,
	"state_changed_at" timestamp(3) with time zone,
	"subject" text,
	"track_links" boolean,
	"track_opens" boolean,
	"unsubscribed_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"mailbox_id" bigint,
	"prospect_id" bigint,
	"sequence_state_id" bigint,
	"template_id" bigint,
	CONSTRAINT "mailings_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "opportunities" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "opportunities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"amount_precise" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"external_created_at" timestamp(3) with time zone,
	"external_updated_at" timestamp(3) with time zone,
	"forecast_category" text,
	"lead_source" text,
	"lost_reason" text,
	"name" text,
	"record_type" text,
	"trashed_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"account_id" bigint,
	"owner_id" bigint,
	CONSTRAINT "opportunities_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "opportunity_prospect_roles" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "opportunity_prospect_roles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"primary" boolean,
	"role" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"opportunity_id" bigint,
	"prospect_id" bigint,
	CONSTRAINT "opportunity_prospect_roles_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"classification" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"owner_id" bigint,
	CONSTRAINT "products_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "prospect_notes" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "prospect_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"message" text,
	"note_type" text,
	"pinned" boolean,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"prospect_id" bigint,
	CONSTRAINT "prospect_notes_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "prospects" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "prospects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"click_count" integer DEFAULT 0,
	"company" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"custom1" text,
	"emails" text[],
	"first_name" text,
	"last_name" text,
	"name" text,
	"open_count" integer DEFAULT 0,
	"reply_count" integer DEFAULT 0,
	"title" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"account_id" bigint,
	"owner_id" bigint,
	"stage_id" bigint,
	CONSTRAINT "prospects_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "purchases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"currency" text,
	"description" text,
	"end_date" date,
	"start_date" date,
	"total_value" double precision,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"account_id" bigint,
	"product_id" bigint,
	CONSTRAINT "purchases_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "recipients" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "recipients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"primary" boolean,
	"recipient_type" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"value" text,
	"prospect_id" bigint,
	"user_id" bigint,
	CONSTRAINT "recipients_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "roles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"external_id" text,
	"name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "rulesets" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "rulesets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"auto_resume_ooto_prospects" boolean,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"permit_duplicate_prospects" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rulesets_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "sequence_states" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "sequence_states_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"state" text DEFAULT 'active',
	"state_changed_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"mailbox_id" bigint,
	"prospect_id" bigint,
	"sequence_id" bigint,
	"sequence_step_id" bigint,
	CONSTRAINT "sequence_states_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "sequence_steps" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "sequence_steps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"date" date,
	"interval" integer,
	"order" integer,
	"step_type" text NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"sequence_id" bigint,
	CONSTRAINT "sequence_steps_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "sequence_templates" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "sequence_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"is_reply" boolean,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"sequence_step_id" bigint,
	"template_id" bigint,
	CONSTRAINT "sequence_templates_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "sequences" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "sequences_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"description" text,
	"locked" boolean DEFAULT false,
	"locked_at" timestamp(3) with time zone,
	"name" text,
	"sequence_type" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"ruleset_id" bigint,
	CONSTRAINT "sequences_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "snippets" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "snippets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"body_html" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"owner_id" bigint,
	CONSTRAINT "snippets_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "stages" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "stages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"color" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"order" integer,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stages_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text,
	"completed" boolean DEFAULT false,
	"completed_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp(3) with time zone,
	"note" text,
	"state" text DEFAULT 'incomplete',
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"owner_id" bigint,
	"prospect_id" bigint,
	"template_id" bigint,
	CONSTRAINT "tasks_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"body_html" text,
	"cc_recipients" text[],
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"subject" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"owner_id" bigint,
	CONSTRAINT "templates_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"job_role_by_name" text,
	"last_name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhooks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text DEFAULT '*',
	"active" boolean DEFAULT true,
	"cleanup_token" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"creator_app_id" text,
	"creator_app_name" text,
	"disabled_reason" text,
	"disabled_since" timestamp(3) with time zone,
	"disabled_until" timestamp(3) with time zone,
	"payload_version" integer DEFAULT 1,
	"resource" text DEFAULT '*',
	"secret" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"url" text NOT NULL,
	"authorizer_id" bigint,
	CONSTRAINT "webhooks_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"user_id" bigint,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."org_admins" (
	"org_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "org_admins_pkey" PRIMARY KEY("org_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."orgs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cadence_system"."orgs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"locked_at" timestamp(3) with time zone,
	"deleted_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_notes" ADD CONSTRAINT "account_notes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_notes" ADD CONSTRAINT "account_notes_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_batch_fk" FOREIGN KEY ("org_id","batch_id") REFERENCES "public"."batches"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_dispositions" ADD CONSTRAINT "call_dispositions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_purposes" ADD CONSTRAINT "call_purposes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_call_disposition_fk" FOREIGN KEY ("org_id","call_disposition_id") REFERENCES "public"."call_dispositions"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_call_purpose_fk" FOREIGN KEY ("org_id","call_purpose_id") REFERENCES "public"."call_purposes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD CONSTRAINT "compliance_requests_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_addresses" ADD CONSTRAINT "email_addresses_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_addresses" ADD CONSTRAINT "email_addresses_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD CONSTRAINT "kaia_recordings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD CONSTRAINT "kaia_recordings_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kaia_voice_imports" ADD CONSTRAINT "kaia_voice_imports_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_mailbox_fk" FOREIGN KEY ("org_id","mailbox_id") REFERENCES "public"."mailboxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_sequence_state_fk" FOREIGN KEY ("org_id","sequence_state_id") REFERENCES "public"."sequence_states"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_template_fk" FOREIGN KEY ("org_id","template_id") REFERENCES "public"."templates"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunity_prospect_roles" ADD CONSTRAINT "opportunity_prospect_roles_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunity_prospect_roles" ADD CONSTRAINT "opportunity_prospect_roles_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunity_prospect_roles" ADD CONSTRAINT "opportunity_prospect_roles_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospect_notes" ADD CONSTRAINT "prospect_notes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospect_notes" ADD CONSTRAINT "prospect_notes_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_stage_fk" FOREIGN KEY ("org_id","stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_product_fk" FOREIGN KEY ("org_id","product_id") REFERENCES "public"."products"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_mailbox_fk" FOREIGN KEY ("org_id","mailbox_id") REFERENCES "public"."mailboxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_sequence_fk" FOREIGN KEY ("org_id","sequence_id") REFERENCES "public"."sequences"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_sequence_step_fk" FOREIGN KEY ("org_id","sequence_step_id") REFERENCES "public"."sequence_steps"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_sequence_fk" FOREIGN KEY ("org_id","sequence_id") REFERENCES "public"."sequences"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD CONSTRAINT "sequence_templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD CONSTRAINT "sequence_templates_sequence_step_fk" FOREIGN KEY ("org_id","sequence_step_id") REFERENCES "public"."sequence_steps"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD CONSTRAINT "sequence_templates_template_fk" FOREIGN KEY ("org_id","template_id") REFERENCES "public"."templates"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_ruleset_fk" FOREIGN KEY ("org_id","ruleset_id") REFERENCES "public"."rulesets"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_template_fk" FOREIGN KEY ("org_id","template_id") REFERENCES "public"."templates"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_authorizer_fk" FOREIGN KEY ("org_id","authorizer_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."access_tokens" ADD CONSTRAINT "access_tokens_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."access_tokens" ADD CONSTRAINT "access_tokens_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."org_admins" ADD CONSTRAINT "org_admins_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_notes_account_id_idx" ON "account_notes" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "account_notes_created_at_idx" ON "account_notes" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "account_notes_updated_at_idx" ON "account_notes" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "accounts_buyer_intent_score_idx" ON "accounts" USING btree ("org_id","buyer_intent_score","id");--> statement-breakpoint
CREATE INDEX "accounts_created_at_idx" ON "accounts" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "accounts_domain_idx" ON "accounts" USING btree ("org_id","domain","id");--> statement-breakpoint
CREATE INDEX "accounts_name_idx" ON "accounts" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "accounts_named_idx" ON "accounts" USING btree ("org_id","named","id");--> statement-breakpoint
CREATE INDEX "accounts_owner_id_idx" ON "accounts" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "accounts_updated_at_idx" ON "accounts" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "batch_items_batch_id_idx" ON "batch_items" USING btree ("org_id","batch_id","id");--> statement-breakpoint
CREATE INDEX "batch_items_created_at_idx" ON "batch_items" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "batch_items_item_id_idx" ON "batch_items" USING btree ("org_id","item_id","id");--> statement-breakpoint
CREATE INDEX "batch_items_state_idx" ON "batch_items" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "batch_items_updated_at_idx" ON "batch_items" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "batches_action_idx" ON "batches" USING btree ("org_id","action");--> statement-breakpoint
CREATE INDEX "batches_context_id_idx" ON "batches" USING btree ("org_id","context_id","id");--> statement-breakpoint
CREATE INDEX "batches_context_type_idx" ON "batches" USING btree ("org_id","context_type","id");--> statement-breakpoint
CREATE INDEX "batches_created_at_idx" ON "batches" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "batches_finished_at_idx" ON "batches" USING btree ("org_id","finished_at","id");--> statement-breakpoint
CREATE INDEX "batches_state_idx" ON "batches" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "batches_total_idx" ON "batches" USING btree ("org_id","total","id");--> statement-breakpoint
CREATE INDEX "batches_updated_at_idx" ON "batches" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "call_dispositions_created_at_idx" ON "call_dispositions" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "call_dispositions_name_idx" ON "call_dispositions" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "call_dispositions_order_idx" ON "call_dispositions" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "call_dispositions_outcome_idx" ON "call_dispositions" USING btree ("org_id","outcome","id");--> statement-breakpoint
CREATE INDEX "call_dispositions_updated_at_idx" ON "call_dispositions" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "call_purposes_created_at_idx" ON "call_purposes" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "call_purposes_name_idx" ON "call_purposes" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "call_purposes_order_idx" ON "call_purposes" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "call_purposes_updated_at_idx" ON "call_purposes" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "calls_associated_id_idx" ON "calls" USING btree ("org_id","associated_id","id");--> statement-breakpoint
CREATE INDEX "calls_call_disposition_id_idx" ON "calls" USING btree ("org_id","call_disposition_id","id");--> statement-breakpoint
CREATE INDEX "calls_call_purpose_id_idx" ON "calls" USING btree ("org_id","call_purpose_id","id");--> statement-breakpoint
CREATE INDEX "calls_created_at_idx" ON "calls" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "calls_outcome_idx" ON "calls" USING btree ("org_id","outcome","id");--> statement-breakpoint
CREATE INDEX "calls_prospect_id_idx" ON "calls" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "calls_task_id_idx" ON "calls" USING btree ("org_id","task_id","id");--> statement-breakpoint
CREATE INDEX "calls_updated_at_idx" ON "calls" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "calls_user_id_idx" ON "calls" USING btree ("org_id","user_id","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_batch_compliance_request_idx" ON "compliance_requests" USING btree ("org_id","batch_compliance_request","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_created_at_idx" ON "compliance_requests" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_request_object_email_idx" ON "compliance_requests" USING btree ("org_id","request_object_email","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_requester_email_idx" ON "compliance_requests" USING btree ("org_id","requester_email","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_state_idx" ON "compliance_requests" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_updated_at_idx" ON "compliance_requests" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "email_addresses_created_at_idx" ON "email_addresses" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "email_addresses_email_idx" ON "email_addresses" USING btree ("org_id","email","id");--> statement-breakpoint
CREATE INDEX "email_addresses_email_type_idx" ON "email_addresses" USING btree ("org_id","email_type","id");--> statement-breakpoint
CREATE INDEX "email_addresses_order_idx" ON "email_addresses" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "email_addresses_prospect_id_idx" ON "email_addresses" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "email_addresses_status_changed_at_idx" ON "email_addresses" USING btree ("org_id","status_changed_at","id");--> statement-breakpoint
CREATE INDEX "email_addresses_status_idx" ON "email_addresses" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "email_addresses_unsubscribed_at_idx" ON "email_addresses" USING btree ("org_id","unsubscribed_at","id");--> statement-breakpoint
CREATE INDEX "email_addresses_updated_at_idx" ON "email_addresses" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "events_action_idx" ON "events" USING btree ("org_id","action","id");--> statement-breakpoint
CREATE INDEX "events_created_at_idx" ON "events" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_name_idx" ON "events" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "events_resource_id_idx" ON "events" USING btree ("org_id","resource_id","id");--> statement-breakpoint
CREATE INDEX "events_resource_type_idx" ON "events" USING btree ("org_id","resource_type","id");--> statement-breakpoint
CREATE INDEX "events_updated_at_idx" ON "events" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "favorites_created_at_idx" ON "favorites" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "favorites_target_id_idx" ON "favorites" USING btree ("org_id","target_id");--> statement-breakpoint
CREATE INDEX "favorites_target_type_idx" ON "favorites" USING btree ("org_id","target_type");--> statement-breakpoint
CREATE INDEX "favorites_updated_at_idx" ON "favorites" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "favorites_user_id_idx" ON "favorites" USING btree ("org_id","user_id","id");--> statement-breakpoint
CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imports_frequency_idx" ON "imports" USING btree ("org_id","frequency","id");--> statement-breakpoint
CREATE INDEX "imports_recurring_idx" ON "imports" USING btree ("org_id","recurring","id");--> statement-breakpoint
CREATE INDEX "imports_state_idx" ON "imports" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "imports_updated_at_idx" ON "imports" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_created_at_idx" ON "kaia_recordings" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_end_time_idx" ON "kaia_recordings" USING btree ("org_id","end_time","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_format_idx" ON "kaia_recordings" USING btree ("org_id","format");--> statement-breakpoint
CREATE INDEX "kaia_recordings_instance_id_idx" ON "kaia_recordings" USING btree ("org_id","instance_id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_media_duration_seconds_idx" ON "kaia_recordings" USING btree ("org_id","media_duration_seconds");--> statement-breakpoint
CREATE INDEX "kaia_recordings_owner_id_idx" ON "kaia_recordings" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_provider_idx" ON "kaia_recordings" USING btree ("org_id","provider");--> statement-breakpoint
CREATE INDEX "kaia_recordings_source_id_idx" ON "kaia_recordings" USING btree ("org_id","source_id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_start_time_idx" ON "kaia_recordings" USING btree ("org_id","start_time","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_state_idx" ON "kaia_recordings" USING btree ("org_id","state");--> statement-breakpoint
CREATE INDEX "kaia_recordings_updated_at_idx" ON "kaia_recordings" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "kaia_voice_imports_created_at_idx" ON "kaia_voice_imports" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "kaia_voice_imports_updated_at_idx" ON "kaia_voice_imports" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mailboxes_created_at_idx" ON "mailboxes" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mailboxes_email_idx" ON "mailboxes" USING btree ("org_id","email","id");--> statement-breakpoint
CREATE INDEX "mailboxes_updated_at_idx" ON "mailboxes" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mailboxes_user_id_idx" ON "mailboxes" USING btree ("org_id","user_id","id");--> statement-breakpoint
CREATE INDEX "mailings_bounced_at_idx" ON "mailings" USING btree ("org_id","bounced_at","id");--> statement-breakpoint
CREATE INDEX "mailings_clicked_at_idx" ON "mailings" USING btree ("org_id","clicked_at","id");--> statement-breakpoint
CREATE INDEX "mailings_created_at_idx" ON "mailings" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mailings_delivered_at_idx" ON "mailings" USING btree ("org_id","delivered_at","id");--> statement-breakpoint
CREATE INDEX "mailings_mailbox_id_idx" ON "mailings" USING btree ("org_id","mailbox_id","id");--> statement-breakpoint
CREATE INDEX "mailings_mailing_type_idx" ON "mailings" USING btree ("org_id","mailing_type","id");--> statement-breakpoint
CREATE INDEX "mailings_message_id_idx" ON "mailings" USING btree ("org_id","message_id","id");--> statement-breakpoint
CREATE INDEX "mailings_opened_at_idx" ON "mailings" USING btree ("org_id","opened_at","id");--> statement-breakpoint
CREATE INDEX "mailings_prospect_id_idx" ON "mailings" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "mailings_replied_at_idx" ON "mailings" USING btree ("org_id","replied_at","id");--> statement-breakpoint
CREATE INDEX "mailings_scheduled_at_idx" ON "mailings" USING btree ("org_id","scheduled_at","id");--> statement-breakpoint
CREATE INDEX "mailings_sequence_state_id_idx" ON "mailings" USING btree ("org_id","sequence_state_id","id");--> statement-breakpoint
CREATE INDEX "mailings_state_changed_at_idx" ON "mailings" USING btree ("org_id","state_changed_at","id");--> statement-breakpoint
CREATE INDEX "mailings_state_idx" ON "mailings" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "mailings_template_id_idx" ON "mailings" USING btree ("org_id","template_id","id");--> statement-breakpoint
CREATE INDEX "mailings_unsubscribed_at_idx" ON "mailings" USING btree ("org_id","unsubscribed_at","id");--> statement-breakpoint
CREATE INDEX "mailings_updated_at_idx" ON "mailings" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "opportunities_account_id_idx" ON "opportunities" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_amount_precise_idx" ON "opportunities" USING btree ("org_id","amount_precise","id");--> statement-breakpoint
CREATE INDEX "opportunities_created_at_idx" ON "opportunities" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "opportunities_external_created_at_idx" ON "opportunities" USING btree ("org_id","external_created_at");--> statement-breakpoint
CREATE INDEX "opportunities_forecast_category_idx" ON "opportunities" USING btree ("org_id","forecast_category","id");--> statement-breakpoint
CREATE INDEX "opportunities_lead_source_idx" ON "opportunities" USING btree ("org_id","lead_source","id");--> statement-breakpoint
CREATE INDEX "opportunities_lost_reason_idx" ON "opportunities" USING btree ("org_id","lost_reason","id");--> statement-breakpoint
CREATE INDEX "opportunities_name_idx" ON "opportunities" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "opportunities_owner_id_idx" ON "opportunities" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_record_type_idx" ON "opportunities" USING btree ("org_id","record_type","id");--> statement-breakpoint
CREATE INDEX "opportunities_updated_at_idx" ON "opportunities" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_created_at_idx" ON "opportunity_prospect_roles" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_opportunity_id_idx" ON "opportunity_prospect_roles" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_prospect_id_idx" ON "opportunity_prospect_roles" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_role_idx" ON "opportunity_prospect_roles" USING btree ("org_id","role","id");--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_updated_at_idx" ON "opportunity_prospect_roles" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_classification_idx" ON "products" USING btree ("org_id","classification");--> statement-breakpoint
CREATE INDEX "products_created_at_idx" ON "products" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "products_owner_id_idx" ON "products" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "products_updated_at_idx" ON "products" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "prospect_notes_created_at_idx" ON "prospect_notes" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "prospect_notes_prospect_id_idx" ON "prospect_notes" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "prospect_notes_updated_at_idx" ON "prospect_notes" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "prospects_account_id_idx" ON "prospects" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "prospects_created_at_idx" ON "prospects" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "prospects_first_name_idx" ON "prospects" USING btree ("org_id","first_name","id");--> statement-breakpoint
CREATE INDEX "prospects_last_name_idx" ON "prospects" USING btree ("org_id","last_name","id");--> statement-breakpoint
CREATE INDEX "prospects_owner_id_idx" ON "prospects" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "prospects_stage_id_idx" ON "prospects" USING btree ("org_id","stage_id","id");--> statement-breakpoint
CREATE INDEX "prospects_title_idx" ON "prospects" USING btree ("org_id","title","id");--> statement-breakpoint
CREATE INDEX "prospects_updated_at_idx" ON "prospects" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "purchases_account_id_idx" ON "purchases" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "purchases_created_at_idx" ON "purchases" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "purchases_currency_idx" ON "purchases" USING btree ("org_id","currency");--> statement-breakpoint
CREATE INDEX "purchases_end_date_idx" ON "purchases" USING btree ("org_id","end_date","id");--> statement-breakpoint
CREATE INDEX "purchases_product_id_idx" ON "purchases" USING btree ("org_id","product_id","id");--> statement-breakpoint
CREATE INDEX "purchases_start_date_idx" ON "purchases" USING btree ("org_id","start_date","id");--> statement-breakpoint
CREATE INDEX "purchases_total_value_idx" ON "purchases" USING btree ("org_id","total_value");--> statement-breakpoint
CREATE INDEX "purchases_updated_at_idx" ON "purchases" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "recipients_created_at_idx" ON "recipients" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "recipients_prospect_id_idx" ON "recipients" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "recipients_updated_at_idx" ON "recipients" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "recipients_user_id_idx" ON "recipients" USING btree ("org_id","user_id","id");--> statement-breakpoint
CREATE INDEX "roles_created_at_idx" ON "roles" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "roles_external_id_idx" ON "roles" USING btree ("org_id","external_id","id");--> statement-breakpoint
CREATE INDEX "roles_name_idx" ON "roles" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "roles_updated_at_idx" ON "roles" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "rulesets_auto_resume_ooto_prospects_idx" ON "rulesets" USING btree ("org_id","auto_resume_ooto_prospects","id");--> statement-breakpoint
CREATE INDEX "rulesets_created_at_idx" ON "rulesets" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "rulesets_name_idx" ON "rulesets" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "rulesets_permit_duplicate_prospects_idx" ON "rulesets" USING btree ("org_id","permit_duplicate_prospects","id");--> statement-breakpoint
CREATE INDEX "rulesets_updated_at_idx" ON "rulesets" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "sequence_states_created_at_idx" ON "sequence_states" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sequence_states_mailbox_id_idx" ON "sequence_states" USING btree ("org_id","mailbox_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_prospect_id_idx" ON "sequence_states" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_sequence_id_idx" ON "sequence_states" USING btree ("org_id","sequence_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_sequence_step_id_idx" ON "sequence_states" USING btree ("org_id","sequence_step_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_state_changed_at_idx" ON "sequence_states" USING btree ("org_id","state_changed_at","id");--> statement-breakpoint
CREATE INDEX "sequence_states_state_idx" ON "sequence_states" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "sequence_states_updated_at_idx" ON "sequence_states" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_created_at_idx" ON "sequence_steps" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_date_idx" ON "sequence_steps" USING btree ("org_id","date","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_order_idx" ON "sequence_steps" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_sequence_id_idx" ON "sequence_steps" USING btree ("org_id","sequence_id","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_step_type_idx" ON "sequence_steps" USING btree ("org_id","step_type","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_updated_at_idx" ON "sequence_steps" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "sequence_templates_created_at_idx" ON "sequence_templates" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sequence_templates_sequence_step_id_idx" ON "sequence_templates" USING btree ("org_id","sequence_step_id","id");--> statement-breakpoint
CREATE INDEX "sequence_templates_template_id_idx" ON "sequence_templates" USING btree ("org_id","template_id","id");--> statement-breakpoint
CREATE INDEX "sequence_templates_updated_at_idx" ON "sequence_templates" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "sequences_created_at_idx" ON "sequences" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sequences_locked_at_idx" ON "sequences" USING btree ("org_id","locked_at","id");--> statement-breakpoint
CREATE INDEX "sequences_name_idx" ON "sequences" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "sequences_ruleset_id_idx" ON "sequences" USING btree ("org_id","ruleset_id","id");--> statement-breakpoint
CREATE INDEX "sequences_updated_at_idx" ON "sequences" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "snippets_created_at_idx" ON "snippets" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "snippets_name_idx" ON "snippets" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "snippets_owner_id_idx" ON "snippets" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "snippets_updated_at_idx" ON "snippets" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "stages_created_at_idx" ON "stages" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "stages_name_idx" ON "stages" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "stages_order_idx" ON "stages" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "stages_updated_at_idx" ON "stages" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "tasks_created_at_idx" ON "tasks" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_due_at_idx" ON "tasks" USING btree ("org_id","due_at","id");--> statement-breakpoint
CREATE INDEX "tasks_owner_id_idx" ON "tasks" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "tasks_prospect_id_idx" ON "tasks" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "tasks_state_idx" ON "tasks" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "tasks_template_id_idx" ON "tasks" USING btree ("org_id","template_id","id");--> statement-breakpoint
CREATE INDEX "tasks_updated_at_idx" ON "tasks" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "templates_created_at_idx" ON "templates" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "templates_name_idx" ON "templates" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "templates_owner_id_idx" ON "templates" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "templates_updated_at_idx" ON "templates" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("org_id","email","id");--> statement-breakpoint
CREATE INDEX "users_first_name_idx" ON "users" USING btree ("org_id","first_name","id");--> statement-breakpoint
CREATE INDEX "users_last_name_idx" ON "users" USING btree ("org_id","last_name","id");--> statement-breakpoint
CREATE INDEX "users_updated_at_idx" ON "users" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "webhooks_action_idx" ON "webhooks" USING btree ("org_id","action","id");--> statement-breakpoint
CREATE INDEX "webhooks_active_idx" ON "webhooks" USING btree ("org_id","active","id");--> statement-breakpoint
CREATE INDEX "webhooks_authorizer_id_idx" ON "webhooks" USING btree ("org_id","authorizer_id","id");--> statement-breakpoint
CREATE INDEX "webhooks_created_at_idx" ON "webhooks" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhooks_creator_app_id_idx" ON "webhooks" USING btree ("org_id","creator_app_id","id");--> statement-breakpoint
CREATE INDEX "webhooks_creator_app_name_idx" ON "webhooks" USING btree ("org_id","creator_app_name","id");--> statement-breakpoint
CREATE INDEX "webhooks_resource_idx" ON "webhooks" USING btree ("org_id","resource","id");--> statement-breakpoint
CREATE INDEX "webhooks_updated_at_idx" ON "webhooks" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "access_tokens_org_user_idx" ON "cadence_system"."access_tokens" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "access_tokens_expires_at_idx" ON "cadence_system"."access_tokens" USING btree ("expires_at");