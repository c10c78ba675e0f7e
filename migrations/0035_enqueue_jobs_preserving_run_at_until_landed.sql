-- Keyed jobs land whether or not they keep their run-at. 0031 made enqueue_jobs add again every
-- keyed spec that graphile_worker.add_jobs silently skipped (a worker locked the job with that
-- key mid-upsert); enqueue_jobs_preserving_run_at (0029, the tracking fold's) still lost them, so
-- a burst of hits whose fold job was dropped so waited unfolded until the next hit. Both are now
-- one function, cadence_system.add_keyed_jobs, that differs only in job_key_preserve_run_at.
CREATE OR REPLACE FUNCTION cadence_system.add_keyed_jobs(jobs jsonb, preserve_run_at boolean)
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
        ),
        job_key_preserve_run_at := preserve_run_at
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.add_keyed_jobs(jsonb, boolean) FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cadence_system.enqueue_jobs(jobs jsonb)
RETURNS void
LANGUAGE sql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$ SELECT cadence_system.add_keyed_jobs(jobs, false) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cadence_system.enqueue_jobs_preserving_run_at(jobs jsonb)
RETURNS void
LANGUAGE sql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$ SELECT cadence_system.add_keyed_jobs(jobs, true) $$;
