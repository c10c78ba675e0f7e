/**
 * What behaviours' checks, reviews and hooks may read of the org's records, by attribute names,
 * in the write's transaction.
 */
import type { AttributeDescriptor, ResourceDescriptor } from '../../model/descriptor.js';
import { polymorphicTarget, polymorphicToOnes, relationshipAlias, toOnes } from '../../model/sql-text.js';
import type { RecordPresence, RecordReader } from '../behaviour.js';
import type { Row } from '../render.js';
import { overlayView } from '../row-view.js';
import { existingTargets, selectRows } from '../set-statements.js';
import type { SetWrite } from './set-write.js';

/** What behaviours' checks and hooks may read of other records, in the write's transaction. */
export function recordReader(set: SetWrite): RecordReader {
  const descriptorOf = (type: string): ResourceDescriptor => {
    if (!set.catalog.has(type)) throw new Error(`behaviours read records of ${type}, which the catalog does not have`);
    return set.catalog.entry(type).descriptor;
  };
  return {
    presence: (type, id) => presence(set, type, id),
    async rows(type, ids) {
      const rows = await selectRows(set.tx, descriptorOf(type), set.orgId, [{ column: 'id', cast: 'bigint', values: [...new Set(ids)] }]);
      return new Map(rows.map((row) => [Number(row.id), namedRow(descriptorOf(type), row)]));
    },
    async find(type, where) {
      const descriptor = descriptorOf(type);
      const rows = await selectRows(
        set.tx,
        descriptor,
        set.orgId,
        Object.entries(where).map(([name, values]) => ({ ...columnOf(descriptor, name), values })),
      );
      return rows.map((row) => namedRow(descriptor, row));
    },
    serialize: (scope, keys) => serialize(set, scope, keys),
    webhookActions: (type) => webhookActions(set, type),
  };
}

async function presence(set: SetWrite, type: string, id: number): Promise<RecordPresence> {
  if (!set.catalog.has(type)) return (await set.options.dynamicRecords?.(set.tx, set.orgId, type, id)) ?? 'unknownType';
  const target = set.catalog.entry(type).descriptor;
  const found = await existingTargets(set.tx, set.orgId, new Map([[target, new Set([id])]]));
  return found.size > 0 ? 'found' : 'missing';
}

async function serialize(set: SetWrite, scope: string, keys: Iterable<number>): Promise<void> {
  const sorted = [...new Set(keys)].sort((a, b) => a - b);
  if (sorted.length === 0) return;
  // One statement takes every key in ascending order, so two sets cannot deadlock.
  await set.tx.unsafe(
    `select pg_advisory_xact_lock(hashtextextended($1 || ':' || k, 0)) from unnest($2::bigint[]) as k order by k`,
    [`${set.orgId}:${scope}`, sorted] as never[],
    { prepare: true },
  );
}

const GENERIC_WEBHOOK_ACTIONS: readonly string[] = ['created', 'updated', 'destroyed'];

// Types another engine serves (custom objects) emit the generic three; whether the org has
// such a type is asked as the presence of a record that cannot exist.
async function webhookActions(set: SetWrite, type: string): Promise<readonly string[] | undefined> {
  if (set.catalog.has(type)) return set.catalog.entry(type).descriptor.webhookActions;
  const found = await set.options.dynamicRecords?.(set.tx, set.orgId, type, 0);
  return found === undefined || found === 'unknownType' ? undefined : GENERIC_WEBHOOK_ACTIONS;
}

/** A row with its to-one relationship ids (a polymorphic one's {type, id}) under their names too, as behaviours speak. */
export function namedRow(descriptor: ResourceDescriptor, row: Row): Row {
  return Object.assign(row, relationshipsByName(descriptor, row));
}

function relationshipsByName(descriptor: ResourceDescriptor, row: Row): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  for (const rel of toOnes(descriptor)) named[rel.name] = row[relationshipAlias(rel)] ?? null;
  for (const rel of polymorphicToOnes(descriptor)) named[rel.name] = polymorphicTarget(rel, row);
  return named;
}

/**
 * `row` with its relationships by name, as a view rather than a copy: behaviours read a handful
 * of a record's columns, and copying all 200 of a prospect's for every record of a bulk write
 * was a tenth of the worker's time. A view must only be read by name: spreading it or listing
 * its keys gives the relationships alone.
 */
export function namedView(descriptor: ResourceDescriptor, row: Row): Row {
  return overlayView(row, relationshipsByName(descriptor, row));
}

/** The column behind an attribute or to-one relationship name, and the type its values are compared as. */
function columnOf(descriptor: ResourceDescriptor, name: string): { column: string; cast: 'bigint' | 'text' | 'boolean' } {
  if (name === 'id') return { column: 'id', cast: 'bigint' };
  const rel = toOnes(descriptor).find((r) => r.name === name);
  if (rel) return { column: rel.column, cast: 'bigint' };
  const attribute: AttributeDescriptor | undefined = descriptor.attributes.find((a) => a.name === name);
  if (!attribute || !['string', 'integer', 'boolean'].includes(attribute.type) || attribute.format) {
    throw new Error(`behaviours find ${descriptor.type} records by ${name}, which is no plain attribute or to-one relationship`);
  }
  return { column: attribute.column, cast: attribute.type === 'integer' ? 'bigint' : attribute.type === 'boolean' ? 'boolean' : 'text' };
}
