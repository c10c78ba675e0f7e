-- Activity counts (issue #27, runtime/activity-counts/): the counts the service now keeps on sequences, sequence steps, sequence templates and templates, computed once from the mailings, steps, calls and states that exist, so that records made before keep exact counts from here on (0 where nothing was counted). A mailing counts as scheduled unless it is a draft; a step's mailings count toward its first sequence template of their template, as the writes do.
WITH "tally" AS (
  SELECT m."org_id", m."sequence_id" AS "id",
    count(*) FILTER (WHERE m."state" IS DISTINCT FROM 'drafted') AS "schedule", count(m."delivered_at") AS "deliver", count(m."opened_at") AS "open",
    count(m."clicked_at") AS "click", count(m."replied_at") AS "reply", count(m."bounced_at") AS "bounce",
    count(*) FILTER (WHERE m."state" = 'failed') AS "failure", count(m."unsubscribed_at") AS "opt_out"
  FROM "mailings" m WHERE m."sequence_id" IS NOT NULL GROUP BY 1, 2
), "contacted" AS (
  SELECT "org_id", "sequence_id" AS "id", count(DISTINCT "prospect_id") AS "n" FROM (
    SELECT "org_id", "sequence_id", "prospect_id" FROM "mailings" WHERE "delivered_at" IS NOT NULL
    UNION SELECT "org_id", "sequence_id", "prospect_id" FROM "calls"
  ) r WHERE "sequence_id" IS NOT NULL AND "prospect_id" IS NOT NULL GROUP BY 1, 2
), "replied" AS (
  SELECT "org_id", "sequence_id" AS "id", count(DISTINCT "prospect_id") AS "n" FROM "mailings"
  WHERE "replied_at" IS NOT NULL AND "sequence_id" IS NOT NULL AND "prospect_id" IS NOT NULL GROUP BY 1, 2
), "steps" AS (
  SELECT "org_id", "sequence_id" AS "id", count(*) AS "n" FROM "sequence_steps" WHERE "sequence_id" IS NOT NULL GROUP BY 1, 2
), "enrolled" AS (
  SELECT "org_id", "sequence_id" AS "id", max("created_at") AS "at" FROM "sequence_states" WHERE "sequence_id" IS NOT NULL GROUP BY 1, 2
)
UPDATE "sequences" s SET
  "schedule_count" = coalesce(t."schedule", 0), "deliver_count" = coalesce(t."deliver", 0), "open_count" = coalesce(t."open", 0),
  "click_count" = coalesce(t."click", 0), "reply_count" = coalesce(t."reply", 0), "bounce_count" = coalesce(t."bounce", 0),
  "failure_count" = coalesce(t."failure", 0), "opt_out_count" = coalesce(t."opt_out", 0),
  "num_contacted_prospects" = coalesce(c."n", 0), "num_replied_prospects" = coalesce(r."n", 0),
  "sequence_step_count" = coalesce(st."n", 0), "last_used_at" = coalesce(s."last_used_at", e."at")
FROM "sequences" s0
LEFT JOIN "tally" t ON t."org_id" = s0."org_id" AND t."id" = s0."id"
LEFT JOIN "contacted" c ON c."org_id" = s0."org_id" AND c."id" = s0."id"
LEFT JOIN "replied" r ON r."org_id" = s0."org_id" AND r."id" = s0."id"
LEFT JOIN "steps" st ON st."org_id" = s0."org_id" AND st."id" = s0."id"
LEFT JOIN "enrolled" e ON e."org_id" = s0."org_id" AND e."id" = s0."id"
WHERE s0."org_id" = s."org_id" AND s0."id" = s."id";
--> statement-breakpoint
WITH "tally" AS (
  SELECT m."org_id", m."sequence_step_id" AS "id",
    count(*) FILTER (WHERE m."state" IS DISTINCT FROM 'drafted') AS "schedule", count(m."delivered_at") AS "deliver", count(m."opened_at") AS "open",
    count(m."clicked_at") AS "click", count(m."replied_at") AS "reply", count(m."bounced_at") AS "bounce",
    count(*) FILTER (WHERE m."state" = 'failed') AS "failure", count(m."unsubscribed_at") AS "opt_out"
  FROM "mailings" m WHERE m."sequence_step_id" IS NOT NULL GROUP BY 1, 2
)
UPDATE "sequence_steps" s SET
  "schedule_count" = coalesce(t."schedule", 0), "deliver_count" = coalesce(t."deliver", 0), "open_count" = coalesce(t."open", 0),
  "click_count" = coalesce(t."click", 0), "reply_count" = coalesce(t."reply", 0), "bounce_count" = coalesce(t."bounce", 0),
  "failure_count" = coalesce(t."failure", 0), "opt_out_count" = coalesce(t."opt_out", 0)
FROM "sequence_steps" s0 LEFT JOIN "tally" t ON t."org_id" = s0."org_id" AND t."id" = s0."id"
WHERE s0."org_id" = s."org_id" AND s0."id" = s."id";
--> statement-breakpoint
WITH "first_use" AS (
  SELECT "org_id", "sequence_step_id", "template_id", min("id") AS "id" FROM "sequence_templates"
  WHERE "sequence_step_id" IS NOT NULL AND "template_id" IS NOT NULL GROUP BY 1, 2, 3
), "tally" AS (
  SELECT u."org_id", u."id",
    count(*) FILTER (WHERE m."state" IS DISTINCT FROM 'drafted') AS "schedule", count(m."delivered_at") AS "deliver", count(m."opened_at") AS "open",
    count(m."clicked_at") AS "click", count(m."replied_at") AS "reply", count(m."bounced_at") AS "bounce",
    count(*) FILTER (WHERE m."state" = 'failed') AS "failure", count(m."unsubscribed_at") AS "opt_out"
  FROM "first_use" u JOIN "mailings" m ON m."org_id" = u."org_id" AND m."sequence_step_id" = u."sequence_step_id" AND m."template_id" = u."template_id"
  GROUP BY 1, 2
)
UPDATE "sequence_templates" s SET
  "schedule_count" = coalesce(t."schedule", 0), "deliver_count" = coalesce(t."deliver", 0), "open_count" = coalesce(t."open", 0),
  "click_count" = coalesce(t."click", 0), "reply_count" = coalesce(t."reply", 0), "bounce_count" = coalesce(t."bounce", 0),
  "failure_count" = coalesce(t."failure", 0), "opt_out_count" = coalesce(t."opt_out", 0)
FROM "sequence_templates" s0 LEFT JOIN "tally" t ON t."org_id" = s0."org_id" AND t."id" = s0."id"
WHERE s0."org_id" = s."org_id" AND s0."id" = s."id";
--> statement-breakpoint
WITH "tally" AS (
  SELECT m."org_id", m."template_id" AS "id",
    count(*) FILTER (WHERE m."state" IS DISTINCT FROM 'drafted') AS "schedule", count(m."delivered_at") AS "deliver", count(m."opened_at") AS "open",
    count(m."clicked_at") AS "click", count(m."replied_at") AS "reply", count(m."bounced_at") AS "bounce",
    count(*) FILTER (WHERE m."state" = 'failed') AS "failure", count(m."unsubscribed_at") AS "opt_out", max(m."created_at") AS "used_at"
  FROM "mailings" m WHERE m."template_id" IS NOT NULL GROUP BY 1, 2
)
UPDATE "templates" s SET
  "schedule_count" = coalesce(t."schedule", 0), "deliver_count" = coalesce(t."deliver", 0), "open_count" = coalesce(t."open", 0),
  "click_count" = coalesce(t."click", 0), "reply_count" = coalesce(t."reply", 0), "bounce_count" = coalesce(t."bounce", 0),
  "failure_count" = coalesce(t."failure", 0), "opt_out_count" = coalesce(t."opt_out", 0), "last_used_at" = coalesce(s."last_used_at", t."used_at")
FROM "templates" s0 LEFT JOIN "tally" t ON t."org_id" = s0."org_id" AND t."id" = s0."id"
WHERE s0."org_id" = s."org_id" AND s0."id" = s."id";
