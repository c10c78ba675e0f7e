-- enqueue_jobs (0014, 0020) passes a job's priority on as well: graphile-worker runs due jobs of
-- a lower priority number first. Webhook deliveries are enqueued behind the rest of the work, so
-- that a backlog of them (a dead receiver) never keeps sequence steps, sends or bulk chunks waiting.
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
        j->>'queueName',
        (j->>'runAt')::timestamptz,
        (j->>'maxAttempts')::int,
        j->>'jobKey',
        (j->>'priority')::int,
        NULL
      )::graphile_worker.job_spec
      FROM jsonb_array_elements(jobs) WITH ORDINALITY AS e(j, ord)
      ORDER BY ord
    )
  );
END
$$;
