-- OAuth: user sign-in credentials and invitations, grants with their authorization codes and rotating refresh tokens; access_tokens.grant_id ties an OAuth token to its grant. Apps gain a lifecycle webhook (install, uninstall, org deletion).
CREATE TABLE "cadence_system"."oauth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"used_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."oauth_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"app_guid" text NOT NULL,
	"org_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."oauth_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"used_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."user_credentials" (
	"org_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"login" text NOT NULL,
	"password_hash" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_credentials_pkey" PRIMARY KEY("org_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."user_invitations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"used_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cadence_system"."access_tokens" ADD COLUMN "grant_id" text;--> statement-breakpoint
ALTER TABLE "cadence_system"."apps" ADD COLUMN "lifecycle_webhook_url" text;--> statement-breakpoint
ALTER TABLE "cadence_system"."apps" ADD COLUMN "lifecycle_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "cadence_system"."oauth_codes" ADD CONSTRAINT "oauth_codes_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "cadence_system"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."oauth_grants" ADD CONSTRAINT "oauth_grants_app_guid_apps_guid_fk" FOREIGN KEY ("app_guid") REFERENCES "cadence_system"."apps"("guid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."oauth_grants" ADD CONSTRAINT "oauth_grants_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."oauth_grants" ADD CONSTRAINT "oauth_grants_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."oauth_refresh_tokens" ADD CONSTRAINT "oauth_refresh_tokens_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "cadence_system"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."user_credentials" ADD CONSTRAINT "user_credentials_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."user_invitations" ADD CONSTRAINT "user_invitations_user_fk" FOREIGN KEY ("org_id","user_id") REFERENCES "public"."users"("org_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_codes_grant_idx" ON "cadence_system"."oauth_codes" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_codes_expires_at_idx" ON "cadence_system"."oauth_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_grants_org_user_idx" ON "cadence_system"."oauth_grants" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "oauth_refresh_tokens_grant_idx" ON "cadence_system"."oauth_refresh_tokens" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_refresh_tokens_expires_at_idx" ON "cadence_system"."oauth_refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_credentials_login_idx" ON "cadence_system"."user_credentials" USING btree (lower("login"));--> statement-breakpoint
CREATE INDEX "user_invitations_user_idx" ON "cadence_system"."user_invitations" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "access_tokens_grant_idx" ON "cadence_system"."access_tokens" USING btree ("grant_id");