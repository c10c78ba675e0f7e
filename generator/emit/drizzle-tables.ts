import { byCodePoint } from '../compare.js';
import type { AttributeModel, ResourceModel, SchemaModel, ToOneModel } from '../model.js';
import { snakeCase } from '../naming.js';
import { generatedHeader } from './header.js';

/**
 * One Drizzle table per resource. Every table leads with org_id: the primary key is
 * (org_id, id), foreign keys are (org_id, <rel>_id) -> (org_id, id) so a record can only
 * point at records of its own org, and every btree index starts with org_id. That keeps the
 * schema distributable by org_id (Citus) and lets drizzle-kit derive the migrations.
 */

interface ColumnCode {
  readonly builder: string;
  readonly code: string;
}

function columnCode(name: string, column: string, a: AttributeModel): ColumnCode {
  const timestamp = (col: string) => `timestamp('${col}', { withTimezone: true, precision: 3, mode: 'string' })`;
  const scalar = (type: string, format: string | undefined, col: string): ColumnCode => {
    if (type === 'string' && format === 'date-time') return { builder: 'timestamp', code: timestamp(col) };
    if (type === 'string' && format === 'date') return { builder: 'date', code: `date('${col}', { mode: 'string' })` };
    if (type === 'string') return { builder: 'text', code: `text('${col}')` };
    if (type === 'integer') return { builder: 'integer', code: `integer('${col}')` };
    if (type === 'number') return { builder: 'doublePrecision', code: `doublePrecision('${col}')` };
    if (type === 'boolean') return { builder: 'boolean', code: `boolean('${col}')` };
    return { builder: 'jsonb', code: `jsonb('${col}')` };
  };
  let result: ColumnCode;
  if (a.type === 'array') {
    result = a.items!.type === 'object' ? scalar('object', undefined, column) : scalar(a.items!.type, a.items!.format, column);
    if (a.items!.type !== 'object') result = { builder: result.builder, code: `${result.code}.array()` };
  } else {
    result = scalar(a.type, a.format, column);
  }
  let code = `${name}: ${result.code}`;
  if (a.required || isTimestampMaintained(a)) code += '.notNull()';
  if (isTimestampMaintained(a)) code += '.defaultNow()';
  else if (a.default !== undefined) code += `.default(${JSON.stringify(a.default)})`;
  return { builder: result.builder, code };
}

/** createdAt and updatedAt are set by the database on insert and by the engine on update. */
function isTimestampMaintained(a: AttributeModel): boolean {
  return a.name === 'createdAt' || a.name === 'updatedAt';
}

function toOnes(resource: ResourceModel): ToOneModel[] {
  return resource.relationships.filter((r): r is ToOneModel => r.kind === 'toOne');
}

function tableVariable(resource: ResourceModel): string {
  return resource.collection;
}

function indexesOf(resource: ResourceModel): string[] {
  const t = resource.table;
  const lines: string[] = [];
  for (const a of resource.attributes) {
    if (a.relationshipId !== undefined) continue;
    // Sortable columns get id appended so a keyset page on (column, id) is one index range.
    if (a.sortable) lines.push(`index('${t}_${a.column}_idx').on(t.orgId, t.${a.name}, t.id)`);
    else if (a.filterable && a.type !== 'array' && a.type !== 'object') {
      lines.push(`index('${t}_${a.column}_idx').on(t.orgId, t.${a.name})`);
    }
  }
  for (const a of resource.attributes) {
    // filter[q] matches lower(column) by prefix: text_pattern_ops makes LIKE 'x%' use the index.
    if (a.search) lines.push(`index('${t}_${a.column}_search_idx').on(t.orgId, sql\`lower(\${t.${a.name}}) text_pattern_ops\`)`);
  }
  for (const a of resource.attributes) {
    if (a.importKey === undefined) continue;
    const name = `${t}_${a.column}_import_key_idx`;
    // A GIN index over the lower-cased elements serves `lower_text_array(col) && $keys`; an
    // array has no scalar to lead with, so unlike every other index it does not start with org_id.
    if (a.type === 'array') lines.push(`index('${name}').using('gin', sql\`cadence_system.lower_text_array(\${t.${a.name}})\`)`);
    // The search index on lower(col) text_pattern_ops serves equality as well.
    else if (!a.search) lines.push(`index('${name}').on(t.orgId, sql\`lower(\${t.${a.name}})\`)`);
  }
  for (const r of toOnes(resource)) lines.push(`index('${t}_${r.column}_idx').on(t.orgId, t.${r.name}Id, t.id)`);
  return lines.sort(byCodePoint);
}

/** Whether indexesOf writes a sql`` expression, so the table's file must import sql. */
function usesSql(resource: ResourceModel): boolean {
  return resource.attributes.some((a) => a.search || a.importKey !== undefined);
}

export function emitTable(resource: ResourceModel, model: SchemaModel): string {
  const builders = new Set(['bigint', 'foreignKey', 'index', 'pgTable', 'primaryKey']);
  const columns = [`orgId: bigint('org_id', { mode: 'number' }).notNull().references(() => orgs.id)`, `id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity()`];
  for (const a of resource.attributes) {
    if (a.relationshipId !== undefined) continue;
    const column = columnCode(a.name, a.column, a);
    builders.add(column.builder);
    columns.push(column.code);
  }
  for (const r of toOnes(resource)) columns.push(`${r.name}Id: bigint('${r.column}', { mode: 'number' })`);

  const targets = new Map(model.resources.map((r) => [r.type, r]));
  const imports = new Set<string>();
  const constraints = [`primaryKey({ name: '${resource.table}_pkey', columns: [t.orgId, t.id] })`];
  for (const r of toOnes(resource)) {
    const target = targets.get(r.target)!;
    // A table refers to itself through the callback's own columns: its variable is not yet defined.
    const targetVar = target.type === resource.type ? 't' : tableVariable(target);
    if (target.type !== resource.type) imports.add(`import { ${targetVar} } from './${target.type}.js';`);
    constraints.push(
      `foreignKey({ name: '${resource.table}_${snakeCase(r.name)}_fk', columns: [t.orgId, t.${r.name}Id], foreignColumns: [${targetVar}.orgId, ${targetVar}.id] })`,
    );
  }
  constraints.push(...indexesOf(resource));

  return [
    generatedHeader(resource.file),
    `import { ${[...builders].sort(byCodePoint).join(', ')}, type PgTableExtraConfigValue } from 'drizzle-orm/pg-core';`,
    ...(usesSql(resource) ? [`import { sql } from 'drizzle-orm';`] : []),
    `import { orgs } from '../../runtime/db/system-tables.js';`,
    ...[...imports].sort(byCodePoint),
    '',
    `export const ${tableVariable(resource)} = pgTable(`,
    `  '${resource.table}',`,
    `  { ${columns.join(',\n')} },`,
    // The annotated return type lets TypeScript type tables that refer to each other in a cycle.
    `  (t): PgTableExtraConfigValue[] => [${constraints.join(',\n')}],`,
    `);`,
    '',
  ].join('\n');
}

export function emitTablesIndex(model: SchemaModel): string {
  return [generatedHeader('schema/'), ...model.resources.map((r) => `export { ${tableVariable(r)} } from './${r.type}.js';`), ''].join('\n');
}
