-- Rechecks a cached access token inside an API transaction (runtime/auth/token-cache.ts): raises CDA01 unless it is still current.
CREATE OR REPLACE FUNCTION cadence_system.recheck_access_token(hash text, org bigint, usr bigint, was_admin boolean)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER -- API transactions run as cadence_app, which cannot read cadence_system's tables
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  PERFORM 1
     FROM cadence_system.access_tokens t
     JOIN cadence_system.orgs o ON o.id = t.org_id
    WHERE t.token_hash = hash
      AND t.org_id = org
      AND t.user_id IS NOT DISTINCT FROM usr
      AND t.expires_at > now()
      AND o.locked_at IS NULL AND o.deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM cadence_system.org_admins a WHERE a.org_id = t.org_id AND a.user_id = t.user_id) = was_admin;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the access token is no longer as the server cached it' USING ERRCODE = 'CDA01';
  END IF;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.recheck_access_token(text, bigint, bigint, boolean) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION cadence_system.recheck_access_token(text, bigint, bigint, boolean) TO cadence_app;
