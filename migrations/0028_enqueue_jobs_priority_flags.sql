-- enqueue_jobs (0014, 0020) passes a job's priority and flags on as well. graphile-worker runs due
-- jobs of a lower priority number first: webhook deliveries are enqueued behind the rest of the
-- work, so that a backlog of them (a dead receiver) never keeps sequence steps, sends or bulk
-- chunks waiting. A worker skips jobs with the flags it forbids: an org's deliveries carry the
-- org's share flag, which a worker forbids while they hold all but one of its slots.
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
        CASE WHEN j ? 'flags' THEN ARRAY(SELECT jsonb_array_elements_text(j->'flags')) END
      )::graphile_worker.job_spec
      FROM jsonb_array_elements(jobs) WITH ORDINALITY AS e(j, ord)
      ORDER BY ord
    )
  );
END
$$;
