/**
 * Storage of organisation-defined custom objects.
 *
 * Why one shared table with typed slot columns: a table per object per org would mean DDL at
 * run time and thousands of tables across tenants (catalog bloat, migrations per org, no
 * Citus co-location). A single JSONB column would need an expression index per field per org,
 * again DDL at run time. Typed slots (s01..s10 text, n01..n05 numbers, t01..t05 timestamps,
 * b01..b03 booleans, r01..r05 relationship ids) give every field a real typed column with a
 * fixed set of indexes, all leading with (org_id, definition_id): a filter or sort on any
 * filterable/sortable field is an index range within one object of one org, whatever the number
 * of orgs and objects. A definition maps its field names to slots; the engine sees slots as
 * ordinary columns through the descriptor.
 */
import { bigint, boolean, doublePrecision, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { orgs, timestampColumn } from '../db/system-tables.js';

export const SLOT_COUNTS = { string: 10, number: 5, timestamp: 5, boolean: 3, reference: 5 } as const;
export type SlotKind = keyof typeof SLOT_COUNTS;
const PREFIX: Record<SlotKind, string> = { string: 's', number: 'n', timestamp: 't', boolean: 'b', reference: 'r' };

export function slotNames(kind: SlotKind): string[] {
  return Array.from({ length: SLOT_COUNTS[kind] }, (_, i) => `${PREFIX[kind]}${String(i + 1).padStart(2, '0')}`);
}

export const customObjectDefinitions = pgTable(
  'custom_object_definitions',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    displayName: text('display_name').notNull(),
    displayField: text('display_field').notNull(),
    /** [{name, type, required, filterable, sortable, slot}] */
    fields: jsonb('fields').notNull(),
    /** [{name, target, slot}] */
    relationships: jsonb('relationships').notNull(),
    /** Bumped on every change: server processes rebuild their cached descriptor when it moves. */
    version: integer('version').notNull().default(1),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
    updatedAt: timestampColumn('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'custom_object_definitions_pkey', columns: [t.orgId, t.id] }), uniqueIndex('custom_object_definitions_name_idx').on(t.orgId, t.name)],
);

type Columns = Record<
  string,
  ReturnType<typeof text> | ReturnType<typeof doublePrecision> | ReturnType<typeof boolean> | ReturnType<typeof timestampColumn> | ReturnType<typeof bigint>
>;

function slotColumns(): Columns {
  const columns: Columns = {};
  for (const name of slotNames('string')) columns[name] = text(name);
  for (const name of slotNames('number')) columns[name] = doublePrecision(name);
  for (const name of slotNames('timestamp')) columns[name] = timestampColumn(name);
  for (const name of slotNames('boolean')) columns[name] = boolean(name);
  for (const name of slotNames('reference')) columns[name] = bigint(name, { mode: 'number' });
  return columns;
}

export const customObjectRecords = pgTable(
  'custom_object_records',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    definitionId: bigint('definition_id', { mode: 'number' }).notNull(),
    ...slotColumns(),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
    updatedAt: timestampColumn('updated_at').notNull().defaultNow(),
  },
  (t) => {
    const columns = t as unknown as Record<string, AnyPgColumn>;
    const sortable = [...slotNames('string'), ...slotNames('number'), ...slotNames('timestamp'), 'created_at', 'updated_at'];
    return [
      primaryKey({ name: 'custom_object_records_pkey', columns: [t.orgId, t.id] }),
      foreignKey({
        name: 'custom_object_records_definition_fk',
        columns: [t.orgId, t.definitionId],
        foreignColumns: [customObjectDefinitions.orgId, customObjectDefinitions.id],
      }).onDelete('cascade'),
      index('custom_object_records_definition_idx').on(t.orgId, t.definitionId, t.id),
      ...sortable.map((slot) => {
        const key = slot === 'created_at' ? 'createdAt' : slot === 'updated_at' ? 'updatedAt' : slot;
        return index(`custom_object_records_${slot}_idx`).on(t.orgId, t.definitionId, columns[key]!, t.id);
      }),
      ...[...slotNames('boolean'), ...slotNames('reference')].map((slot) => index(`custom_object_records_${slot}_idx`).on(t.orgId, t.definitionId, columns[slot]!)),
    ];
  },
);
