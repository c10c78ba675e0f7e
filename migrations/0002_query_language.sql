CREATE TABLE "cadence_system"."settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "accounts_domain_search_idx" ON "accounts" USING btree ("org_id",lower("domain") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_name_search_idx" ON "accounts" USING btree ("org_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prospects_company_search_idx" ON "prospects" USING btree ("org_id",lower("company") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prospects_first_name_search_idx" ON "prospects" USING btree ("org_id",lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prospects_last_name_search_idx" ON "prospects" USING btree ("org_id",lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prospects_name_search_idx" ON "prospects" USING btree ("org_id",lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "prospects_title_search_idx" ON "prospects" USING btree ("org_id",lower("title") text_pattern_ops);