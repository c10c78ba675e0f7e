-- enqueue_jobs (0014) passes a job's queueName on: graphile-worker runs the jobs of one named
-- queue one at a time. A CSV import's job is queued by org and resource type, so that two
-- imports into one org's prospects never run at once and cannot both create a record for the
-- same new e-mail address, while the segments of one import may overlap.
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
        NULL,
        NULL
      )::graphile_worker.job_spec
      FROM jsonb_array_elements(jobs) WITH ORDINALITY AS e(j, ord)
      ORDER BY ord
    )
  );
END
$$;
