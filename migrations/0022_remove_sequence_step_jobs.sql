-- Lets API transactions (role cadence_app) cancel the pending step job of their own org's
-- sequence states (runtime/sequences/step-jobs.ts): pausing or finishing a state removes its
-- job. Only keys of the org the transaction is scoped to (cadence.org_id) are touched, so one
-- tenant can never cancel another's jobs. graphile_worker.remove_job deletes a job that no
-- worker holds and disarms one that is running (it will not be retried).
CREATE OR REPLACE FUNCTION cadence_system.remove_sequence_step_jobs(state_ids bigint[])
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  org text := nullif(current_setting('cadence.org_id', true), '');
BEGIN
  IF org IS NULL THEN
    RAISE EXCEPTION 'remove_sequence_step_jobs needs an org-scoped transaction';
  END IF;
  PERFORM graphile_worker.remove_job('sequence_step:' || org || ':' || s)
     FROM unnest(state_ids) AS s ORDER BY s;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.remove_sequence_step_jobs(bigint[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION cadence_system.remove_sequence_step_jobs(bigint[]) TO cadence_app;
