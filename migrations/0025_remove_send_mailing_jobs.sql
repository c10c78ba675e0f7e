-- Lets API transactions (role cadence_app) cancel the pending send job of their own org's mailings (runtime/mail/sending/send-jobs.ts): a mailing that leaves scheduled (deleted, drafted again) loses its job. Only keys of the org the transaction is scoped to (cadence.org_id) are touched, as in 0022.
CREATE OR REPLACE FUNCTION cadence_system.remove_send_mailing_jobs(mailing_ids bigint[])
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  org text := nullif(current_setting('cadence.org_id', true), '');
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'remove_send_mailing_jobs needs an org-scoped transaction';
  END IF;
  PERFORM graphile_worker.remove_job('send_mailing:' || org || ':' || m)
     FROM unnest(mailing_ids) AS m ORDER BY m;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.remove_send_mailing_jobs(bigint[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION cadence_system.remove_send_mailing_jobs(bigint[]) TO cadence_app;
