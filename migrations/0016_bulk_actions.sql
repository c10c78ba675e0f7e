ALTER TABLE "accounts" ADD COLUMN "assigned_user_ids" integer[];--> statement-breakpoint
ALTER TABLE "prospects" ADD COLUMN "assigned_user_ids" integer[];