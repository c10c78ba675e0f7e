-- Worker liveness: one row per graphile-worker pool with its last heartbeat, so the jobs of a dead worker are released within a minute (runtime/jobs/liveness.ts).
CREATE TABLE "cadence_system"."worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
