-- The import-key trigger of 0019, with a cheap first look on update: most updates of a keyed table leave its key columns alone (a delivered mailing's touch point, a count, a state), and the trigger now ends for such a statement after one join of its two transition tables. Before, it ran its DELETE and INSERT anyway, each with a correlated lookup in old_rows, under the tables' row-level security: a set of 200 prospects touched took three times as long with the trigger as without it.
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
  any_changed boolean;
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    key_column := TG_ARGV[i];
    IF TG_OP = 'UPDATE' THEN
      EXECUTE format(
        'SELECT EXISTS (SELECT 1 FROM new_rows r JOIN old_rows o ON o.org_id = r.org_id AND o.id = r.id WHERE o.%1$I IS DISTINCT FROM r.%1$I)',
        key_column) INTO any_changed;
      CONTINUE WHEN NOT any_changed;
    END IF;
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
