-- Relationship indexes hold only rows that refer to something (WHERE <rel>_id IS NOT NULL): every query that uses them asks for given ids. Each index is rebuilt, locking writes to its table while it is; on a large deployment run it in a quiet hour (README "Upgrading").
DROP INDEX "account_notes_account_id_idx";--> statement-breakpoint
DROP INDEX "account_notes_creator_id_idx";--> statement-breakpoint
DROP INDEX "accounts_creator_id_idx";--> statement-breakpoint
DROP INDEX "accounts_owner_id_idx";--> statement-breakpoint
DROP INDEX "accounts_updater_id_idx";--> statement-breakpoint
DROP INDEX "batch_items_batch_id_idx";--> statement-breakpoint
DROP INDEX "call_dispositions_creator_id_idx";--> statement-breakpoint
DROP INDEX "call_purposes_creator_id_idx";--> statement-breakpoint
DROP INDEX "calls_call_disposition_id_idx";--> statement-breakpoint
DROP INDEX "calls_call_purpose_id_idx";--> statement-breakpoint
DROP INDEX "calls_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "calls_phone_number_id_idx";--> statement-breakpoint
DROP INDEX "calls_prospect_id_idx";--> statement-breakpoint
DROP INDEX "calls_sequence_id_idx";--> statement-breakpoint
DROP INDEX "calls_sequence_state_id_idx";--> statement-breakpoint
DROP INDEX "calls_sequence_step_id_idx";--> statement-breakpoint
DROP INDEX "calls_task_id_idx";--> statement-breakpoint
DROP INDEX "calls_user_id_idx";--> statement-breakpoint
DROP INDEX "compliance_request_tasks_compliance_request_id_idx";--> statement-breakpoint
DROP INDEX "compliance_requests_requester_id_idx";--> statement-breakpoint
DROP INDEX "content_categories_creator_id_idx";--> statement-breakpoint
DROP INDEX "content_category_memberships_content_category_id_idx";--> statement-breakpoint
DROP INDEX "content_category_memberships_content_idx";--> statement-breakpoint
DROP INDEX "content_category_memberships_creator_id_idx";--> statement-breakpoint
DROP INDEX "content_category_ownerships_content_category_id_idx";--> statement-breakpoint
DROP INDEX "content_category_ownerships_creator_id_idx";--> statement-breakpoint
DROP INDEX "content_category_ownerships_owner_id_idx";--> statement-breakpoint
DROP INDEX "email_addresses_prospect_id_idx";--> statement-breakpoint
DROP INDEX "events_account_id_idx";--> statement-breakpoint
DROP INDEX "events_call_id_idx";--> statement-breakpoint
DROP INDEX "events_mailing_id_idx";--> statement-breakpoint
DROP INDEX "events_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "events_prospect_id_idx";--> statement-breakpoint
DROP INDEX "events_task_id_idx";--> statement-breakpoint
DROP INDEX "events_user_id_idx";--> statement-breakpoint
DROP INDEX "favorites_creator_id_idx";--> statement-breakpoint
DROP INDEX "favorites_user_id_idx";--> statement-breakpoint
DROP INDEX "imports_creator_id_idx";--> statement-breakpoint
DROP INDEX "kaia_recordings_account_id_idx";--> statement-breakpoint
DROP INDEX "kaia_recordings_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "kaia_recordings_owner_id_idx";--> statement-breakpoint
DROP INDEX "mail_aliases_mailbox_id_idx";--> statement-breakpoint
DROP INDEX "mailboxes_creator_id_idx";--> statement-breakpoint
DROP INDEX "mailboxes_updater_id_idx";--> statement-breakpoint
DROP INDEX "mailboxes_user_id_idx";--> statement-breakpoint
DROP INDEX "mailings_follow_up_sequence_id_idx";--> statement-breakpoint
DROP INDEX "mailings_mailbox_id_idx";--> statement-breakpoint
DROP INDEX "mailings_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "mailings_prospect_id_idx";--> statement-breakpoint
DROP INDEX "mailings_sequence_id_idx";--> statement-breakpoint
DROP INDEX "mailings_sequence_state_id_idx";--> statement-breakpoint
DROP INDEX "mailings_sequence_step_id_idx";--> statement-breakpoint
DROP INDEX "mailings_task_id_idx";--> statement-breakpoint
DROP INDEX "mailings_template_id_idx";--> statement-breakpoint
DROP INDEX "mailings_user_id_idx";--> statement-breakpoint
DROP INDEX "opportunities_account_id_idx";--> statement-breakpoint
DROP INDEX "opportunities_creator_id_idx";--> statement-breakpoint
DROP INDEX "opportunities_opportunity_stage_id_idx";--> statement-breakpoint
DROP INDEX "opportunities_owner_id_idx";--> statement-breakpoint
DROP INDEX "opportunities_stage_id_idx";--> statement-breakpoint
DROP INDEX "opportunities_updater_id_idx";--> statement-breakpoint
DROP INDEX "opportunity_prospect_roles_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "opportunity_prospect_roles_prospect_id_idx";--> statement-breakpoint
DROP INDEX "opportunity_stages_creator_id_idx";--> statement-breakpoint
DROP INDEX "phone_numbers_prospect_id_idx";--> statement-breakpoint
DROP INDEX "products_creator_id_idx";--> statement-breakpoint
DROP INDEX "products_owner_id_idx";--> statement-breakpoint
DROP INDEX "products_updater_id_idx";--> statement-breakpoint
DROP INDEX "prospect_notes_creator_id_idx";--> statement-breakpoint
DROP INDEX "prospect_notes_prospect_id_idx";--> statement-breakpoint
DROP INDEX "prospects_account_id_idx";--> statement-breakpoint
DROP INDEX "prospects_creator_id_idx";--> statement-breakpoint
DROP INDEX "prospects_owner_id_idx";--> statement-breakpoint
DROP INDEX "prospects_persona_id_idx";--> statement-breakpoint
DROP INDEX "prospects_stage_id_idx";--> statement-breakpoint
DROP INDEX "prospects_updater_id_idx";--> statement-breakpoint
DROP INDEX "purchases_account_id_idx";--> statement-breakpoint
DROP INDEX "purchases_creator_id_idx";--> statement-breakpoint
DROP INDEX "purchases_owner_id_idx";--> statement-breakpoint
DROP INDEX "purchases_product_id_idx";--> statement-breakpoint
DROP INDEX "purchases_updater_id_idx";--> statement-breakpoint
DROP INDEX "recipients_prospect_id_idx";--> statement-breakpoint
DROP INDEX "recipients_user_id_idx";--> statement-breakpoint
DROP INDEX "roles_parent_role_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_bounced_stage_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_call_task_priority_from_clicks_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_call_task_priority_from_opens_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_call_task_priority_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_completed_stage_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_delivered_stage_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_finished_stage_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_opted_out_stage_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_owner_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_replied_stage_id_idx";--> statement-breakpoint
DROP INDEX "rulesets_started_stage_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_account_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_batch_item_creator_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_creator_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_mailbox_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_prospect_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_sequence_id_idx";--> statement-breakpoint
DROP INDEX "sequence_states_sequence_step_id_idx";--> statement-breakpoint
DROP INDEX "sequence_steps_call_purpose_id_idx";--> statement-breakpoint
DROP INDEX "sequence_steps_creator_id_idx";--> statement-breakpoint
DROP INDEX "sequence_steps_sequence_id_idx";--> statement-breakpoint
DROP INDEX "sequence_steps_task_priority_id_idx";--> statement-breakpoint
DROP INDEX "sequence_steps_updater_id_idx";--> statement-breakpoint
DROP INDEX "sequence_templates_creator_id_idx";--> statement-breakpoint
DROP INDEX "sequence_templates_sequence_step_id_idx";--> statement-breakpoint
DROP INDEX "sequence_templates_template_id_idx";--> statement-breakpoint
DROP INDEX "sequence_templates_updater_id_idx";--> statement-breakpoint
DROP INDEX "sequences_creator_id_idx";--> statement-breakpoint
DROP INDEX "sequences_owner_id_idx";--> statement-breakpoint
DROP INDEX "sequences_ruleset_id_idx";--> statement-breakpoint
DROP INDEX "sequences_updater_id_idx";--> statement-breakpoint
DROP INDEX "snippets_creator_id_idx";--> statement-breakpoint
DROP INDEX "snippets_owner_id_idx";--> statement-breakpoint
DROP INDEX "snippets_updater_id_idx";--> statement-breakpoint
DROP INDEX "stages_creator_id_idx";--> statement-breakpoint
DROP INDEX "stages_updater_id_idx";--> statement-breakpoint
DROP INDEX "task_dispositions_creator_id_idx";--> statement-breakpoint
DROP INDEX "task_purposes_creator_id_idx";--> statement-breakpoint
DROP INDEX "tasks_account_id_idx";--> statement-breakpoint
DROP INDEX "tasks_call_id_idx";--> statement-breakpoint
DROP INDEX "tasks_completer_id_idx";--> statement-breakpoint
DROP INDEX "tasks_mailing_id_idx";--> statement-breakpoint
DROP INDEX "tasks_opportunity_id_idx";--> statement-breakpoint
DROP INDEX "tasks_owner_id_idx";--> statement-breakpoint
DROP INDEX "tasks_prospect_id_idx";--> statement-breakpoint
DROP INDEX "tasks_sequence_id_idx";--> statement-breakpoint
DROP INDEX "tasks_sequence_state_id_idx";--> statement-breakpoint
DROP INDEX "tasks_sequence_step_id_idx";--> statement-breakpoint
DROP INDEX "tasks_sequence_template_id_idx";--> statement-breakpoint
DROP INDEX "tasks_task_disposition_id_idx";--> statement-breakpoint
DROP INDEX "tasks_task_priority_id_idx";--> statement-breakpoint
DROP INDEX "tasks_task_purpose_id_idx";--> statement-breakpoint
DROP INDEX "tasks_template_id_idx";--> statement-breakpoint
DROP INDEX "teams_creator_id_idx";--> statement-breakpoint
DROP INDEX "teams_updater_id_idx";--> statement-breakpoint
DROP INDEX "templates_creator_id_idx";--> statement-breakpoint
DROP INDEX "templates_owner_id_idx";--> statement-breakpoint
DROP INDEX "templates_updater_id_idx";--> statement-breakpoint
DROP INDEX "users_creator_id_idx";--> statement-breakpoint
DROP INDEX "users_mailbox_id_idx";--> statement-breakpoint
DROP INDEX "users_profile_id_idx";--> statement-breakpoint
DROP INDEX "users_role_id_idx";--> statement-breakpoint
DROP INDEX "users_updater_id_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_event_id_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_webhook_id_idx";--> statement-breakpoint
DROP INDEX "webhooks_authorizer_id_idx";--> statement-breakpoint
DROP INDEX "webhooks_creator_id_idx";--> statement-breakpoint
DROP INDEX "webhooks_updater_id_idx";--> statement-breakpoint
CREATE INDEX "account_notes_account_id_idx" ON "account_notes" USING btree ("org_id","account_id","id") WHERE "account_notes"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "account_notes_creator_id_idx" ON "account_notes" USING btree ("org_id","creator_id","id") WHERE "account_notes"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "accounts_creator_id_idx" ON "accounts" USING btree ("org_id","creator_id","id") WHERE "accounts"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "accounts_owner_id_idx" ON "accounts" USING btree ("org_id","owner_id","id") WHERE "accounts"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "accounts_updater_id_idx" ON "accounts" USING btree ("org_id","updater_id","id") WHERE "accounts"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "batch_items_batch_id_idx" ON "batch_items" USING btree ("org_id","batch_id","id") WHERE "batch_items"."batch_id" is not null;--> statement-breakpoint
CREATE INDEX "call_dispositions_creator_id_idx" ON "call_dispositions" USING btree ("org_id","creator_id","id") WHERE "call_dispositions"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "call_purposes_creator_id_idx" ON "call_purposes" USING btree ("org_id","creator_id","id") WHERE "call_purposes"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_call_disposition_id_idx" ON "calls" USING btree ("org_id","call_disposition_id","id") WHERE "calls"."call_disposition_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_call_purpose_id_idx" ON "calls" USING btree ("org_id","call_purpose_id","id") WHERE "calls"."call_purpose_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_opportunity_id_idx" ON "calls" USING btree ("org_id","opportunity_id","id") WHERE "calls"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_phone_number_id_idx" ON "calls" USING btree ("org_id","phone_number_id","id") WHERE "calls"."phone_number_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_prospect_id_idx" ON "calls" USING btree ("org_id","prospect_id","id") WHERE "calls"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_sequence_id_idx" ON "calls" USING btree ("org_id","sequence_id","id") WHERE "calls"."sequence_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_sequence_state_id_idx" ON "calls" USING btree ("org_id","sequence_state_id","id") WHERE "calls"."sequence_state_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_sequence_step_id_idx" ON "calls" USING btree ("org_id","sequence_step_id","id") WHERE "calls"."sequence_step_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_task_id_idx" ON "calls" USING btree ("org_id","task_id","id") WHERE "calls"."task_id" is not null;--> statement-breakpoint
CREATE INDEX "calls_user_id_idx" ON "calls" USING btree ("org_id","user_id","id") WHERE "calls"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "compliance_request_tasks_compliance_request_id_idx" ON "compliance_request_tasks" USING btree ("org_id","compliance_request_id","id") WHERE "compliance_request_tasks"."compliance_request_id" is not null;--> statement-breakpoint
CREATE INDEX "compliance_requests_requester_id_idx" ON "compliance_requests" USING btree ("org_id","requester_id","id") WHERE "compliance_requests"."requester_id" is not null;--> statement-breakpoint
CREATE INDEX "content_categories_creator_id_idx" ON "content_categories" USING btree ("org_id","creator_id","id") WHERE "content_categories"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "content_category_memberships_content_category_id_idx" ON "content_category_memberships" USING btree ("org_id","content_category_id","id") WHERE "content_category_memberships"."content_category_id" is not null;--> statement-breakpoint
CREATE INDEX "content_category_memberships_content_idx" ON "content_category_memberships" USING btree ("org_id","content_type","content_id","id") WHERE "content_category_memberships"."content_id" is not null;--> statement-breakpoint
CREATE INDEX "content_category_memberships_creator_id_idx" ON "content_category_memberships" USING btree ("org_id","creator_id","id") WHERE "content_category_memberships"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "content_category_ownerships_content_category_id_idx" ON "content_category_ownerships" USING btree ("org_id","content_category_id","id") WHERE "content_category_ownerships"."content_category_id" is not null;--> statement-breakpoint
CREATE INDEX "content_category_ownerships_creator_id_idx" ON "content_category_ownerships" USING btree ("org_id","creator_id","id") WHERE "content_category_ownerships"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "content_category_ownerships_owner_id_idx" ON "content_category_ownerships" USING btree ("org_id","owner_id","id") WHERE "content_category_ownerships"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "email_addresses_prospect_id_idx" ON "email_addresses" USING btree ("org_id","prospect_id","id") WHERE "email_addresses"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "events_account_id_idx" ON "events" USING btree ("org_id","account_id","id") WHERE "events"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "events_call_id_idx" ON "events" USING btree ("org_id","call_id","id") WHERE "events"."call_id" is not null;--> statement-breakpoint
CREATE INDEX "events_mailing_id_idx" ON "events" USING btree ("org_id","mailing_id","id") WHERE "events"."mailing_id" is not null;--> statement-breakpoint
CREATE INDEX "events_opportunity_id_idx" ON "events" USING btree ("org_id","opportunity_id","id") WHERE "events"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "events_prospect_id_idx" ON "events" USING btree ("org_id","prospect_id","id") WHERE "events"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "events_task_id_idx" ON "events" USING btree ("org_id","task_id","id") WHERE "events"."task_id" is not null;--> statement-breakpoint
CREATE INDEX "events_user_id_idx" ON "events" USING btree ("org_id","user_id","id") WHERE "events"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "favorites_creator_id_idx" ON "favorites" USING btree ("org_id","creator_id","id") WHERE "favorites"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "favorites_user_id_idx" ON "favorites" USING btree ("org_id","user_id","id") WHERE "favorites"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "imports_creator_id_idx" ON "imports" USING btree ("org_id","creator_id","id") WHERE "imports"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "kaia_recordings_account_id_idx" ON "kaia_recordings" USING btree ("org_id","account_id","id") WHERE "kaia_recordings"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "kaia_recordings_opportunity_id_idx" ON "kaia_recordings" USING btree ("org_id","opportunity_id","id") WHERE "kaia_recordings"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "kaia_recordings_owner_id_idx" ON "kaia_recordings" USING btree ("org_id","owner_id","id") WHERE "kaia_recordings"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "mail_aliases_mailbox_id_idx" ON "mail_aliases" USING btree ("org_id","mailbox_id","id") WHERE "mail_aliases"."mailbox_id" is not null;--> statement-breakpoint
CREATE INDEX "mailboxes_creator_id_idx" ON "mailboxes" USING btree ("org_id","creator_id","id") WHERE "mailboxes"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "mailboxes_updater_id_idx" ON "mailboxes" USING btree ("org_id","updater_id","id") WHERE "mailboxes"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "mailboxes_user_id_idx" ON "mailboxes" USING btree ("org_id","user_id","id") WHERE "mailboxes"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_follow_up_sequence_id_idx" ON "mailings" USING btree ("org_id","follow_up_sequence_id","id") WHERE "mailings"."follow_up_sequence_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_mailbox_id_idx" ON "mailings" USING btree ("org_id","mailbox_id","id") WHERE "mailings"."mailbox_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_opportunity_id_idx" ON "mailings" USING btree ("org_id","opportunity_id","id") WHERE "mailings"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_prospect_id_idx" ON "mailings" USING btree ("org_id","prospect_id","id") WHERE "mailings"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_sequence_id_idx" ON "mailings" USING btree ("org_id","sequence_id","id") WHERE "mailings"."sequence_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_sequence_state_id_idx" ON "mailings" USING btree ("org_id","sequence_state_id","id") WHERE "mailings"."sequence_state_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_sequence_step_id_idx" ON "mailings" USING btree ("org_id","sequence_step_id","id") WHERE "mailings"."sequence_step_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_task_id_idx" ON "mailings" USING btree ("org_id","task_id","id") WHERE "mailings"."task_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_template_id_idx" ON "mailings" USING btree ("org_id","template_id","id") WHERE "mailings"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "mailings_user_id_idx" ON "mailings" USING btree ("org_id","user_id","id") WHERE "mailings"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunities_account_id_idx" ON "opportunities" USING btree ("org_id","account_id","id") WHERE "opportunities"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunities_creator_id_idx" ON "opportunities" USING btree ("org_id","creator_id","id") WHERE "opportunities"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunities_opportunity_stage_id_idx" ON "opportunities" USING btree ("org_id","opportunity_stage_id","id") WHERE "opportunities"."opportunity_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunities_owner_id_idx" ON "opportunities" USING btree ("org_id","owner_id","id") WHERE "opportunities"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunities_stage_id_idx" ON "opportunities" USING btree ("org_id","stage_id","id") WHERE "opportunities"."stage_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunities_updater_id_idx" ON "opportunities" USING btree ("org_id","updater_id","id") WHERE "opportunities"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_opportunity_id_idx" ON "opportunity_prospect_roles" USING btree ("org_id","opportunity_id","id") WHERE "opportunity_prospect_roles"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunity_prospect_roles_prospect_id_idx" ON "opportunity_prospect_roles" USING btree ("org_id","prospect_id","id") WHERE "opportunity_prospect_roles"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "opportunity_stages_creator_id_idx" ON "opportunity_stages" USING btree ("org_id","creator_id","id") WHERE "opportunity_stages"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "phone_numbers_prospect_id_idx" ON "phone_numbers" USING btree ("org_id","prospect_id","id") WHERE "phone_numbers"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "products_creator_id_idx" ON "products" USING btree ("org_id","creator_id","id") WHERE "products"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "products_owner_id_idx" ON "products" USING btree ("org_id","owner_id","id") WHERE "products"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "products_updater_id_idx" ON "products" USING btree ("org_id","updater_id","id") WHERE "products"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "prospect_notes_creator_id_idx" ON "prospect_notes" USING btree ("org_id","creator_id","id") WHERE "prospect_notes"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "prospect_notes_prospect_id_idx" ON "prospect_notes" USING btree ("org_id","prospect_id","id") WHERE "prospect_notes"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "prospects_account_id_idx" ON "prospects" USING btree ("org_id","account_id","id") WHERE "prospects"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "prospects_creator_id_idx" ON "prospects" USING btree ("org_id","creator_id","id") WHERE "prospects"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "prospects_owner_id_idx" ON "prospects" USING btree ("org_id","owner_id","id") WHERE "prospects"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "prospects_persona_id_idx" ON "prospects" USING btree ("org_id","persona_id","id") WHERE "prospects"."persona_id" is not null;--> statement-breakpoint
CREATE INDEX "prospects_stage_id_idx" ON "prospects" USING btree ("org_id","stage_id","id") WHERE "prospects"."stage_id" is not null;--> statement-breakpoint
CREATE INDEX "prospects_updater_id_idx" ON "prospects" USING btree ("org_id","updater_id","id") WHERE "prospects"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_account_id_idx" ON "purchases" USING btree ("org_id","account_id","id") WHERE "purchases"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_creator_id_idx" ON "purchases" USING btree ("org_id","creator_id","id") WHERE "purchases"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_owner_id_idx" ON "purchases" USING btree ("org_id","owner_id","id") WHERE "purchases"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_product_id_idx" ON "purchases" USING btree ("org_id","product_id","id") WHERE "purchases"."product_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_updater_id_idx" ON "purchases" USING btree ("org_id","updater_id","id") WHERE "purchases"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "recipients_prospect_id_idx" ON "recipients" USING btree ("org_id","prospect_id","id") WHERE "recipients"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "recipients_user_id_idx" ON "recipients" USING btree ("org_id","user_id","id") WHERE "recipients"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "roles_parent_role_id_idx" ON "roles" USING btree ("org_id","parent_role_id","id") WHERE "roles"."parent_role_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_bounced_stage_id_idx" ON "rulesets" USING btree ("org_id","bounced_stage_id","id") WHERE "rulesets"."bounced_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_call_task_priority_from_clicks_id_idx" ON "rulesets" USING btree ("org_id","call_task_priority_from_clicks_id","id") WHERE "rulesets"."call_task_priority_from_clicks_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_call_task_priority_from_opens_id_idx" ON "rulesets" USING btree ("org_id","call_task_priority_from_opens_id","id") WHERE "rulesets"."call_task_priority_from_opens_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_call_task_priority_id_idx" ON "rulesets" USING btree ("org_id","call_task_priority_id","id") WHERE "rulesets"."call_task_priority_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_completed_stage_id_idx" ON "rulesets" USING btree ("org_id","completed_stage_id","id") WHERE "rulesets"."completed_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_delivered_stage_id_idx" ON "rulesets" USING btree ("org_id","delivered_stage_id","id") WHERE "rulesets"."delivered_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_finished_stage_id_idx" ON "rulesets" USING btree ("org_id","finished_stage_id","id") WHERE "rulesets"."finished_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_opted_out_stage_id_idx" ON "rulesets" USING btree ("org_id","opted_out_stage_id","id") WHERE "rulesets"."opted_out_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_owner_id_idx" ON "rulesets" USING btree ("org_id","owner_id","id") WHERE "rulesets"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_replied_stage_id_idx" ON "rulesets" USING btree ("org_id","replied_stage_id","id") WHERE "rulesets"."replied_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "rulesets_started_stage_id_idx" ON "rulesets" USING btree ("org_id","started_stage_id","id") WHERE "rulesets"."started_stage_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_account_id_idx" ON "sequence_states" USING btree ("org_id","account_id","id") WHERE "sequence_states"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_batch_item_creator_id_idx" ON "sequence_states" USING btree ("org_id","batch_item_creator_id","id") WHERE "sequence_states"."batch_item_creator_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_creator_id_idx" ON "sequence_states" USING btree ("org_id","creator_id","id") WHERE "sequence_states"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_mailbox_id_idx" ON "sequence_states" USING btree ("org_id","mailbox_id","id") WHERE "sequence_states"."mailbox_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_opportunity_id_idx" ON "sequence_states" USING btree ("org_id","opportunity_id","id") WHERE "sequence_states"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_prospect_id_idx" ON "sequence_states" USING btree ("org_id","prospect_id","id") WHERE "sequence_states"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_sequence_id_idx" ON "sequence_states" USING btree ("org_id","sequence_id","id") WHERE "sequence_states"."sequence_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_states_sequence_step_id_idx" ON "sequence_states" USING btree ("org_id","sequence_step_id","id") WHERE "sequence_states"."sequence_step_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_steps_call_purpose_id_idx" ON "sequence_steps" USING btree ("org_id","call_purpose_id","id") WHERE "sequence_steps"."call_purpose_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_steps_creator_id_idx" ON "sequence_steps" USING btree ("org_id","creator_id","id") WHERE "sequence_steps"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_steps_sequence_id_idx" ON "sequence_steps" USING btree ("org_id","sequence_id","id") WHERE "sequence_steps"."sequence_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_steps_task_priority_id_idx" ON "sequence_steps" USING btree ("org_id","task_priority_id","id") WHERE "sequence_steps"."task_priority_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_steps_updater_id_idx" ON "sequence_steps" USING btree ("org_id","updater_id","id") WHERE "sequence_steps"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_templates_creator_id_idx" ON "sequence_templates" USING btree ("org_id","creator_id","id") WHERE "sequence_templates"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_templates_sequence_step_id_idx" ON "sequence_templates" USING btree ("org_id","sequence_step_id","id") WHERE "sequence_templates"."sequence_step_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_templates_template_id_idx" ON "sequence_templates" USING btree ("org_id","template_id","id") WHERE "sequence_templates"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "sequence_templates_updater_id_idx" ON "sequence_templates" USING btree ("org_id","updater_id","id") WHERE "sequence_templates"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "sequences_creator_id_idx" ON "sequences" USING btree ("org_id","creator_id","id") WHERE "sequences"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "sequences_owner_id_idx" ON "sequences" USING btree ("org_id","owner_id","id") WHERE "sequences"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "sequences_ruleset_id_idx" ON "sequences" USING btree ("org_id","ruleset_id","id") WHERE "sequences"."ruleset_id" is not null;--> statement-breakpoint
CREATE INDEX "sequences_updater_id_idx" ON "sequences" USING btree ("org_id","updater_id","id") WHERE "sequences"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "snippets_creator_id_idx" ON "snippets" USING btree ("org_id","creator_id","id") WHERE "snippets"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "snippets_owner_id_idx" ON "snippets" USING btree ("org_id","owner_id","id") WHERE "snippets"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "snippets_updater_id_idx" ON "snippets" USING btree ("org_id","updater_id","id") WHERE "snippets"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "stages_creator_id_idx" ON "stages" USING btree ("org_id","creator_id","id") WHERE "stages"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "stages_updater_id_idx" ON "stages" USING btree ("org_id","updater_id","id") WHERE "stages"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "task_dispositions_creator_id_idx" ON "task_dispositions" USING btree ("org_id","creator_id","id") WHERE "task_dispositions"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "task_purposes_creator_id_idx" ON "task_purposes" USING btree ("org_id","creator_id","id") WHERE "task_purposes"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_account_id_idx" ON "tasks" USING btree ("org_id","account_id","id") WHERE "tasks"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_call_id_idx" ON "tasks" USING btree ("org_id","call_id","id") WHERE "tasks"."call_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_completer_id_idx" ON "tasks" USING btree ("org_id","completer_id","id") WHERE "tasks"."completer_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_mailing_id_idx" ON "tasks" USING btree ("org_id","mailing_id","id") WHERE "tasks"."mailing_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_opportunity_id_idx" ON "tasks" USING btree ("org_id","opportunity_id","id") WHERE "tasks"."opportunity_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_owner_id_idx" ON "tasks" USING btree ("org_id","owner_id","id") WHERE "tasks"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_prospect_id_idx" ON "tasks" USING btree ("org_id","prospect_id","id") WHERE "tasks"."prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_sequence_id_idx" ON "tasks" USING btree ("org_id","sequence_id","id") WHERE "tasks"."sequence_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_sequence_state_id_idx" ON "tasks" USING btree ("org_id","sequence_state_id","id") WHERE "tasks"."sequence_state_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_sequence_step_id_idx" ON "tasks" USING btree ("org_id","sequence_step_id","id") WHERE "tasks"."sequence_step_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_sequence_template_id_idx" ON "tasks" USING btree ("org_id","sequence_template_id","id") WHERE "tasks"."sequence_template_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_task_disposition_id_idx" ON "tasks" USING btree ("org_id","task_disposition_id","id") WHERE "tasks"."task_disposition_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_task_priority_id_idx" ON "tasks" USING btree ("org_id","task_priority_id","id") WHERE "tasks"."task_priority_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_task_purpose_id_idx" ON "tasks" USING btree ("org_id","task_purpose_id","id") WHERE "tasks"."task_purpose_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_template_id_idx" ON "tasks" USING btree ("org_id","template_id","id") WHERE "tasks"."template_id" is not null;--> statement-breakpoint
CREATE INDEX "teams_creator_id_idx" ON "teams" USING btree ("org_id","creator_id","id") WHERE "teams"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "teams_updater_id_idx" ON "teams" USING btree ("org_id","updater_id","id") WHERE "teams"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "templates_creator_id_idx" ON "templates" USING btree ("org_id","creator_id","id") WHERE "templates"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "templates_owner_id_idx" ON "templates" USING btree ("org_id","owner_id","id") WHERE "templates"."owner_id" is not null;--> statement-breakpoint
CREATE INDEX "templates_updater_id_idx" ON "templates" USING btree ("org_id","updater_id","id") WHERE "templates"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "users_creator_id_idx" ON "users" USING btree ("org_id","creator_id","id") WHERE "users"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "users_mailbox_id_idx" ON "users" USING btree ("org_id","mailbox_id","id") WHERE "users"."mailbox_id" is not null;--> statement-breakpoint
CREATE INDEX "users_profile_id_idx" ON "users" USING btree ("org_id","profile_id","id") WHERE "users"."profile_id" is not null;--> statement-breakpoint
CREATE INDEX "users_role_id_idx" ON "users" USING btree ("org_id","role_id","id") WHERE "users"."role_id" is not null;--> statement-breakpoint
CREATE INDEX "users_updater_id_idx" ON "users" USING btree ("org_id","updater_id","id") WHERE "users"."updater_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries" USING btree ("org_id","event_id","id") WHERE "webhook_deliveries"."event_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_id_idx" ON "webhook_deliveries" USING btree ("org_id","webhook_id","id") WHERE "webhook_deliveries"."webhook_id" is not null;--> statement-breakpoint
CREATE INDEX "webhooks_authorizer_id_idx" ON "webhooks" USING btree ("org_id","authorizer_id","id") WHERE "webhooks"."authorizer_id" is not null;--> statement-breakpoint
CREATE INDEX "webhooks_creator_id_idx" ON "webhooks" USING btree ("org_id","creator_id","id") WHERE "webhooks"."creator_id" is not null;--> statement-breakpoint
CREATE INDEX "webhooks_updater_id_idx" ON "webhooks" USING btree ("org_id","updater_id","id") WHERE "webhooks"."updater_id" is not null;