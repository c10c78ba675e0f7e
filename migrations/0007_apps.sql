-- Applications: registered apps, their RSA public keys and their installs in orgs; access_tokens.app_guid names the app of a server-to-server token.
CREATE TABLE "cadence_system"."app_installs" (
	"id" text PRIMARY KEY NOT NULL,
	"app_guid" text NOT NULL,
	"org_id" bigint NOT NULL,
	"setup_token_hash" text,
	"setup_token_expires_at" timestamp(3) with time zone,
	"installed_at" timestamp(3) with time zone NOT NULL,
	"uninstalled_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."app_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cadence_system"."app_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_guid" text NOT NULL,
	"public_key_pem" text NOT NULL,
	"revoked_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cadence_system"."apps" (
	"guid" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_hash" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"oauth_scopes" text[] NOT NULL,
	"s2s_scopes" text[] NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cadence_system"."access_tokens" ADD COLUMN "app_guid" text;--> statement-breakpoint
ALTER TABLE "cadence_system"."app_installs" ADD CONSTRAINT "app_installs_app_guid_apps_guid_fk" FOREIGN KEY ("app_guid") REFERENCES "cadence_system"."apps"("guid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."app_installs" ADD CONSTRAINT "app_installs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "cadence_system"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cadence_system"."app_keys" ADD CONSTRAINT "app_keys_app_guid_apps_guid_fk" FOREIGN KEY ("app_guid") REFERENCES "cadence_system"."apps"("guid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_installs_setup_token_idx" ON "cadence_system"."app_installs" USING btree ("setup_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "app_installs_current_idx" ON "cadence_system"."app_installs" USING btree ("app_guid","org_id") WHERE "cadence_system"."app_installs"."uninstalled_at" is null;--> statement-breakpoint
CREATE INDEX "app_installs_org_idx" ON "cadence_system"."app_installs" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "app_keys_app_guid_idx" ON "cadence_system"."app_keys" USING btree ("app_guid");--> statement-breakpoint
CREATE UNIQUE INDEX "apps_client_id_idx" ON "cadence_system"."apps" USING btree ("client_id");