import type { Logger } from 'pino';
import type { WriteEffects } from '../../engine/index.js';
import type { Transaction } from '../../tenancy/index.js';

/** Whose personal data a compliance request erases: an e-mail address in one org. */
export interface ErasureSubject {
  readonly orgId: number;
  /** The address as the request named it; every match is case-insensitive. */
  readonly email: string;
}

/** What a step runs with: the org's transaction (row-level security applies) and the writer's effects in it. */
export interface ErasureContext {
  readonly tx: Transaction;
  readonly subject: ErasureSubject;
  /** The one write path, for steps that delete resources (destroyed events and webhooks follow). */
  readonly effects: WriteEffects;
  readonly log: Logger;
}

/**
 * One kind of personal data a deletion request removes, run as one compliance request task.
 * `run` is idempotent (a task may run again after a crash, or after it failed part-way and
 * was rolled back) and throws when it cannot finish; the task is then retried with backoff.
 */
export interface ErasureStep {
  /** The task's `kind`, stable: it is stored and shown to clients. */
  readonly kind: string;
  run(context: ErasureContext): Promise<void>;
}
