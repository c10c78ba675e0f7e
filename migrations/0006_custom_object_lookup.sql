-- Reads one org's custom object definitions in a single statement, for the per-request check that
-- a server's cached descriptors are current. It sets the org itself, so row-level security
-- applies exactly as in an API transaction whatever role calls it.
CREATE OR REPLACE FUNCTION cadence_system.custom_object_definitions_of(org bigint)
RETURNS SETOF public.custom_object_definitions
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  PERFORM set_config('cadence.org_id', org::text, true);
  RETURN QUERY SELECT * FROM public.custom_object_definitions d WHERE d.org_id = org ORDER BY d.name;
END
$$;
