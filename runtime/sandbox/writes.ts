import type { WriteEffects, WriteOperation, WriteOutcome } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { AdminError } from '../operator/index.js';

/** A record the sandbox made, as the commands print it. */
export interface MadeRecord {
  readonly type: string;
  readonly id: number;
}

/** How many records one `write` takes: a bulk job's chunk. */
const SET_SIZE = 1000;

/** The row an outcome wrote; a refusal is the command's error, naming the record and why. */
function writtenRow(operation: WriteOperation, outcome: WriteOutcome | undefined): Row {
  if (outcome?.status === 'written') return outcome.row;
  const what = operation.kind === 'create' ? `a new ${operation.type}` : `${operation.type} ${operation.id}`;
  if (outcome?.status === 'refused') {
    const reasons = outcome.error.errors.map((e) => `${e.detail ?? e.title ?? e.id}${e.source?.pointer ? ` (${e.source.pointer})` : ''}`);
    throw new AdminError(`the record writer refused ${what}: ${reasons.join('; ')}`);
  }
  throw new AdminError(`${what} does not exist`);
}

/**
 * Writes every operation through the record writer, a set of SET_SIZE at a time, and returns the
 * rows written in the operations' order; any refusal stops the command (its transaction rolls back).
 */
export async function writeAll(effects: WriteEffects, operations: readonly WriteOperation[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (let start = 0; start < operations.length; start += SET_SIZE) {
    const set = operations.slice(start, start + SET_SIZE);
    const outcomes = await effects.write(set);
    set.forEach((operation, i) => rows.push(writtenRow(operation, outcomes[i])));
  }
  return rows;
}

/** Writes one operation and returns its row. */
export async function writeOne(effects: WriteEffects, operation: WriteOperation): Promise<Row> {
  const [row] = await writeAll(effects, [operation]);
  return row!;
}

/** The ids of rows, as numbers (bigint columns come back as text). */
export function idsOf(rows: readonly Row[]): number[] {
  return rows.map((row) => Number(row.id));
}
