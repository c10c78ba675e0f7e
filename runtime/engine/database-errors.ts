import { validationError, type ApiError } from '../jsonapi/index.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import { toOnes } from '../model/sql-text.js';

interface PostgresError {
  code?: string;
  constraint_name?: string;
  column_name?: string;
  message?: string;
}

/**
 * Turns what PostgreSQL refuses about a write into a 422 the client can act on: a relationship
 * to a record that does not exist (in this org), a value another record holds under a unique
 * index, a value the column type cannot hold. Anything else is not the client's doing and is
 * rethrown.
 */
export function apiErrorOfWrite(descriptor: ResourceDescriptor, error: unknown): ApiError | undefined {
  const e = error as PostgresError;
  if (typeof e?.code !== 'string') return undefined;
  if (e.code === '23503') {
    const rel = toOnes(descriptor).find((r) => e.constraint_name === `${descriptor.table}_${r.column.replace(/_id$/, '')}_fk`);
    if (rel) return validationError([{ pointer: `/data/relationships/${rel.name}`, detail: `${rel.name} refers to a ${rel.target} that does not exist` }]);
    return validationError([{ pointer: '/data', detail: 'The record is still referenced by other records' }]);
  }
  if (e.code === '23502' && e.column_name) {
    const a = descriptor.attributes.find((x) => x.column === e.column_name);
    return validationError([{ pointer: `/data/attributes/${a?.name ?? e.column_name}`, detail: `${a?.name ?? e.column_name} must not be null` }]);
  }
  if (e.code === '23505') {
    // A unique index of one attribute is named <table>_<column>_unique (users_email_unique): the
    // value taken is that attribute's.
    const a = descriptor.attributes.find((x) => e.constraint_name === `${descriptor.table}_${x.column}_unique`);
    if (a) return validationError([{ pointer: `/data/attributes/${a.name}`, detail: `Another ${descriptor.type} already has this ${a.name}` }]);
    return validationError([{ pointer: '/data', detail: 'A record with these values already exists' }]);
  }
  // Class 22 is "data exception": a value the column cannot hold (a date out of range, say).
  if (e.code.startsWith('22')) return validationError([{ pointer: '/data/attributes', detail: `A value cannot be stored: ${e.message}` }]);
  return undefined;
}
