/**
 * The record writer, the one write path. Every record written, by an HTTP request (a set of
 * one), a bulk job or another record's behaviour, goes through `write`: per set, the records'
 * current rows are read and locked with one statement, referenced ids checked with one, each
 * table written with one statement per column set, the events recorded with one, and their
 * jobs enqueued with one call. A record that breaks a rule is refused alone; its neighbours
 * are written.
 *
 * The steps, in order: waves.ts splits a set so each record appears once per wave; group.ts
 * writes one resource type's records of a wave through prepare.ts, review.ts, apply.ts and
 * outcomes.ts; apply.ts has references.ts update the records referring to deleted ones first;
 * hooks.ts runs the behaviours' hooks, which get effects.ts and record-reader.ts.
 */
import type { RecordWriter, WriteOutcome } from '../write-operations.js';
import { writeEffects } from './effects.js';
import { setWriteOf, type RecordWriterOptions } from './set-write.js';
import { wavesOf, writeWave } from './waves.js';

export { actionOperation } from './actions.js';
export type { RecordWriterOptions } from './set-write.js';

export function createRecordWriter(options: RecordWriterOptions): RecordWriter {
  const writer: RecordWriter = {
    async write(scope, operations) {
      const set = setWriteOf(options, writer, scope, operations.length > 1);
      const outcomes: WriteOutcome[] = new Array<WriteOutcome>(operations.length);
      for (const wave of wavesOf(operations)) await writeWave(set, operations, wave, outcomes);
      return outcomes;
    },
    effects: (scope) => writeEffects(setWriteOf(options, writer, scope, true)),
  };
  return writer;
}
