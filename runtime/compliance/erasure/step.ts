import type { Logger } from 'pino';
import type postgres from 'postgres';

/** Whose personal data a compliance request erases: an e-mail address in one org. */
export interface ErasureSubject {
  readonly orgId: number;
  /** The address as the request named it; every match is case-insensitive. */
  readonly email: string;
}

/**
 * What a step runs with. Not a transaction: a step opens short org-scoped transactions of its
 * own (row-level security applies), a slice of rows each (slices.ts), so that none of them
 * grows with the size of the org.
 */
export interface ErasureContext {
  readonly sql: postgres.Sql;
  readonly subject: ErasureSubject;
  readonly log: Logger;
}

/**
 * One kind of personal data a deletion request removes, run as one compliance request task.
 * `run` is idempotent (a task may run again after a crash, or after it failed part-way, with
 * some slices committed) and throws when it cannot finish; the task is then retried with backoff.
 */
export interface ErasureStep {
  /** The task's `kind`, stable: it is stored and shown to clients. */
  readonly kind: string;
  /**
   * The tenant tables it erases the address from, as PostgreSQL names them with the public
   * schema first on the search path. The erasure test fails on a tenant table with text or JSON
   * columns that no step lists and exempt-tables.ts does not exempt.
   */
  readonly tables: readonly string[];
  run(context: ErasureContext): Promise<void>;
}
