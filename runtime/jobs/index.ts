/**
 * Background work's plumbing, which every feature may use: enqueueing jobs in the caller's
 * transaction, and workers' liveness. The worker itself (its tasks, crontab and options) is
 * composed in runtime/worker.ts, which alone knows every feature.
 */
export { enqueueJob, enqueueJobs, type JobOptions, type JobSpec } from './enqueue.js';
export { DEFAULT_LIVENESS, recordHeartbeat, releaseJobsOfDeadWorkers, startLiveness, type Liveness, type LivenessOptions } from './liveness.js';
