-- Org standard records: every org that exists gets what createOrg now writes with a new org (runtime/admin/org-records.ts): its settings record at the org's own id, the task priorities and the suggested duties; an org that already has a task priority or a duty keeps its own set.
INSERT INTO "org_settings" ("org_id", "id") OVERRIDING SYSTEM VALUE
SELECT o."id", o."id" FROM "cadence_system"."orgs" o
WHERE NOT EXISTS (SELECT 1 FROM "org_settings" s WHERE s."org_id" = o."id" AND s."id" = o."id");
--> statement-breakpoint
INSERT INTO "task_priorities" ("org_id", "name", "weight", "color")
SELECT o."id", p."name", p."weight", p."color"
FROM "cadence_system"."orgs" o
CROSS JOIN (VALUES ('Low', 1, 9082022), ('Normal', 2, 3900150), ('High', 3, 16734545)) AS p("name", "weight", "color")
WHERE NOT EXISTS (SELECT 1 FROM "task_priorities" t WHERE t."org_id" = o."id")
ORDER BY o."id", p."weight";
--> statement-breakpoint
INSERT INTO "duties" ("org_id", "duty_type", "symbolic_name")
SELECT o."id", 'duty', d."symbolic_name"
FROM "cadence_system"."orgs" o
CROSS JOIN (VALUES ('account_executive'), ('account_manager'), ('customer_success_manager'), ('marketing'),
  ('sales_development_representative'), ('sales_manager'), ('sales_operations')) AS d("symbolic_name")
WHERE NOT EXISTS (SELECT 1 FROM "duties" x WHERE x."org_id" = o."id")
ORDER BY o."id", d."symbolic_name";
--> statement-breakpoint
-- An org's one settings record is at the org's own id: nothing else may take that table's identity values.
ALTER TABLE "org_settings" ADD CONSTRAINT "org_settings_id_is_org_id" CHECK ("id" = "org_id");
