-- Lets API transactions enqueue many graphile-worker jobs in one call (graphile_worker.add_jobs).
-- A write of a thousand records enqueues its webhook deliveries and follow-up jobs with one
-- statement instead of one per job. `jobs` is a JSON array of
-- {task, payload, runAt?, maxAttempts?, jobKey?}; like enqueue_job, it can do nothing else.
CREATE OR REPLACE FUNCTION cadence_system.enqueue_jobs(jobs jsonb)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  PERFORM graphile_worker.add_jobs(
    ARRAY(
      SELECT ROW(
        j->>'task',
        (j->'payload')::json,
        NULL,
        (j->>'runAt')::timestamptz,
        (j->>'maxAttempts')::int,
        j->>'jobKey',
        NULL,
        NULL
      )::graphile_worker.job_spec
      FROM jsonb_array_elements(jobs) WITH ORDINALITY AS e(j, ord)
      ORDER BY ord
    )
  );
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.enqueue_jobs(jsonb) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION cadence_system.enqueue_jobs(jsonb) TO cadence_app;
