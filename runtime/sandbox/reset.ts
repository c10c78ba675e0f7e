import type postgres from 'postgres';
import { descriptors } from '../../generated/resources/index.js';
import { listDefinitions } from '../custom-objects/definitions.js';
import { orgDescriptors, withoutDanglingInverses } from '../custom-objects/org-descriptors.js';
import { createCatalog, SERVICE_ACTOR, type RecordWriter, type ResourceCatalog, type ResourceDescriptor } from '../engine/index.js';
import { AdminError, requireOrg } from '../operator/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';

/**
 * `cadence org reset`: deletes every record of an org the API can delete, custom objects'
 * records included, but its users: through the record writer, like DELETE requests, so each
 * delete runs its resource's hooks and clears the references to it. Webhooks go first, so the
 * `destroyed` events the reset records reach no subscriber. What the API never deletes stays:
 * users and tokens, the org's settings and fixed records (task priorities, duties), and its
 * history (events, audit logs, batches, imports).
 */

/** Kept: the people who sign in (their tokens and settings are no records at all). */
const KEPT_TYPES = new Set(['user']);
/** Deleted a transaction per this many records. */
const DELETES_PER_TRANSACTION = 1000;
/** Rounds over every type: a record refused while another still refers to it is tried again in the next. */
const MAX_ROUNDS = 5;

export interface ResetDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
}

/** How many records of each type the reset deleted. */
export type ResetSummary = Record<string, number>;

function referencedTypes(descriptor: ResourceDescriptor): string[] {
  return descriptor.relationships.flatMap((r) => (r.kind === 'toOne' ? [r.target] : r.kind === 'polymorphicToOne' ? r.targets : []));
}

/**
 * Webhooks first, then the types in an order where a record goes before what it refers to, so
 * few references are cleared by updates only to be deleted after. Cycles are broken by name.
 */
export function deletionOrder(types: readonly ResourceDescriptor[]): ResourceDescriptor[] {
  const remaining = new Map(types.map((d) => [d.type, d]));
  const order: ResourceDescriptor[] = [];
  const take = (d: ResourceDescriptor) => {
    order.push(d);
    remaining.delete(d.type);
  };
  const webhook = remaining.get('webhook');
  if (webhook) take(webhook);
  while (remaining.size > 0) {
    const referred = new Set([...remaining.values()].flatMap((d) => referencedTypes(d).filter((t) => t !== d.type)));
    const free = [...remaining.values()].filter((d) => !referred.has(d.type)).sort((a, b) => a.type.localeCompare(b.type));
    for (const d of free.length > 0 ? free : [[...remaining.values()].sort((a, b) => a.type.localeCompare(b.type))[0]!]) take(d);
  }
  return order;
}

/** The next ids of the type's records in the org, at most DELETES_PER_TRANSACTION, after `after`. */
async function nextIds(sql: postgres.Sql, orgId: number, descriptor: ResourceDescriptor, after: number): Promise<number[]> {
  const partition = descriptor.partition ? ` and "${descriptor.partition.column}" = ${descriptor.partition.value}` : '';
  return orgScopedTransaction(
    sql,
    orgId,
    async (tx) => {
      const rows = await tx.unsafe<{ id: string }[]>(
        `select id from "${descriptor.table}" where org_id = $1 and id > $2${partition} order by id limit ${DELETES_PER_TRANSACTION}`,
        [orgId, after],
      );
      return rows.map((row) => Number(row.id));
    },
    { readOnly: true },
  );
}

/** Deletes the type's records a set at a time; returns how many went, and one refusal's reason if any stayed. */
async function deleteAll(
  deps: ResetDependencies,
  orgId: number,
  catalog: ResourceCatalog,
  descriptor: ResourceDescriptor,
): Promise<{ deleted: number; refused?: string }> {
  let deleted = 0;
  let refused: string | undefined;
  let after = 0;
  for (let ids = await nextIds(deps.sql, orgId, descriptor, after); ids.length > 0; ids = await nextIds(deps.sql, orgId, descriptor, after)) {
    const outcomes = await orgScopedTransaction(deps.sql, orgId, (tx) =>
      deps.writer.write(
        { tx, orgId, actor: SERVICE_ACTOR, catalog },
        ids.map((id) => ({ kind: 'delete' as const, type: descriptor.type, id })),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'written') deleted += 1;
      if (outcome.status === 'refused') refused ??= outcome.error.errors.map((e) => e.detail ?? e.title).join('; ');
    }
    after = ids.at(-1)!;
  }
  return { deleted, ...(refused !== undefined && { refused }) };
}

export async function resetOrg(deps: ResetDependencies, orgId: number): Promise<ResetSummary> {
  await deps.sql.begin((tx) => requireOrg(tx, orgId));
  const orgTypes = orgDescriptors(descriptors, withoutDanglingInverses(await listDefinitions(deps.sql, orgId)));
  const catalog = createCatalog(orgTypes);
  const types = deletionOrder([...orgTypes.values()].filter((d) => d.operations.delete && !KEPT_TYPES.has(d.type)));
  const summary: ResetSummary = {};
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const refusals: string[] = [];
    for (const descriptor of types) {
      const { deleted, refused } = await deleteAll(deps, orgId, catalog, descriptor);
      if (deleted > 0) summary[descriptor.type] = (summary[descriptor.type] ?? 0) + deleted;
      if (refused !== undefined) refusals.push(`${descriptor.type}: ${refused}`);
    }
    if (refusals.length === 0) return summary;
    if (round === MAX_ROUNDS - 1) throw new AdminError(`org ${orgId} was reset but for records the writer refused to delete: ${refusals.join('; ')}`);
  }
  return summary;
}
