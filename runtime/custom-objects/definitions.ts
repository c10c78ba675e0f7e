import type postgres from 'postgres';
import { actionFailed, validationError } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { parseDefinition, type Definition, type DefinitionInput } from './definition.js';

/**
 * Creating, changing and deleting custom object definitions: one service behind both the admin
 * API and the CLI. A change bumps the definition's version, which every server process checks
 * before serving the object, so all of them pick it up on their next request.
 */

interface DefinitionRow {
  id: number;
  name: string;
  display_name: string;
  display_field: string;
  fields: Definition['fields'];
  relationships: Definition['relationships'];
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface StoredDefinition extends Definition {
  readonly createdAt: string;
  readonly updatedAt: string;
}

export function definitionOf(row: DefinitionRow): StoredDefinition {
  return {
    id: Number(row.id),
    name: row.name,
    displayName: row.display_name,
    displayField: row.display_field,
    fields: row.fields,
    relationships: row.relationships,
    version: row.version,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

async function allDefinitions(tx: Transaction, orgId: number): Promise<StoredDefinition[]> {
  const rows = await tx<DefinitionRow[]>`select * from custom_object_definitions where org_id = ${orgId} order by name`;
  return rows.map(definitionOf);
}

export async function listDefinitions(sql: postgres.Sql, orgId: number): Promise<StoredDefinition[]> {
  return orgScopedTransaction(sql, orgId, (tx) => allDefinitions(tx, orgId));
}

function contextFor(existing: readonly StoredDefinition[], standardTypes: ReadonlySet<string>, previous?: Definition) {
  return {
    knownTypes: new Set([...standardTypes, ...existing.map((d) => d.name)]),
    customObjects: new Map(existing.map((d) => [d.name, d])),
    reservedNames: new Set([...standardTypes, 'customDuty']),
    ...(previous && { previous }),
  };
}

/** Slots whose values no longer belong to the same field after a change: cleared in the same transaction. */
function freedSlots(previous: Definition, next: DefinitionInput): string[] {
  const owner = (d: Pick<Definition, 'fields' | 'relationships'>) =>
    new Map<string, string>([
      ...d.fields.map((f) => [f.slot, `${f.name}:${f.type}`] as [string, string]),
      ...d.relationships.flatMap((r) => ('slot' in r ? [[r.slot, `${r.name}:${r.target}`] as [string, string]] : [])),
    ]);
  const before = owner(previous);
  const after = owner(next);
  return [...before].filter(([slot, who]) => after.get(slot) !== who).map(([slot]) => slot);
}

async function insertDefinition(tx: Transaction, orgId: number, input: DefinitionInput): Promise<StoredDefinition> {
  const [row] = await tx<DefinitionRow[]>`
    insert into custom_object_definitions (org_id, name, display_name, display_field, fields, relationships)
    values (${orgId}, ${input.name}, ${input.displayName}, ${input.displayField}, ${tx.json(input.fields as never)}, ${tx.json(input.relationships)})
    returning *`;
  return definitionOf(row!);
}

export async function createDefinition(sql: postgres.Sql, orgId: number, raw: unknown, standardTypes: ReadonlySet<string>): Promise<StoredDefinition> {
  return orgScopedTransaction(sql, orgId, async (tx) => {
    const existing = await allDefinitions(tx, orgId);
    const input = parseDefinition(raw, contextFor(existing, standardTypes));
    if (existing.some((d) => d.name === input.name)) {
      throw validationError([{ pointer: '/data/attributes/name', detail: `a custom object named ${input.name} already exists` }]);
    }
    return insertDefinition(tx, orgId, input);
  });
}

export async function updateDefinition(
  sql: postgres.Sql,
  orgId: number,
  id: number,
  raw: Record<string, unknown>,
  standardTypes: ReadonlySet<string>,
): Promise<StoredDefinition | undefined> {
  return orgScopedTransaction(sql, orgId, async (tx) => {
    const existing = await allDefinitions(tx, orgId);
    const previous = existing.find((d) => d.id === id);
    if (!previous) return undefined;
    // PATCH semantics: members not sent keep their value.
    const merged = {
      name: previous.name,
      displayName: previous.displayName,
      displayField: previous.displayField,
      fields: previous.fields,
      relationships: previous.relationships,
      ...raw,
    };
    const next = parseDefinition(merged, contextFor(existing, standardTypes, previous));
    for (const slot of freedSlots(previous, next)) {
      await tx.unsafe(`update custom_object_records set "${slot}" = null where org_id = $1 and definition_id = $2`, [orgId, id]);
    }
    const [row] = await tx<DefinitionRow[]>`
      update custom_object_definitions
         set display_name = ${next.displayName}, display_field = ${next.displayField},
             fields = ${tx.json(next.fields as never)}, relationships = ${tx.json(next.relationships)},
             version = version + 1, updated_at = now()
       where org_id = ${orgId} and id = ${id}
       returning *`;
    return definitionOf(row!);
  });
}

/** Deletes a definition and its records; refused while another custom object points at it. */
export async function deleteDefinition(sql: postgres.Sql, orgId: number, id: number): Promise<boolean> {
  return orgScopedTransaction(sql, orgId, async (tx) => {
    const existing = await allDefinitions(tx, orgId);
    const target = existing.find((d) => d.id === id);
    if (!target) return false;
    const referrers = existing.filter((d) => d.id !== id && d.relationships.some((r) => r.target === target.name));
    if (referrers.length) {
      throw actionFailed('definitionInUse', `${target.name} is the target of relationships of ${referrers.map((d) => d.name).join(', ')}; change those first`);
    }
    await tx`delete from custom_object_definitions where org_id = ${orgId} and id = ${id}`;
    return true;
  });
}

/** Creates the definition, or changes the one of the same name: what `cadence custom-object define` does. */
export async function defineCustomObject(sql: postgres.Sql, orgId: number, raw: unknown, standardTypes: ReadonlySet<string>): Promise<StoredDefinition> {
  const name = (raw as { name?: unknown } | null)?.name;
  const existing = (await listDefinitions(sql, orgId)).find((d) => d.name === name);
  if (!existing) return createDefinition(sql, orgId, raw, standardTypes);
  return (await updateDefinition(sql, orgId, existing.id, raw as Record<string, unknown>, standardTypes))!;
}
