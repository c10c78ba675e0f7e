-- Lets API transactions (role cadence_app) enqueue graphile-worker jobs, and nothing more.
-- graphile_worker's schema is installed by the migration runner after these migrations; a
-- plpgsql body is resolved when called, so it may refer to it already.
CREATE OR REPLACE FUNCTION cadence_system.enqueue_job(task text, payload json, max_attempts int, job_key text, run_at timestamptz)
RETURNS void
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  PERFORM graphile_worker.add_job(task, payload, max_attempts => max_attempts, job_key => job_key, run_at => run_at);
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.enqueue_job(text, json, int, text, timestamptz) FROM PUBLIC;
--> statement-breakpoint
GRANT USAGE ON SCHEMA cadence_system TO cadence_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION cadence_system.enqueue_job(text, json, int, text, timestamptz) TO cadence_app;
--> statement-breakpoint
REVOKE ALL ON FUNCTION cadence_system.secure_tenant_tables() FROM PUBLIC;
