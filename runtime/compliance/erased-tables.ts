import { descriptors } from '../../generated/resources/index.js';
import { TRACE_STEPS, type ErasureStep } from './erasure/index.js';
import { TIED_TYPES } from './prospect-deletion.js';

/**
 * Every tenant table a deletion request erases the address from, with what does it: phase 1,
 * which deletes the prospect and the records tied to it, or a phase-2 step by its kind. With
 * erasure/exempt-tables.ts it should name every tenant table that has text or JSON columns;
 * the erasure test holds the two against the tables of a migrated database.
 */
export function erasedTables(steps: readonly ErasureStep[] = TRACE_STEPS): ReadonlyMap<string, string> {
  const tables = new Map<string, string>();
  for (const type of [...TIED_TYPES, 'prospect']) tables.set(tableOf(type), 'prospect');
  for (const step of steps) for (const table of step.tables) tables.set(table, step.kind);
  return tables;
}

function tableOf(type: string): string {
  const descriptor = descriptors.get(type);
  if (!descriptor) throw new TypeError(`no resource ${type} to delete with a prospect`);
  return descriptor.table;
}
