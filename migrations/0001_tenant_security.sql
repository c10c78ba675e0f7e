-- Tenant security: the API role, and row-level security on every tenant table keyed on cadence.org_id.
-- cadence_app owns nothing, so policies always apply to it; API transactions switch to it with
-- set_config('role', ...). Roles are cluster-wide, so creating it must tolerate an existing one.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cadence_app') THEN
    CREATE ROLE cadence_app NOLOGIN;
  END IF;
END
$$;
--> statement-breakpoint
-- The migrating user must be able to SET ROLE cadence_app (superusers always can).
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'cadence_app', 'MEMBER') THEN
    EXECUTE format('GRANT cadence_app TO %I', current_user);
  END IF;
END
$$;
--> statement-breakpoint
-- Secures every table in public that has an org_id column. It is idempotent and the migration
-- runner calls it after every migration, so a resource added by a later schema edit is secured
-- without anyone remembering to.
CREATE OR REPLACE FUNCTION cadence_system.secure_tenant_tables() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t record;
BEGIN
  EXECUTE 'GRANT USAGE ON SCHEMA public TO cadence_app';
  FOR t IN
    SELECT c.relname
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('ALTER TABLE public.%I ENABLE ROW LEVEL SECURITY', t.relname);
    EXECUTE format('ALTER TABLE public.%I FORCE ROW LEVEL SECURITY', t.relname);
    IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE schemaname = 'public' AND tablename = t.relname AND policyname = 'tenant_isolation') THEN
      -- An unset or empty cadence.org_id makes the comparison null: no row matches.
      EXECUTE format(
        'CREATE POLICY tenant_isolation ON public.%I USING (org_id = nullif(current_setting(''cadence.org_id'', true), '''')::bigint) WITH CHECK (org_id = nullif(current_setting(''cadence.org_id'', true), '''')::bigint)',
        t.relname);
    END IF;
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON public.%I TO cadence_app', t.relname);
  END LOOP;
  EXECUTE 'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO cadence_app';
END
$$;
--> statement-breakpoint
SELECT cadence_system.secure_tenant_tables();
