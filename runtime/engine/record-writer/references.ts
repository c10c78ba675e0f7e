/**
 * Before records are deleted, the records that refer to them are updated to refer to nothing,
 * through this same writer: each gets its `updated` event (and its webhook), and its resource's
 * hooks run as for any update, so a client that keeps a copy by webhooks never keeps a reference
 * to a record that is gone. Set-based: the referring records of a set of deleted records are
 * found with one statement per reference and written as sets of updates, a chunk at a time.
 * A polymorphic to-one (a membership's content) refers to the deleted type only where its type
 * column names it, and is cleared whole: type and id.
 */
import type { ResourceDescriptor } from '../../model/descriptor.js';
import { relationshipAlias, relationshipTypeAlias } from '../../model/sql-text.js';
import { SERVICE_ACTOR } from '../behaviour.js';
import { changesByName } from '../record-rules.js';
import type { Reference, ResourceCatalog } from '../records.js';
import type { Row } from '../render.js';
import { clearReference, referringIds } from '../set-statements.js';
import type { UpdateChanges, UpdateOperation, WriteScope } from '../write-operations.js';
import { EFFECT_CHUNK } from './effects.js';
import type { SetWrite } from './set-write.js';

/** Points every reference to the records `ids` of `deleted`'s type at nothing, before they are deleted. */
export async function clearReferencesTo(set: SetWrite, deleted: ResourceDescriptor, ids: readonly number[]): Promise<void> {
  await clearIn(set, set.catalog, set.options.referencesTo(deleted.type), deleted, ids);
  const dynamic = await set.options.dynamicReferences?.(set.tx, set.orgId, deleted.type);
  if (dynamic) await clearIn(set, dynamic.catalog, dynamic.references, deleted, ids);
}

/** The records of one resource that refer to the deleted ones, and through which relationships. */
interface Referring {
  readonly descriptor: ResourceDescriptor;
  readonly references: Reference[];
  readonly ids: Set<number>;
}

/** Clears `references`, whose resources `catalog` has: one set of updates per referring resource. */
async function clearIn(set: SetWrite, catalog: ResourceCatalog, references: readonly Reference[], deleted: ResourceDescriptor, ids: readonly number[]): Promise<void> {
  const targets = new Set(ids);
  const byType = new Map<string, Referring>();
  for (const reference of references) {
    const found = await referringIds(set.tx, reference, set.orgId, ids, deleted.type);
    // A record deleted in this same set (an account's parent, say) is not updated on its way out.
    const kept = reference.descriptor.type === deleted.type ? found.filter((id) => !targets.has(id)) : found;
    if (kept.length === 0) continue;
    const referring = byType.get(reference.descriptor.type) ?? { descriptor: reference.descriptor, references: [], ids: new Set<number>() };
    referring.references.push(reference);
    for (const id of kept) referring.ids.add(id);
    byType.set(reference.descriptor.type, referring);
  }
  for (const referring of byType.values()) await clearReferring(set, catalog, referring, deleted.type, ids);
}

/**
 * Writes the referring records as service writes (the delete's consequence, not a user's
 * change: their updater stays). One that its resource refuses is cleared without an event
 * rather than block the delete.
 */
async function clearReferring(set: SetWrite, catalog: ResourceCatalog, referring: Referring, targetType: string, targets: readonly number[]): Promise<void> {
  const scope: WriteScope = { tx: set.tx, orgId: set.orgId, actor: SERVICE_ACTOR, catalog, isolated: true };
  const operations = [...referring.ids].sort((a, b) => a - b).map((id) => clearingOperation(referring, id, targetType, new Set(targets)));
  const refused: number[] = [];
  for (let start = 0; start < operations.length; start += EFFECT_CHUNK) {
    const chunk = operations.slice(start, start + EFFECT_CHUNK);
    const outcomes = await set.writer.write(scope, chunk);
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'refused') refused.push(chunk[i]!.id);
    });
  }
  if (refused.length === 0) return;
  for (const reference of referring.references) await clearReference(set.tx, reference, set.orgId, refused, targets, targetType);
}

/**
 * The update of one referring record, decided on its row as locked by the write: only the
 * relationships that still point at a deleted record are cleared (another write may have
 * moved one elsewhere since it was found).
 */
function clearingOperation(referring: Referring, id: number, targetType: string, targets: ReadonlySet<number>): UpdateOperation {
  const pointsAtDeleted = (current: Row, reference: Reference): boolean =>
    targets.has(Number(current[relationshipAlias(reference.relationship)])) &&
    (reference.relationship.kind === 'toOne' || current[relationshipTypeAlias(reference.relationship)] === targetType);
  return {
    kind: 'update',
    type: referring.descriptor.type,
    id,
    changes: (current: Row): UpdateChanges => {
      const cleared = referring.references.filter((r) => pointsAtDeleted(current, r));
      return changesByName(referring.descriptor, Object.fromEntries(cleared.map((r) => [r.relationship.name, null])));
    },
  };
}
