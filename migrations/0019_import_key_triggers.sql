-- Keeps import_keys (0018) in step with the keyed tables: statement-level triggers with
-- transition tables, so a write of a thousand records maintains their keys with one statement
-- per key column, whoever writes them (the record writer, the CLI, a migration). The trigger's
-- arguments are the resource type and the key columns, the attributes the schema marks
-- x-importKey; test/api/import-keys.test.ts checks every such attribute has its trigger, so a
-- new one needs a migration that calls cadence_system.install_import_key_triggers.
--
-- A text column gives its value, a text[] column each element, trimmed and lower-cased. Values over
-- 1,000 characters are not keys (a btree entry has a size limit; no e-mail, domain or name is
-- that long), so they never block the write of their record.
CREATE OR REPLACE FUNCTION cadence_system.maintain_import_keys()
RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  resource text := TG_ARGV[0];
  key_column text;
  is_array boolean;
  keys_of text;
  changed text;
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    key_column := TG_ARGV[i];
    SELECT a.atttypid = 'text[]'::regtype INTO is_array FROM pg_attribute a WHERE a.attrelid = TG_RELID AND a.attname = key_column;
    -- The values as a set: an array's elements, or the one value.
    keys_of := CASE WHEN is_array THEN format('unnest(r.%I)', key_column) ELSE format('unnest(ARRAY[r.%I])', key_column) END;
    -- An update touches the keys of the records whose key column changed, not of every record it wrote.
    changed := format('EXISTS (SELECT 1 FROM old_rows o WHERE o.org_id = r.org_id AND o.id = r.id AND o.%1$I IS DISTINCT FROM r.%1$I)', key_column);
    IF TG_OP = 'DELETE' THEN
      EXECUTE format(
        'DELETE FROM public.import_keys k USING old_rows r
          WHERE k.org_id = r.org_id AND k.resource_type = %L AND k.key_column = %L AND k.record_id = r.id',
        resource, key_column);
    ELSIF TG_OP = 'UPDATE' THEN
      EXECUTE format(
        'DELETE FROM public.import_keys k USING new_rows r
          WHERE k.org_id = r.org_id AND k.resource_type = %L AND k.key_column = %L AND k.record_id = r.id AND %s',
        resource, key_column, changed);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      EXECUTE format(
        'INSERT INTO public.import_keys (org_id, resource_type, key_column, key, record_id)
         SELECT DISTINCT r.org_id, %L, %L, lower(btrim(u.v)), r.id FROM new_rows r, %s AS u(v)
          WHERE btrim(u.v) <> '''' AND length(u.v) <= 1000 %s
         ON CONFLICT DO NOTHING',
        resource, key_column, keys_of, CASE WHEN TG_OP = 'UPDATE' THEN 'AND ' || changed ELSE '' END);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Installs the three triggers of one keyed table and fills import_keys from its rows.
CREATE OR REPLACE FUNCTION cadence_system.install_import_key_triggers(table_name text, resource text, key_columns text[])
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  args text := array_to_string(ARRAY(SELECT quote_literal(x) FROM unnest(resource || key_columns) AS x), ', ');
  key_column text;
BEGIN
  EXECUTE format('CREATE OR REPLACE TRIGGER import_keys_insert AFTER INSERT ON public.%I REFERENCING NEW TABLE AS new_rows
                  FOR EACH STATEMENT EXECUTE FUNCTION cadence_system.maintain_import_keys(%s)', table_name, args);
  EXECUTE format('CREATE OR REPLACE TRIGGER import_keys_update AFTER UPDATE ON public.%I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
                  FOR EACH STATEMENT EXECUTE FUNCTION cadence_system.maintain_import_keys(%s)', table_name, args);
  EXECUTE format('CREATE OR REPLACE TRIGGER import_keys_delete AFTER DELETE ON public.%I REFERENCING OLD TABLE AS old_rows
                  FOR EACH STATEMENT EXECUTE FUNCTION cadence_system.maintain_import_keys(%s)', table_name, args);
  -- Row-level security is forced on tenant tables, even for their owner; it is lifted while the
  -- existing rows of every org are copied.
  EXECUTE format('ALTER TABLE public.%I NO FORCE ROW LEVEL SECURITY', table_name);
  FOREACH key_column IN ARRAY key_columns LOOP
    EXECUTE format(
      'INSERT INTO public.import_keys (org_id, resource_type, key_column, key, record_id)
       SELECT DISTINCT r.org_id, %L, %L, lower(btrim(u.v)), r.id
         FROM public.%I r, %s AS u(v)
        WHERE btrim(u.v) <> '''' AND length(u.v) <= 1000
       ON CONFLICT DO NOTHING',
      resource, key_column, table_name,
      CASE WHEN (SELECT a.atttypid = 'text[]'::regtype FROM pg_attribute a WHERE a.attrelid = format('public.%I', table_name)::regclass AND a.attname = key_column)
           THEN format('unnest(r.%I)', key_column) ELSE format('unnest(ARRAY[r.%I])', key_column) END);
  END LOOP;
  EXECUTE format('ALTER TABLE public.%I FORCE ROW LEVEL SECURITY', table_name);
END
$$;
--> statement-breakpoint
SELECT cadence_system.install_import_key_triggers('prospects', 'prospect', ARRAY['emails']);
--> statement-breakpoint
SELECT cadence_system.install_import_key_triggers('accounts', 'account', ARRAY['domain', 'name']);
