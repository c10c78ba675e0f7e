-- The reference schema's resources and attributes: 15 new tenant tables (personas, teams, duties, content categories, ...), the columns, relationships and indexes the existing resources lacked, opportunities.trashed_at indexed for its filter.
CREATE TABLE "audit_logs" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text,
	"additional_info" jsonb,
	"agent" jsonb,
	"changes" jsonb,
	"event_name" text,
	"global_id" text,
	"request_id" text,
	"result" text,
	"timestamp" timestamp(3) with time zone,
	CONSTRAINT "audit_logs_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "content_categories" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "content_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"allow_sequences" boolean,
	"allow_snippets" boolean,
	"allow_templates" boolean,
	"color" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"creator_id" bigint,
	CONSTRAINT "content_categories_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "content_category_memberships" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "content_category_memberships_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"content_category_id" bigint,
	"creator_id" bigint,
	CONSTRAINT "content_category_memberships_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "content_category_ownerships" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "content_category_ownerships_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"content_category_id" bigint,
	"creator_id" bigint,
	"owner_id" bigint,
	CONSTRAINT "content_category_ownerships_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "duties" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "duties_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"duty_type" text,
	"symbolic_name" text,
	CONSTRAINT "duties_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "mail_aliases" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "mail_aliases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"can_send" boolean,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"email" text,
	"email_hash" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"mailbox_id" bigint,
	CONSTRAINT "mail_aliases_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "opportunity_stages" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "opportunity_stages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"color" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"is_closed" boolean,
	"name" text,
	"order" integer,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"creator_id" bigint,
	CONSTRAINT "opportunity_stages_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "org_settings" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "org_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"contact_exclusions" text,
	"prospect_email_exclusions" text,
	"send_exclusions" text,
	CONSTRAINT "org_settings_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "personas" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "personas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"description" text,
	"name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "personas_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "phone_numbers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"country_code" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"extension" text,
	"number" text,
	"order" integer,
	"phone_type" text,
	"raw_number" text,
	"status" text,
	"status_changed_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"prospect_id" bigint,
	CONSTRAINT "phone_numbers_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"is_admin" boolean,
	"name" text,
	"special_id" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_dispositions" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "task_dispositions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"order" integer,
	"task_type" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"value" text,
	"creator_id" bigint,
	CONSTRAINT "task_dispositions_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_priorities" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "task_priorities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"color" integer,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"weight" integer,
	CONSTRAINT "task_priorities_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_purposes" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "task_purposes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"order" integer,
	"task_type" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"creator_id" bigint,
	CONSTRAINT "task_purposes_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"org_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "teams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"color" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"name" text,
	"scim_external_id" text,
	"scim_source" text,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"creator_id" bigint,
	"updater_id" bigint,
	CONSTRAINT "teams_pkey" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "account_notes" ADD COLUMN "opportunity_association_rule" text;--> statement-breakpoint
ALTER TABLE "account_notes" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom10" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom100" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom101" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom102" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom103" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom104" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom105" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom106" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom107" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom108" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom109" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom11" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom110" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom111" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom112" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom113" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom114" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom115" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom116" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom117" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom118" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom119" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom12" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom120" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom121" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom122" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom123" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom124" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom125" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom126" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom127" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom128" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom129" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom13" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom130" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom131" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom132" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom133" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom134" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom135" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom136" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom137" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom138" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom139" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom14" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom140" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom141" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom142" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom143" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom144" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom145" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom146" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom147" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom148" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom149" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom15" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom150" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom16" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom17" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom18" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom19" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom2" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom20" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom21" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom22" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom23" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom24" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom25" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom26" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom27" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom28" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom29" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom3" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom30" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom31" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom32" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom33" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom34" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom35" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom36" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom37" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom38" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom39" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom4" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom40" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom41" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom42" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom43" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom44" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom45" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom46" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom47" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom48" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom49" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom5" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom50" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom51" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom52" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom53" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom54" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom55" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom56" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom57" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom58" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom59" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom6" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom60" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom61" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom62" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom63" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom64" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom65" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom66" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom67" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom68" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom69" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom7" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom70" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom71" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom72" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom73" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom74" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom75" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom76" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom77" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom78" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom79" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom8" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom80" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom81" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom82" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom83" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom84" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom85" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom86" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom87" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom88" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom89" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom9" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom90" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom91" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom92" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom93" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom94" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom95" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom96" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom97" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom98" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom99" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "custom_id" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "external_source" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "followers" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "founded_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "industry" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "linked_in_employees" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "linked_in_url" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "locality" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "natural_name" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "number_of_employees" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "sharing_team_id" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "touched_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "website_url" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "batch_items" ADD COLUMN "failed" boolean;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "call_dispositions" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "call_purposes" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "dialed_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "external_vendor" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "from" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "recording_url" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "returned_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "sequence_action" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "should_record_call" boolean;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "state_changed_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "to" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "uid" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "user_call_type" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "vendor_call_id" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "voicemail_recording_url" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "opportunity_id" bigint;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "phone_number_id" bigint;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "sequence_id" bigint;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "sequence_state_id" bigint;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "sequence_step_id" bigint;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD COLUMN "batch_compliance_request_uuid" text;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD COLUMN "pii" jsonb;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD COLUMN "request_object_id" text;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD COLUMN "uuid" text;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD COLUMN "requester_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "body" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "event_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "external_url" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "request_city" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "request_device" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "request_host" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "request_proxied" boolean;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "request_region" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "account_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "call_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "mailing_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "opportunity_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "prospect_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "task_id" bigint;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "user_id" bigint;--> statement-breakpoint
ALTER TABLE "favorites" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD COLUMN "bot_in_meeting_seconds" text;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD COLUMN "account_id" bigint;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD COLUMN "opportunity_id" bigint;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "auth_id" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "editable" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "email_hash" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "email_provider" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "ews_endpoint" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "ews_ssl_verify_mode" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "exchange_version" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "imap_host" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "imap_port" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "imap_ssl" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "opt_out_message" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "opt_out_signature" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "password" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "prospect_email_exclusions" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "provider_id" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "provider_type" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "send_max_retries" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "send_method" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "send_period" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "send_requires_sync" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "send_threshold" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sendgrid_api_key" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sendgrid_webhook_url" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "smtp_host" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "smtp_password" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "smtp_port" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "smtp_ssl" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "smtp_username" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sync_active_frequency" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sync_finished_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sync_method" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sync_outreach_folder" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sync_passive_frequency" integer;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "validate_send" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "validate_sync" boolean;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "error_backtrace" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "follow_up_task_scheduled_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "follow_up_task_type" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "mailbox_address" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "marked_as_spam_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "notify_thread_condition" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "notify_thread_scheduled_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "notify_thread_status" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "override_safety_settings" boolean;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "references" text[];--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "retry_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "retry_count" integer;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "retry_interval" integer;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "follow_up_sequence_id" bigint;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "opportunity_id" bigint;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "sequence_id" bigint;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "sequence_step_id" bigint;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "task_id" bigint;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "user_id" bigint;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "amount" integer;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "close_date" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "currency_type" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom1" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom10" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom100" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom101" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom102" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom103" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom104" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom105" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom106" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom107" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom108" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom109" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom11" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom110" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom111" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom112" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom113" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom114" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom115" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom116" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom117" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom118" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom119" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom12" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom120" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom121" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom122" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom123" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom124" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom125" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom126" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom127" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom128" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom129" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom13" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom130" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom131" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom132" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom133" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom134" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom135" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom136" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom137" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom138" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom139" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom14" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom140" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom141" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom142" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom143" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom144" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom145" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom146" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom147" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom148" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom149" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom15" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom150" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom16" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom17" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom18" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom19" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom2" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom20" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom21" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom22" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom23" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom24" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom25" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom26" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom27" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom28" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom29" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom3" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom30" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom31" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom32" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom33" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom34" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom35" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom36" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom37" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom38" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom39" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom4" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom40" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom41" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom42" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom43" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom44" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom45" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom46" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom47" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom48" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom49" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom5" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom50" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom51" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom52" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom53" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom54" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom55" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom56" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom57" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom58" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom59" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom6" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom60" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom61" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom62" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom63" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom64" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom65" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom66" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom67" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom68" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom69" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom7" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom70" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom71" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom72" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom73" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom74" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom75" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom76" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom77" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom78" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom79" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom8" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom80" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom81" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom82" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom83" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom84" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom85" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom86" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom87" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom88" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom89" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom9" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom90" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom91" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom92" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom93" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom94" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom95" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom96" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom97" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom98" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom99" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "custom_id" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "map_link" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "map_next_steps" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "map_status" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "next_step" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "opportunity_type" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "probability" integer;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "prospecting_rep_id" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "sharing_team_id" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "touched_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "opportunity_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "stage_id" bigint;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom1" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom10" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom100" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom101" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom102" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom103" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom104" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom105" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom106" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom107" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom108" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom109" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom11" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom110" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom111" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom112" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom113" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom114" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom115" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom116" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom117" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom118" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom119" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom12" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom120" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom121" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom122" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom123" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom124" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom125" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom126" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom127" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom128" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom129" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom13" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom130" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom131" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom132" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom133" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom134" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom135" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom136" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom137" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom138" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom139" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom14" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom140" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom141" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom142" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom143" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom144" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom145" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom146" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom147" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom148" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom149" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom15" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom150" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom16" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom17" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom18" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom19" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom2" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom20" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom21" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom22" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom23" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom24" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom25" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom26" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom27" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom28" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom29" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom3" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom30" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom31" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom32" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom33" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom34" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom35" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom36" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom37" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom38" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom39" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom4" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom40" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom41" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom42" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom43" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom44" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom45" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom46" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom47" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom48" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom49" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom5" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom50" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom51" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom52" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom53" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom54" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom55" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom56" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom57" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom58" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom59" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom6" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom60" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom61" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom62" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom63" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom64" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom65" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom66" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom67" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom68" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom69" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom7" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom70" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom71" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom72" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom73" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom74" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom75" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom76" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom77" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom78" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom79" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom8" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom80" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom81" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom82" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom83" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom84" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom85" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom86" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom87" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom88" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom89" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom9" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom90" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom91" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom92" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom93" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom94" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom95" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom96" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom97" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom98" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom99" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "deleted" boolean;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "product_family" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "status" boolean;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "unit_of_measure" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "prospect_notes" ADD COLUMN "opportunity_association_rule" text;--> statement-breakpoint
ALTER TABLE "prospect_notes" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "added_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "address_city" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "address_country" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "address_state" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "address_street" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "address_street2" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "address_zip" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "angel_list_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "available_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "call_opted_out" boolean;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "calls_opt_status" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "calls_opted_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "campaign_name" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "contact_histogram" jsonb;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom10" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom100" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom101" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom102" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom103" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom104" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom105" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom106" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom107" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom108" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom109" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom11" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom110" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom111" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom112" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom113" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom114" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom115" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom116" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom117" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom118" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom119" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom12" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom120" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom121" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom122" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom123" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom124" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom125" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom126" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom127" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom128" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom129" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom13" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom130" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom131" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom132" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom133" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom134" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom135" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom136" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom137" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom138" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom139" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom14" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom140" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom141" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom142" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom143" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom144" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom145" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom146" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom147" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom148" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom149" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom15" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom150" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom16" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom17" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom18" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom19" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom2" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom20" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom21" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom22" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom23" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom24" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom25" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom26" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom27" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom28" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom29" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom3" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom30" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom31" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom32" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom33" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom34" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom35" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom36" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom37" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom38" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom39" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom4" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom40" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom41" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom42" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom43" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom44" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom45" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom46" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom47" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom48" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom49" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom5" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom50" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom51" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom52" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom53" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom54" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom55" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom56" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom57" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom58" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom59" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom6" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom60" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom61" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom62" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom63" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom64" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom65" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom66" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom67" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom68" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom69" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom7" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom70" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom71" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom72" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom73" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom74" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom75" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom76" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom77" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom78" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom79" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom8" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom80" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom81" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom82" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom83" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom84" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom85" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom86" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom87" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom88" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom89" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom9" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom90" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom91" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom92" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom93" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom94" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom95" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom96" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom97" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom98" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "custom99" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "date_of_birth" date;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "degree" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "email_opted_out" boolean;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "emails_opt_status" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "emails_opted_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "engaged_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "engaged_score" double precision;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "event_name" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "external_owner" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "external_source" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "facebook_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "gender" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "github_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "github_username" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "google_plus_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "graduation_date" date;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "home_phones" text[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "job_start_date" date;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "linked_in_connections" integer;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "linked_in_id" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "linked_in_slug" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "linked_in_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "middle_name" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "mobile_phones" text[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "nickname" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "occupation" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "opted_out" boolean;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "opted_out_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "other_phones" text[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "personal_note1" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "personal_note2" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "preferred_contact" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "quora_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "region" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "school" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "score" double precision;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "sharing_team_id" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "specialties" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "stack_overflow_id" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "stack_overflow_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "time_zone_iana" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "time_zone_inferred" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "touched_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "trashed_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "twitter_url" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "twitter_username" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "voip_phones" text[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "website_url1" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "website_url2" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "website_url3" text;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "work_phones" text[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "persona_id" bigint;--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom1" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom10" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom100" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom101" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom102" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom103" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom104" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom105" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom106" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom107" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom108" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom109" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom11" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom110" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom111" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom112" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom113" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom114" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom115" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom116" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom117" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom118" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom119" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom12" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom120" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom121" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom122" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom123" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom124" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom125" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom126" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom127" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom128" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom129" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom13" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom130" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom131" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom132" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom133" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom134" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom135" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom136" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom137" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom138" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom139" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom14" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom140" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom141" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom142" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom143" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom144" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom145" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom146" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom147" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom148" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom149" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom15" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom150" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom16" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom17" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom18" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom19" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom2" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom20" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom21" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom22" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom23" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom24" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom25" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom26" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom27" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom28" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom29" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom3" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom30" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom31" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom32" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom33" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom34" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom35" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom36" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom37" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom38" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom39" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom4" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom40" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom41" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom42" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom43" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom44" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom45" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom46" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom47" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom48" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom49" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom5" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom50" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom51" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom52" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom53" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom54" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom55" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom56" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom57" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom58" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom59" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom6" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom60" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom61" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom62" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom63" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom64" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom65" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom66" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom67" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom68" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom69" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom7" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom70" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom71" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom72" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom73" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom74" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom75" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom76" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom77" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom78" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom79" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom8" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom80" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom81" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom82" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom83" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom84" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom85" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom86" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom87" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom88" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom89" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom9" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom90" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom91" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom92" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom93" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom94" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom95" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom96" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom97" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom98" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "custom99" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "potential_quantity" double precision;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "potential_value" double precision;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "saturation" double precision;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "status" boolean;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "total_quantity" double precision;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "recipients" ADD COLUMN "email_hash" text;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "parent_role_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "apply_completed_stage_in" integer;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "auto_resume_ooto_prospects_expires_in" integer;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "auto_resume_ooto_prospects_in" integer;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "call_opt_out_action" text;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "clicks_needed_before_call_task_created" integer;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "email_opt_out_action" text;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "include_unsubscribe_links" boolean;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "meeting_booked_action" text;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "minimum_prospect_touched_interval" integer;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "ooto_auto_extraction_enabled" boolean;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "opens_needed_before_call_task_created" integer;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "sequence_exclusivity" text;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "sms_opt_out_action" text;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "sms_received_action" text;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "step_overrides_enabled" boolean;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "bounced_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "call_task_priority_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "call_task_priority_from_clicks_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "call_task_priority_from_opens_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "completed_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "delivered_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "finished_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "opted_out_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "replied_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "rulesets" ADD COLUMN "started_stage_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "active_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "bounce_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "call_completed_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "click_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "deliver_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "error_reason" text;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "failure_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "negative_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "neutral_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "open_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "opt_out_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "pause_reason" text;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "positive_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "replied_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "schedule_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "account_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "batch_item_creator_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD COLUMN "opportunity_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "bounce_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "click_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "deliver_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "failure_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "negative_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "neutral_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "open_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "opt_out_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "positive_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "schedule_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "task_autoskip_delay" integer;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "task_note" text;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "call_purpose_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "task_priority_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "bounce_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "click_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "deliver_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "enabled" boolean;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "enabled_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "failure_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "negative_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "neutral_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "open_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "opt_out_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "positive_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "schedule_count" integer;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "automation_percentage" double precision;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "bounce_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "click_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "deliver_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "duration_in_days" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "enabled" boolean;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "enabled_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "failure_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "finish_on_reply" boolean;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "last_used_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "max_activations" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "negative_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "neutral_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "num_contacted_prospects" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "num_replied_prospects" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "open_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "opt_out_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "positive_reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "primary_reply_action" text;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "primary_reply_pause_duration" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "reply_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "sales_motion" text;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "schedule_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "schedule_interval_type" text;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "secondary_reply_action" text;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "secondary_reply_pause_duration" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "sequence_step_count" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "share_type" text;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "throttle_capacity" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "throttle_max_adds_per_day" integer;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "throttle_paused" boolean;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "throttle_paused_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "transactional" boolean;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "sequences" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "snippets" ADD COLUMN "body_text" text;--> statement-breakpoint
ALTER TABLE "snippets" ADD COLUMN "share_type" text;--> statement-breakpoint
ALTER TABLE "snippets" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "snippets" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "snippets" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "autoskip_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "compiled_sequence_template_html" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "opportunity_association" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "scheduled_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "state_changed_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "task_type" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "account_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "call_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "completer_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "mailing_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "opportunity_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "sequence_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "sequence_state_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "sequence_step_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "sequence_template_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "task_disposition_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "task_priority_id" bigint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "task_purpose_id" bigint;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "archived" boolean;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "archived_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "bcc_recipients" text[];--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "body_text" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "bounce_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "click_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "deliver_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "failure_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "last_used_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "negative_reply_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "neutral_reply_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "open_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "opt_out_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "positive_reply_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "reply_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "schedule_count" integer;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "share_type" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "tags" text[];--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "to_recipients" text[];--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "track_links" boolean;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "track_opens" boolean;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "accounts_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "activity_notifications_disabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bounce_warning_email_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bridge_phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bridge_phone_extension" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calls_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "controlled_tab_default" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "current_sign_in_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "custom1" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "custom2" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "custom3" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "custom4" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "custom5" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "daily_digest_email_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "default_ruleset_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "duties" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "enable_voice_recordings" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "engagement_emails_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_bridge_phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_bridge_phone_extension" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_call_behavior" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_phone_type" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_voicemail_custom_message_text" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_voicemail_message_text_voice" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inbound_voicemail_prompt_type" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "kaia_recordings_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "keep_bridge_phone_connected" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locked" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mailbox_error_email_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "meeting_engagement_notification_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notifications_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_click_to_dial_everywhere" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_gmail_toolbar" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_gmail_tracking_state" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_salesforce_email_decorating" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_salesforce_phone_decorating" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_universal_task_flow" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oce_window_mode" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "opportunities_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_expires_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_country_code" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_type" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "plugin_alert_notification_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "preferred_voice_region" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "prefers_local_presence" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "prospects_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reports_team_perf_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reports_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "scim_external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "scim_source" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sender_notifications_excluded" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tasks_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "teams_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "texting_email_notifications" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "unknown_reply_email_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "user_guid" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "users_view_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "voicemail_notification_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_digest_email_enabled" boolean;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mailbox_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "profile_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "creator_id" bigint;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "updater_id" bigint;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_categories" ADD CONSTRAINT "content_categories_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_categories" ADD CONSTRAINT "content_categories_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_memberships" ADD CONSTRAINT "content_category_memberships_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_memberships" ADD CONSTRAINT "content_category_memberships_content_category_fk" FOREIGN KEY ("org_id","content_category_id") REFERENCES "public"."content_categories"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_memberships" ADD CONSTRAINT "content_category_memberships_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_ownerships" ADD CONSTRAINT "content_category_ownerships_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_ownerships" ADD CONSTRAINT "content_category_ownerships_content_category_fk" FOREIGN KEY ("org_id","content_category_id") REFERENCES "public"."content_categories"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_ownerships" ADD CONSTRAINT "content_category_ownerships_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_category_ownerships" ADD CONSTRAINT "content_category_ownerships_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."teams"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duties" ADD CONSTRAINT "duties_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_aliases" ADD CONSTRAINT "mail_aliases_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_aliases" ADD CONSTRAINT "mail_aliases_mailbox_fk" FOREIGN KEY ("org_id","mailbox_id") REFERENCES "public"."mailboxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunity_stages" ADD CONSTRAINT "opportunity_stages_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunity_stages" ADD CONSTRAINT "opportunity_stages_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_settings" ADD CONSTRAINT "org_settings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dispositions" ADD CONSTRAINT "task_dispositions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dispositions" ADD CONSTRAINT "task_dispositions_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_priorities" ADD CONSTRAINT "task_priorities_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_purposes" ADD CONSTRAINT "task_purposes_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_purposes" ADD CONSTRAINT "task_purposes_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("org_id","action","id");--> statement-breakpoint
CREATE INDEX "audit_logs_event_name_idx" ON "audit_logs" USING btree ("org_id","event_name","id");--> statement-breakpoint
CREATE INDEX "audit_logs_request_id_idx" ON "audit_logs" USING btree ("org_id","request_id","id");--> statement-breakpoint
CREATE INDEX "audit_logs_result_idx" ON "audit_logs" USING btree ("org_id","result","id");--> statement-breakpoint
CREATE INDEX "audit_logs_timestamp_idx" ON "audit_logs" USING btree ("org_id","timestamp","id");--> statement-breakpoint
CREATE INDEX "content_categories_created_at_idx" ON "content_categories" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "content_categories_creator_id_idx" ON "content_categories" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "content_categories_name_idx" ON "content_categories" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "content_categories_updated_at_idx" ON "content_categories" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "content_category_memberships_content_category_id_idx" ON "content_category_memberships" USING btree ("org_id","content_category_id","id");--> statement-breakpoint
CREATE INDEX "content_category_memberships_created_at_idx" ON "content_category_memberships" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "content_category_memberships_creator_id_idx" ON "content_category_memberships" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "content_category_memberships_updated_at_idx" ON "content_category_memberships" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "content_category_ownerships_content_category_id_idx" ON "content_category_ownerships" USING btree ("org_id","content_category_id","id");--> statement-breakpoint
CREATE INDEX "content_category_ownerships_created_at_idx" ON "content_category_ownerships" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "content_category_ownerships_creator_id_idx" ON "content_category_ownerships" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "content_category_ownerships_owner_id_idx" ON "content_category_ownerships" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "content_category_ownerships_updated_at_idx" ON "content_category_ownerships" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "mail_aliases_created_at_idx" ON "mail_aliases" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mail_aliases_mailbox_id_idx" ON "mail_aliases" USING btree ("org_id","mailbox_id","id");--> statement-breakpoint
CREATE INDEX "mail_aliases_updated_at_idx" ON "mail_aliases" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "opportunity_stages_created_at_idx" ON "opportunity_stages" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "opportunity_stages_creator_id_idx" ON "opportunity_stages" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "opportunity_stages_is_closed_idx" ON "opportunity_stages" USING btree ("org_id","is_closed","id");--> statement-breakpoint
CREATE INDEX "opportunity_stages_name_idx" ON "opportunity_stages" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "opportunity_stages_order_idx" ON "opportunity_stages" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "opportunity_stages_updated_at_idx" ON "opportunity_stages" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "personas_created_at_idx" ON "personas" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "personas_name_idx" ON "personas" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "personas_updated_at_idx" ON "personas" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_number_idx" ON "phone_numbers" USING btree ("org_id","number","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_order_idx" ON "phone_numbers" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_phone_type_idx" ON "phone_numbers" USING btree ("org_id","phone_type","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_prospect_id_idx" ON "phone_numbers" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_status_changed_at_idx" ON "phone_numbers" USING btree ("org_id","status_changed_at","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_status_idx" ON "phone_numbers" USING btree ("org_id","status","id");--> statement-breakpoint
CREATE INDEX "phone_numbers_updated_at_idx" ON "phone_numbers" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "profiles_created_at_idx" ON "profiles" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "profiles_name_idx" ON "profiles" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "profiles_special_id_idx" ON "profiles" USING btree ("org_id","special_id");--> statement-breakpoint
CREATE INDEX "profiles_updated_at_idx" ON "profiles" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_created_at_idx" ON "task_dispositions" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_creator_id_idx" ON "task_dispositions" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_name_idx" ON "task_dispositions" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_order_idx" ON "task_dispositions" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_task_type_idx" ON "task_dispositions" USING btree ("org_id","task_type","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_updated_at_idx" ON "task_dispositions" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "task_dispositions_value_idx" ON "task_dispositions" USING btree ("org_id","value","id");--> statement-breakpoint
CREATE INDEX "task_priorities_created_at_idx" ON "task_priorities" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "task_priorities_name_idx" ON "task_priorities" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "task_priorities_updated_at_idx" ON "task_priorities" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "task_priorities_weight_idx" ON "task_priorities" USING btree ("org_id","weight","id");--> statement-breakpoint
CREATE INDEX "task_purposes_created_at_idx" ON "task_purposes" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "task_purposes_creator_id_idx" ON "task_purposes" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "task_purposes_name_idx" ON "task_purposes" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "task_purposes_order_idx" ON "task_purposes" USING btree ("org_id","order","id");--> statement-breakpoint
CREATE INDEX "task_purposes_task_type_idx" ON "task_purposes" USING btree ("org_id","task_type","id");--> statement-breakpoint
CREATE INDEX "task_purposes_updated_at_idx" ON "task_purposes" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "teams_created_at_idx" ON "teams" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "teams_creator_id_idx" ON "teams" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "teams_name_idx" ON "teams" USING btree ("org_id","name","id");--> statement-breakpoint
CREATE INDEX "teams_updated_at_idx" ON "teams" USING btree ("org_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "teams_updater_id_idx" ON "teams" USING btree ("org_id","updater_id","id");--> statement-breakpoint
ALTER TABLE "account_notes" ADD CONSTRAINT "account_notes_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_dispositions" ADD CONSTRAINT "call_dispositions_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_purposes" ADD CONSTRAINT "call_purposes_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_phone_number_fk" FOREIGN KEY ("org_id","phone_number_id") REFERENCES "public"."phone_numbers"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_sequence_fk" FOREIGN KEY ("org_id","sequence_id") REFERENCES "public"."sequences"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_sequence_state_fk" FOREIGN KEY ("org_id","sequence_state_id") REFERENCES "public"."sequence_states"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_sequence_step_fk" FOREIGN KEY ("org_id","sequence_step_id") REFERENCES "public"."sequence_steps"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_requests" ADD CONSTRAINT "compliance_requests_requester_fk" FOREIGN KEY ("org_id","requester_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_call_fk" FOREIGN KEY ("org_id","call_id") REFERENCES "public"."calls"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_mailing_fk" FOREIGN KEY ("org_id","mailing_id") REFERENCES "public"."mailings"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_prospect_fk" FOREIGN KEY ("org_id","prospect_id") REFERENCES "public"."prospects"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD CONSTRAINT "kaia_recordings_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kaia_recordings" ADD CONSTRAINT "kaia_recordings_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_follow_up_sequence_fk" FOREIGN KEY ("org_id","follow_up_sequence_id") REFERENCES "public"."sequences"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_sequence_fk" FOREIGN KEY ("org_id","sequence_id") REFERENCES "public"."sequences"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_sequence_step_fk" FOREIGN KEY ("org_id","sequence_step_id") REFERENCES "public"."sequence_steps"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_task_fk" FOREIGN KEY ("org_id","task_id") REFERENCES "public"."tasks"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_opportunity_stage_fk" FOREIGN KEY ("org_id","opportunity_stage_id") REFERENCES "public"."opportunity_stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_stage_fk" FOREIGN KEY ("org_id","stage_id") REFERENCES "public"."opportunity_stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospect_notes" ADD CONSTRAINT "prospect_notes_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_persona_fk" FOREIGN KEY ("org_id","persona_id") REFERENCES "public"."personas"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_parent_role_fk" FOREIGN KEY ("org_id","parent_role_id") REFERENCES "public"."roles"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_bounced_stage_fk" FOREIGN KEY ("org_id","bounced_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_call_task_priority_fk" FOREIGN KEY ("org_id","call_task_priority_id") REFERENCES "public"."task_priorities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_call_task_priority_from_clicks_fk" FOREIGN KEY ("org_id","call_task_priority_from_clicks_id") REFERENCES "public"."task_priorities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_call_task_priority_from_opens_fk" FOREIGN KEY ("org_id","call_task_priority_from_opens_id") REFERENCES "public"."task_priorities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_completed_stage_fk" FOREIGN KEY ("org_id","completed_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_delivered_stage_fk" FOREIGN KEY ("org_id","delivered_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_finished_stage_fk" FOREIGN KEY ("org_id","finished_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_opted_out_stage_fk" FOREIGN KEY ("org_id","opted_out_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_replied_stage_fk" FOREIGN KEY ("org_id","replied_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rulesets" ADD CONSTRAINT "rulesets_started_stage_fk" FOREIGN KEY ("org_id","started_stage_id") REFERENCES "public"."stages"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_batch_item_creator_fk" FOREIGN KEY ("org_id","batch_item_creator_id") REFERENCES "public"."batch_items"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_states" ADD CONSTRAINT "sequence_states_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_call_purpose_fk" FOREIGN KEY ("org_id","call_purpose_id") REFERENCES "public"."call_purposes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_task_priority_fk" FOREIGN KEY ("org_id","task_priority_id") REFERENCES "public"."task_priorities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD CONSTRAINT "sequence_templates_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_templates" ADD CONSTRAINT "sequence_templates_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_owner_fk" FOREIGN KEY ("org_id","owner_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets" ADD CONSTRAINT "snippets_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_account_fk" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_call_fk" FOREIGN KEY ("org_id","call_id") REFERENCES "public"."calls"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_completer_fk" FOREIGN KEY ("org_id","completer_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_mailing_fk" FOREIGN KEY ("org_id","mailing_id") REFERENCES "public"."mailings"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_opportunity_fk" FOREIGN KEY ("org_id","opportunity_id") REFERENCES "public"."opportunities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_sequence_fk" FOREIGN KEY ("org_id","sequence_id") REFERENCES "public"."sequences"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_sequence_state_fk" FOREIGN KEY ("org_id","sequence_state_id") REFERENCES "public"."sequence_states"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_sequence_step_fk" FOREIGN KEY ("org_id","sequence_step_id") REFERENCES "public"."sequence_steps"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_sequence_template_fk" FOREIGN KEY ("org_id","sequence_template_id") REFERENCES "public"."sequence_templates"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_task_disposition_fk" FOREIGN KEY ("org_id","task_disposition_id") REFERENCES "public"."task_dispositions"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_task_priority_fk" FOREIGN KEY ("org_id","task_priority_id") REFERENCES "public"."task_priorities"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_task_purpose_fk" FOREIGN KEY ("org_id","task_purpose_id") REFERENCES "public"."task_purposes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_mailbox_fk" FOREIGN KEY ("org_id","mailbox_id") REFERENCES "public"."mailboxes"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_profile_fk" FOREIGN KEY ("org_id","profile_id") REFERENCES "public"."profiles"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_fk" FOREIGN KEY ("org_id","role_id") REFERENCES "public"."roles"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_creator_fk" FOREIGN KEY ("org_id","creator_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_updater_fk" FOREIGN KEY ("org_id","updater_id") REFERENCES "public"."users"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_notes_creator_id_idx" ON "account_notes" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "accounts_creator_id_idx" ON "accounts" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "accounts_custom_id_idx" ON "accounts" USING btree ("org_id","custom_id","id");--> statement-breakpoint
CREATE INDEX "accounts_sharing_team_id_idx" ON "accounts" USING btree ("org_id","sharing_team_id");--> statement-breakpoint
CREATE INDEX "accounts_touched_at_idx" ON "accounts" USING btree ("org_id","touched_at","id");--> statement-breakpoint
CREATE INDEX "accounts_updater_id_idx" ON "accounts" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "batch_items_failed_idx" ON "batch_items" USING btree ("org_id","failed","id");--> statement-breakpoint
CREATE INDEX "call_dispositions_creator_id_idx" ON "call_dispositions" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "call_purposes_creator_id_idx" ON "call_purposes" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "calls_from_idx" ON "calls" USING btree ("org_id","from","id");--> statement-breakpoint
CREATE INDEX "calls_opportunity_id_idx" ON "calls" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "calls_phone_number_id_idx" ON "calls" USING btree ("org_id","phone_number_id","id");--> statement-breakpoint
CREATE INDEX "calls_recording_url_idx" ON "calls" USING btree ("org_id","recording_url","id");--> statement-breakpoint
CREATE INDEX "calls_sequence_id_idx" ON "calls" USING btree ("org_id","sequence_id","id");--> statement-breakpoint
CREATE INDEX "calls_sequence_state_id_idx" ON "calls" USING btree ("org_id","sequence_state_id","id");--> statement-breakpoint
CREATE INDEX "calls_sequence_step_id_idx" ON "calls" USING btree ("org_id","sequence_step_id","id");--> statement-breakpoint
CREATE INDEX "calls_state_idx" ON "calls" USING btree ("org_id","state","id");--> statement-breakpoint
CREATE INDEX "calls_to_idx" ON "calls" USING btree ("org_id","to","id");--> statement-breakpoint
CREATE INDEX "calls_user_call_type_idx" ON "calls" USING btree ("org_id","user_call_type","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_requester_id_idx" ON "compliance_requests" USING btree ("org_id","requester_id","id");--> statement-breakpoint
CREATE INDEX "compliance_requests_uuid_idx" ON "compliance_requests" USING btree ("org_id","uuid","id");--> statement-breakpoint
CREATE INDEX "events_account_id_idx" ON "events" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "events_call_id_idx" ON "events" USING btree ("org_id","call_id","id");--> statement-breakpoint
CREATE INDEX "events_event_at_idx" ON "events" USING btree ("org_id","event_at","id");--> statement-breakpoint
CREATE INDEX "events_mailing_id_idx" ON "events" USING btree ("org_id","mailing_id","id");--> statement-breakpoint
CREATE INDEX "events_opportunity_id_idx" ON "events" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "events_prospect_id_idx" ON "events" USING btree ("org_id","prospect_id","id");--> statement-breakpoint
CREATE INDEX "events_task_id_idx" ON "events" USING btree ("org_id","task_id","id");--> statement-breakpoint
CREATE INDEX "events_user_id_idx" ON "events" USING btree ("org_id","user_id","id");--> statement-breakpoint
CREATE INDEX "favorites_creator_id_idx" ON "favorites" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "imports_creator_id_idx" ON "imports" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_account_id_idx" ON "kaia_recordings" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "kaia_recordings_bot_in_meeting_seconds_idx" ON "kaia_recordings" USING btree ("org_id","bot_in_meeting_seconds");--> statement-breakpoint
CREATE INDEX "kaia_recordings_opportunity_id_idx" ON "kaia_recordings" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "mailboxes_creator_id_idx" ON "mailboxes" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "mailboxes_updater_id_idx" ON "mailboxes" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "mailings_follow_up_sequence_id_idx" ON "mailings" USING btree ("org_id","follow_up_sequence_id","id");--> statement-breakpoint
CREATE INDEX "mailings_notify_thread_scheduled_at_idx" ON "mailings" USING btree ("org_id","notify_thread_scheduled_at","id");--> statement-breakpoint
CREATE INDEX "mailings_notify_thread_status_idx" ON "mailings" USING btree ("org_id","notify_thread_status","id");--> statement-breakpoint
CREATE INDEX "mailings_opportunity_id_idx" ON "mailings" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "mailings_retry_at_idx" ON "mailings" USING btree ("org_id","retry_at","id");--> statement-breakpoint
CREATE INDEX "mailings_sequence_id_idx" ON "mailings" USING btree ("org_id","sequence_id","id");--> statement-breakpoint
CREATE INDEX "mailings_sequence_step_id_idx" ON "mailings" USING btree ("org_id","sequence_step_id","id");--> statement-breakpoint
CREATE INDEX "mailings_task_id_idx" ON "mailings" USING btree ("org_id","task_id","id");--> statement-breakpoint
CREATE INDEX "mailings_user_id_idx" ON "mailings" USING btree ("org_id","user_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_amount_idx" ON "opportunities" USING btree ("org_id","amount","id");--> statement-breakpoint
CREATE INDEX "opportunities_close_date_idx" ON "opportunities" USING btree ("org_id","close_date","id");--> statement-breakpoint
CREATE INDEX "opportunities_creator_id_idx" ON "opportunities" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_custom_id_idx" ON "opportunities" USING btree ("org_id","custom_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_map_link_idx" ON "opportunities" USING btree ("org_id","map_link");--> statement-breakpoint
CREATE INDEX "opportunities_map_status_idx" ON "opportunities" USING btree ("org_id","map_status","id");--> statement-breakpoint
CREATE INDEX "opportunities_opportunity_stage_id_idx" ON "opportunities" USING btree ("org_id","opportunity_stage_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_probability_idx" ON "opportunities" USING btree ("org_id","probability","id");--> statement-breakpoint
CREATE INDEX "opportunities_sharing_team_id_idx" ON "opportunities" USING btree ("org_id","sharing_team_id");--> statement-breakpoint
CREATE INDEX "opportunities_stage_id_idx" ON "opportunities" USING btree ("org_id","stage_id","id");--> statement-breakpoint
CREATE INDEX "opportunities_touched_at_idx" ON "opportunities" USING btree ("org_id","touched_at","id");--> statement-breakpoint
CREATE INDEX "opportunities_trashed_at_idx" ON "opportunities" USING btree ("org_id","trashed_at");--> statement-breakpoint
CREATE INDEX "opportunities_updater_id_idx" ON "opportunities" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "products_code_idx" ON "products" USING btree ("org_id","code","id");--> statement-breakpoint
CREATE INDEX "products_creator_id_idx" ON "products" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "products_product_family_idx" ON "products" USING btree ("org_id","product_family");--> statement-breakpoint
CREATE INDEX "products_status_idx" ON "products" USING btree ("org_id","status");--> statement-breakpoint
CREATE INDEX "products_unit_of_measure_idx" ON "products" USING btree ("org_id","unit_of_measure");--> statement-breakpoint
CREATE INDEX "products_updater_id_idx" ON "products" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "products_website_idx" ON "products" USING btree ("org_id","website");--> statement-breakpoint
CREATE INDEX "prospect_notes_creator_id_idx" ON "prospect_notes" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "prospects_creator_id_idx" ON "prospects" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "prospects_engaged_at_idx" ON "prospects" USING btree ("org_id","engaged_at","id");--> statement-breakpoint
CREATE INDEX "prospects_engaged_score_idx" ON "prospects" USING btree ("org_id","engaged_score","id");--> statement-breakpoint
CREATE INDEX "prospects_external_source_idx" ON "prospects" USING btree ("org_id","external_source","id");--> statement-breakpoint
CREATE INDEX "prospects_github_username_idx" ON "prospects" USING btree ("org_id","github_username","id");--> statement-breakpoint
CREATE INDEX "prospects_linked_in_id_idx" ON "prospects" USING btree ("org_id","linked_in_id","id");--> statement-breakpoint
CREATE INDEX "prospects_linked_in_slug_idx" ON "prospects" USING btree ("org_id","linked_in_slug","id");--> statement-breakpoint
CREATE INDEX "prospects_persona_id_idx" ON "prospects" USING btree ("org_id","persona_id","id");--> statement-breakpoint
CREATE INDEX "prospects_sharing_team_id_idx" ON "prospects" USING btree ("org_id","sharing_team_id");--> statement-breakpoint
CREATE INDEX "prospects_stack_overflow_id_idx" ON "prospects" USING btree ("org_id","stack_overflow_id","id");--> statement-breakpoint
CREATE INDEX "prospects_time_zone_idx" ON "prospects" USING btree ("org_id","time_zone");--> statement-breakpoint
CREATE INDEX "prospects_touched_at_idx" ON "prospects" USING btree ("org_id","touched_at","id");--> statement-breakpoint
CREATE INDEX "prospects_twitter_username_idx" ON "prospects" USING btree ("org_id","twitter_username","id");--> statement-breakpoint
CREATE INDEX "prospects_updater_id_idx" ON "prospects" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "purchases_creator_id_idx" ON "purchases" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "purchases_owner_id_idx" ON "purchases" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "purchases_potential_quantity_idx" ON "purchases" USING btree ("org_id","potential_quantity");--> statement-breakpoint
CREATE INDEX "purchases_potential_value_idx" ON "purchases" USING btree ("org_id","potential_value");--> statement-breakpoint
CREATE INDEX "purchases_saturation_idx" ON "purchases" USING btree ("org_id","saturation");--> statement-breakpoint
CREATE INDEX "purchases_source_idx" ON "purchases" USING btree ("org_id","source");--> statement-breakpoint
CREATE INDEX "purchases_status_idx" ON "purchases" USING btree ("org_id","status");--> statement-breakpoint
CREATE INDEX "purchases_total_quantity_idx" ON "purchases" USING btree ("org_id","total_quantity");--> statement-breakpoint
CREATE INDEX "purchases_updater_id_idx" ON "purchases" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "roles_parent_role_id_idx" ON "roles" USING btree ("org_id","parent_role_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_bounced_stage_id_idx" ON "rulesets" USING btree ("org_id","bounced_stage_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_call_task_priority_from_clicks_id_idx" ON "rulesets" USING btree ("org_id","call_task_priority_from_clicks_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_call_task_priority_from_opens_id_idx" ON "rulesets" USING btree ("org_id","call_task_priority_from_opens_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_call_task_priority_id_idx" ON "rulesets" USING btree ("org_id","call_task_priority_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_completed_stage_id_idx" ON "rulesets" USING btree ("org_id","completed_stage_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_delivered_stage_id_idx" ON "rulesets" USING btree ("org_id","delivered_stage_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_finished_stage_id_idx" ON "rulesets" USING btree ("org_id","finished_stage_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_include_unsubscribe_links_idx" ON "rulesets" USING btree ("org_id","include_unsubscribe_links","id");--> statement-breakpoint
CREATE INDEX "rulesets_opted_out_stage_id_idx" ON "rulesets" USING btree ("org_id","opted_out_stage_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_owner_id_idx" ON "rulesets" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_replied_stage_id_idx" ON "rulesets" USING btree ("org_id","replied_stage_id","id");--> statement-breakpoint
CREATE INDEX "rulesets_sequence_exclusivity_idx" ON "rulesets" USING btree ("org_id","sequence_exclusivity","id");--> statement-breakpoint
CREATE INDEX "rulesets_started_stage_id_idx" ON "rulesets" USING btree ("org_id","started_stage_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_account_id_idx" ON "sequence_states" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_batch_item_creator_id_idx" ON "sequence_states" USING btree ("org_id","batch_item_creator_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_call_completed_at_idx" ON "sequence_states" USING btree ("org_id","call_completed_at","id");--> statement-breakpoint
CREATE INDEX "sequence_states_click_count_idx" ON "sequence_states" USING btree ("org_id","click_count","id");--> statement-breakpoint
CREATE INDEX "sequence_states_creator_id_idx" ON "sequence_states" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_deliver_count_idx" ON "sequence_states" USING btree ("org_id","deliver_count","id");--> statement-breakpoint
CREATE INDEX "sequence_states_open_count_idx" ON "sequence_states" USING btree ("org_id","open_count","id");--> statement-breakpoint
CREATE INDEX "sequence_states_opportunity_id_idx" ON "sequence_states" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "sequence_states_pause_reason_idx" ON "sequence_states" USING btree ("org_id","pause_reason","id");--> statement-breakpoint
CREATE INDEX "sequence_states_replied_at_idx" ON "sequence_states" USING btree ("org_id","replied_at","id");--> statement-breakpoint
CREATE INDEX "sequence_states_reply_count_idx" ON "sequence_states" USING btree ("org_id","reply_count","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_call_purpose_id_idx" ON "sequence_steps" USING btree ("org_id","call_purpose_id","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_creator_id_idx" ON "sequence_steps" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_task_priority_id_idx" ON "sequence_steps" USING btree ("org_id","task_priority_id","id");--> statement-breakpoint
CREATE INDEX "sequence_steps_updater_id_idx" ON "sequence_steps" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "sequence_templates_creator_id_idx" ON "sequence_templates" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "sequence_templates_updater_id_idx" ON "sequence_templates" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "sequences_click_count_idx" ON "sequences" USING btree ("org_id","click_count","id");--> statement-breakpoint
CREATE INDEX "sequences_creator_id_idx" ON "sequences" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "sequences_deliver_count_idx" ON "sequences" USING btree ("org_id","deliver_count","id");--> statement-breakpoint
CREATE INDEX "sequences_enabled_at_idx" ON "sequences" USING btree ("org_id","enabled_at","id");--> statement-breakpoint
CREATE INDEX "sequences_last_used_at_idx" ON "sequences" USING btree ("org_id","last_used_at","id");--> statement-breakpoint
CREATE INDEX "sequences_open_count_idx" ON "sequences" USING btree ("org_id","open_count","id");--> statement-breakpoint
CREATE INDEX "sequences_owner_id_idx" ON "sequences" USING btree ("org_id","owner_id","id");--> statement-breakpoint
CREATE INDEX "sequences_reply_count_idx" ON "sequences" USING btree ("org_id","reply_count","id");--> statement-breakpoint
CREATE INDEX "sequences_sales_motion_idx" ON "sequences" USING btree ("org_id","sales_motion");--> statement-breakpoint
CREATE INDEX "sequences_share_type_idx" ON "sequences" USING btree ("org_id","share_type","id");--> statement-breakpoint
CREATE INDEX "sequences_throttle_capacity_idx" ON "sequences" USING btree ("org_id","throttle_capacity","id");--> statement-breakpoint
CREATE INDEX "sequences_throttle_max_adds_per_day_idx" ON "sequences" USING btree ("org_id","throttle_max_adds_per_day","id");--> statement-breakpoint
CREATE INDEX "sequences_updater_id_idx" ON "sequences" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "snippets_creator_id_idx" ON "snippets" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "snippets_share_type_idx" ON "snippets" USING btree ("org_id","share_type","id");--> statement-breakpoint
CREATE INDEX "snippets_updater_id_idx" ON "snippets" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "stages_creator_id_idx" ON "stages" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "stages_updater_id_idx" ON "stages" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "tasks_account_id_idx" ON "tasks" USING btree ("org_id","account_id","id");--> statement-breakpoint
CREATE INDEX "tasks_autoskip_at_idx" ON "tasks" USING btree ("org_id","autoskip_at","id");--> statement-breakpoint
CREATE INDEX "tasks_call_id_idx" ON "tasks" USING btree ("org_id","call_id","id");--> statement-breakpoint
CREATE INDEX "tasks_completer_id_idx" ON "tasks" USING btree ("org_id","completer_id","id");--> statement-breakpoint
CREATE INDEX "tasks_mailing_id_idx" ON "tasks" USING btree ("org_id","mailing_id","id");--> statement-breakpoint
CREATE INDEX "tasks_opportunity_id_idx" ON "tasks" USING btree ("org_id","opportunity_id","id");--> statement-breakpoint
CREATE INDEX "tasks_scheduled_at_idx" ON "tasks" USING btree ("org_id","scheduled_at","id");--> statement-breakpoint
CREATE INDEX "tasks_sequence_id_idx" ON "tasks" USING btree ("org_id","sequence_id","id");--> statement-breakpoint
CREATE INDEX "tasks_sequence_state_id_idx" ON "tasks" USING btree ("org_id","sequence_state_id","id");--> statement-breakpoint
CREATE INDEX "tasks_sequence_step_id_idx" ON "tasks" USING btree ("org_id","sequence_step_id","id");--> statement-breakpoint
CREATE INDEX "tasks_sequence_template_id_idx" ON "tasks" USING btree ("org_id","sequence_template_id","id");--> statement-breakpoint
CREATE INDEX "tasks_state_changed_at_idx" ON "tasks" USING btree ("org_id","state_changed_at","id");--> statement-breakpoint
CREATE INDEX "tasks_task_disposition_id_idx" ON "tasks" USING btree ("org_id","task_disposition_id","id");--> statement-breakpoint
CREATE INDEX "tasks_task_priority_id_idx" ON "tasks" USING btree ("org_id","task_priority_id","id");--> statement-breakpoint
CREATE INDEX "tasks_task_purpose_id_idx" ON "tasks" USING btree ("org_id","task_purpose_id","id");--> statement-breakpoint
CREATE INDEX "tasks_task_type_idx" ON "tasks" USING btree ("org_id","task_type","id");--> statement-breakpoint
CREATE INDEX "templates_archived_at_idx" ON "templates" USING btree ("org_id","archived_at","id");--> statement-breakpoint
CREATE INDEX "templates_click_count_idx" ON "templates" USING btree ("org_id","click_count","id");--> statement-breakpoint
CREATE INDEX "templates_creator_id_idx" ON "templates" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "templates_deliver_count_idx" ON "templates" USING btree ("org_id","deliver_count","id");--> statement-breakpoint
CREATE INDEX "templates_last_used_at_idx" ON "templates" USING btree ("org_id","last_used_at","id");--> statement-breakpoint
CREATE INDEX "templates_open_count_idx" ON "templates" USING btree ("org_id","open_count","id");--> statement-breakpoint
CREATE INDEX "templates_reply_count_idx" ON "templates" USING btree ("org_id","reply_count","id");--> statement-breakpoint
CREATE INDEX "templates_share_type_idx" ON "templates" USING btree ("org_id","share_type","id");--> statement-breakpoint
CREATE INDEX "templates_updater_id_idx" ON "templates" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "users_creator_id_idx" ON "users" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "users_current_sign_in_at_idx" ON "users" USING btree ("org_id","current_sign_in_at","id");--> statement-breakpoint
CREATE INDEX "users_locked_idx" ON "users" USING btree ("org_id","locked","id");--> statement-breakpoint
CREATE INDEX "users_mailbox_id_idx" ON "users" USING btree ("org_id","mailbox_id","id");--> statement-breakpoint
CREATE INDEX "users_profile_id_idx" ON "users" USING btree ("org_id","profile_id","id");--> statement-breakpoint
CREATE INDEX "users_role_id_idx" ON "users" USING btree ("org_id","role_id","id");--> statement-breakpoint
CREATE INDEX "users_updater_id_idx" ON "users" USING btree ("org_id","updater_id","id");--> statement-breakpoint
CREATE INDEX "users_username_idx" ON "users" USING btree ("org_id","username","id");--> statement-breakpoint
CREATE INDEX "webhooks_creator_id_idx" ON "webhooks" USING btree ("org_id","creator_id","id");--> statement-breakpoint
CREATE INDEX "webhooks_updater_id_idx" ON "webhooks" USING btree ("org_id","updater_id","id");