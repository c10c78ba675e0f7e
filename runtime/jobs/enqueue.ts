import type { Transaction } from '../tenancy/index.js';

export interface JobOptions {
  /** graphile-worker's own retries, for crashes; task-level retry policies live in the task. */
  readonly maxAttempts?: number;
  /** Deduplicates: a second enqueue with the same key replaces the first, so re-runs do no harm. */
  readonly jobKey?: string;
  readonly runAt?: Date;
}

/**
 * Enqueues a graphile-worker job inside the caller's transaction: it exists exactly when the
 * change that needs it commits. API transactions run as the unprivileged role, which may call
 * only this SECURITY DEFINER wrapper of graphile_worker.add_job (migration 0003).
 */
export async function enqueueJob(tx: Transaction, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  await tx.unsafe(
    'select cadence_system.enqueue_job($1, $2::json, $3::int, $4::text, $5::timestamptz)',
    [task, payload, options.maxAttempts ?? null, options.jobKey ?? null, options.runAt?.toISOString() ?? null] as never[],
    { prepare: true },
  );
}
