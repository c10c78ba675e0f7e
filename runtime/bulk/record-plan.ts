import type { ToOneDescriptor } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import type { Changes, WriteOperation } from '../engine/write-operations.js';
import { readWriteBody, type WriteInput } from '../engine/write-input.js';
import { ApiError, parseId, validationError, type ErrorObject } from '../jsonapi/index.js';
import { relationshipAlias } from '../model/sql-text.js';
import type { DupeMethod } from './upsert-request.js';
import type { UpsertTarget } from './upsert-targets.js';

/**
 * What one record of a bulk upsert comes to, before anything is written:
 * - `write`: an operation for the record writer; `then` is the item's state once it is written
 *   (`skipped` for a duplicate under dupeMethod skip, whose update writes nothing).
 * - `skipped`: nothing to write (a record without id under overwriteNoCreate).
 * - `error`: the record is not a valid create or update body; the errors point into it.
 */
export type RecordPlan =
  | { readonly kind: 'write'; readonly operation: WriteOperation; readonly then: 'success' | 'skipped' }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'error'; readonly errors: readonly ErrorObject[] };

const NO_CHANGES: Changes = { attributes: new Map(), relationships: new Map() };

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** dupeMethod `missing`: of the given values, only those whose field is empty in the record as it is. */
export function fillingEmpty(input: WriteInput): (current: Row) => Changes {
  return (current) => {
    const attributes = new Map([...input.attributes].filter(([a]) => isEmpty(current[a.name])));
    const relationships = new Map<ToOneDescriptor, number | null>([...input.relationships].filter(([rel]) => isEmpty(current[relationshipAlias(rel)])));
    const polymorphic = new Map([...input.polymorphic].filter(([rel]) => isEmpty(current[relationshipAlias(rel)])));
    return { attributes, relationships, polymorphic, relationshipMeta: input.relationshipMeta };
  };
}

/** The body's values as the writer's changes (dupeMethod `overwrite`, and creates). */
export function changesOf(input: WriteInput): Changes {
  return { attributes: input.attributes, relationships: input.relationships, polymorphic: input.polymorphic, relationshipMeta: input.relationshipMeta };
}

function invalidId(): RecordPlan {
  const detail = 'data.id must be the id of a record: a positive integer, or its decimal string';
  return { kind: 'error', errors: validationError([{ pointer: '/data/id', detail }]).errors };
}

/**
 * Plans one record (SPEC.md "Bulk upsert" rules 2, 4 and 5). A record without id is a create;
 * one with an id is an update of that record, which must exist: ids are the service's, so a
 * record with an unknown id can be neither updated nor created under it.
 */
export function planRecord(target: UpsertTarget, record: Readonly<Record<string, unknown>>, dupeMethod: DupeMethod): RecordPlan {
  const { descriptor } = target;
  const data = record.data as Record<string, unknown>;
  try {
    if (data.id === undefined || data.id === null) {
      // `"id": null` says "no id yet" as well as leaving it out does.
      const { id: _none, ...withoutId } = data;
      const input = readWriteBody(descriptor, { ...record, data: withoutId }, 'create', target.validateCreate);
      if (dupeMethod === 'overwriteNoCreate') return { kind: 'skipped' };
      return { kind: 'write', operation: { kind: 'create', type: descriptor.type, changes: changesOf(input) }, then: 'success' };
    }
    const id = typeof data.id === 'number' || typeof data.id === 'string' ? parseId(String(data.id)) : undefined;
    if (id === undefined) return invalidId();
    const input = readWriteBody(descriptor, record, 'update', target.validateUpdate, id);
    const type = descriptor.type;
    if (dupeMethod === 'skip') return { kind: 'write', operation: { kind: 'update', type, id, changes: NO_CHANGES }, then: 'skipped' };
    if (dupeMethod === 'missing') return { kind: 'write', operation: { kind: 'update', type, id, changes: fillingEmpty(input) }, then: 'success' };
    return { kind: 'write', operation: { kind: 'update', type, id, changes: changesOf(input) }, then: 'success' };
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'error', errors: error.errors };
    throw error;
  }
}
