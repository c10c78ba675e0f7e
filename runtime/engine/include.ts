import type { Fieldsets, IncludeNode } from '../query/index.js';
import type { Transaction } from '../tenancy/index.js';
import type { CollectionPaths, ResourceObject, Row, UrlBase } from './render.js';
import { renderResource } from './render.js';
import { partitionPredicate, quoteIdent, relationshipAlias, relationshipTypeAlias, selectList } from '../model/sql-text.js';

/**
 * Loads included resources level by level: one statement per include path segment, whatever
 * the page size, each fetching every referenced id at once. A resource appears once, and never
 * when it is already primary data.
 */
export async function loadIncluded(
  tx: Transaction,
  orgId: number,
  nodes: readonly IncludeNode[],
  primary: { type: string; rows: readonly Row[] },
  render: { urls: UrlBase; collections: CollectionPaths; fields: Fieldsets; present: (type: string, row: Row) => Row },
): Promise<ResourceObject[]> {
  const seen = new Set(primary.rows.map((r) => `${primary.type}:${r.id}`));
  const included: ResourceObject[] = [];
  async function walk(level: readonly IncludeNode[], rows: readonly Row[]): Promise<void> {
    for (const node of level) {
      const { relationship } = node;
      const naming = relationship.kind === 'toOne' ? rows : rows.filter((r) => r[relationshipTypeAlias(relationship)] === node.target.type);
      const ids = [...new Set(naming.map((r) => r[relationshipAlias(relationship)]).filter((id): id is number => id != null))];
      if (ids.length === 0) continue;
      const loaded = await tx.unsafe<Row[]>(
        `select ${selectList(node.target)} from ${quoteIdent(node.target.table)} where "org_id" = $1 and "id" = any($2::bigint[])${partitionPredicate(node.target)}`,
        [orgId, ids] as never[],
        { prepare: true },
      );
      for (const row of loaded) {
        const key = `${node.target.type}:${row.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        included.push(renderResource(node.target, render.present(node.target.type, row), render.urls, render.collections, render.fields.get(node.target.type)));
      }
      await walk(node.children, loaded);
    }
  }
  await walk(nodes, primary.rows);
  return included;
}
