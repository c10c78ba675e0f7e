-- secure_tenant_tables() changes only what is not yet secured, so securing tables that already are takes no lock.
-- ALTER TABLE ... ROW LEVEL SECURITY takes an ACCESS EXCLUSIVE lock even when it changes nothing, and
-- the migration runner used to call this after every start: CLI commands and server starts then
-- waited for, and deadlocked with, live writes. The runner now calls it only after a migration was
-- applied (a new resource's table), and each table gets only the statements it is missing.
CREATE OR REPLACE FUNCTION cadence_system.secure_tenant_tables() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  t record;
  s record;
BEGIN
  IF NOT has_schema_privilege('cadence_app', 'public', 'USAGE') THEN
    EXECUTE 'GRANT USAGE ON SCHEMA public TO cadence_app';
  END IF;
  FOR t IN
    SELECT c.oid, c.relname, c.relrowsecurity, c.relforcerowsecurity
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    IF NOT t.relrowsecurity THEN
      EXECUTE format('ALTER TABLE public.%I ENABLE ROW LEVEL SECURITY', t.relname);
    END IF;
    IF NOT t.relforcerowsecurity THEN
      EXECUTE format('ALTER TABLE public.%I FORCE ROW LEVEL SECURITY', t.relname);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = t.oid AND p.polname = 'tenant_isolation') THEN
      -- An unset or empty cadence.org_id makes the comparison null: no row matches.
      EXECUTE format(
        'CREATE POLICY tenant_isolation ON public.%I USING (org_id = nullif(current_setting(''cadence.org_id'', true), '''')::bigint) WITH CHECK (org_id = nullif(current_setting(''cadence.org_id'', true), '''')::bigint)',
        t.relname);
    END IF;
    IF NOT (has_table_privilege('cadence_app', t.oid, 'SELECT') AND has_table_privilege('cadence_app', t.oid, 'INSERT')
            AND has_table_privilege('cadence_app', t.oid, 'UPDATE') AND has_table_privilege('cadence_app', t.oid, 'DELETE')) THEN
      EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON public.%I TO cadence_app', t.relname);
    END IF;
  END LOOP;
  FOR s IN
    SELECT c.oid, c.relname
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'S'
  LOOP
    IF NOT (has_sequence_privilege('cadence_app', s.oid, 'USAGE') AND has_sequence_privilege('cadence_app', s.oid, 'SELECT')) THEN
      EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE public.%I TO cadence_app', s.relname);
    END IF;
  END LOOP;
END
$$;
