-- enqueue_jobs (0014, 0020, 0028) makes sure every keyed job it is given lands, as a new job or merged into a waiting one.
-- graphile_worker.add_jobs upserts a keyed job only while the job with that key is not locked:
-- when a worker locks that job between add_jobs clearing the keys of locked jobs and its insert
-- (it may wait there for another transaction that is appending to the same job), the spec is
-- neither inserted nor merged, and nothing says so. Webhook delivery sets are keyed batch jobs
-- that consecutive writes append to (runtime/webhooks/delivery-job.ts), so this happens under
-- load; the specs whose key add_jobs did not return are added again, which now finds the job
-- locked and makes a new one.
CREATE OR REPLACE FUNCTION cadence_system.enqueue_jobs(jobs jsonb)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  -- The specs still to add: all of them, then those that did not land.
  pending jsonb := jobs;
  landed text[];
BEGIN
  FOR pass IN 1..3 LOOP
    SELECT coalesce(array_agg(added.key), '{}') INTO landed
      FROM graphile_worker.add_jobs(
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
          FROM jsonb_array_elements(pending) WITH ORDINALITY AS e(j, ord)
          ORDER BY ord
        )
      ) AS added
     WHERE added.key IS NOT NULL;
    pending := coalesce(
      (SELECT jsonb_agg(j ORDER BY ord) FROM jsonb_array_elements(pending) WITH ORDINALITY AS e(j, ord)
        WHERE j ? 'jobKey' AND j->>'jobKey' <> ALL (landed)),
      '[]'::jsonb);
    IF jsonb_array_length(pending) = 0 THEN
      RETURN;
    END IF;
  END LOOP;
  RAISE EXCEPTION 'graphile_worker.add_jobs did not add the jobs keyed %', (SELECT string_agg(j->>'jobKey', ', ') FROM jsonb_array_elements(pending) AS e(j));
END
$$;
