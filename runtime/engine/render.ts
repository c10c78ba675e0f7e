import type { AttributeDescriptor, ResourceDescriptor } from '../model/descriptor.js';
import { polymorphicTarget, relationshipAlias } from '../model/sql-text.js';

export type Row = Record<string, unknown> & { id: number };

export interface ResourceObject {
  type: string;
  id: number;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
  links: { self: string };
}

/** Where URLs in a response point: the configured public base or the request's own origin. */
export interface UrlBase {
  /** `https://api.example.com/api/v2`, no trailing slash. */
  readonly api: string;
}

/** Collection paths by type, for `links.related` of to-many relationships. */
export type CollectionPaths = ReadonlyMap<string, string>;

/** `2026-01-01T00:00:00.000Z` as `"1767225600"`; anything else (null) as it is. */
function epochSeconds(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : String(Math.floor(ms / 1000));
}

/** An attribute's value as responses show it: as stored, unless its schema names another rendering. */
function renderedValue(a: AttributeDescriptor, value: unknown): unknown {
  return a.renderedAs === 'epochSeconds' ? epochSeconds(value) : value;
}

/**
 * Renders one row as a JSON:API resource object: every public attribute (null ones too; never a
 * write-only one), to-one
 * relationships (polymorphic ones too) with `data`, link-only to-many relationships with `links.related` pointing at
 * the target collection filtered by the inverse relationship.
 */
export function renderResource(
  descriptor: ResourceDescriptor,
  row: Row,
  urls: UrlBase,
  collections: CollectionPaths,
  /** A sparse fieldset: only these attributes and relationships are rendered. */
  fieldset?: ReadonlySet<string>,
): ResourceObject {
  const attributes: Record<string, unknown> = {};
  for (const a of descriptor.attributes) {
    if (!a.writeOnly && (!fieldset || fieldset.has(a.name))) attributes[a.name] = renderedValue(a, row[a.name] ?? null);
  }
  const relationships: Record<string, unknown> = {};
  for (const rel of descriptor.relationships) {
    if (fieldset && !fieldset.has(rel.name)) continue;
    if (rel.kind === 'toOne') {
      const id = row[relationshipAlias(rel)];
      relationships[rel.name] = { data: id == null ? null : { type: rel.target, id } };
    } else if (rel.kind === 'polymorphicToOne') {
      relationships[rel.name] = { data: polymorphicTarget(rel, row) };
    } else {
      const related = `${urls.api}/${collections.get(rel.target)}?filter%5B${rel.inverse}%5D%5Bid%5D=${row.id}`;
      relationships[rel.name] = { links: { related } };
    }
  }
  return {
    type: descriptor.type,
    id: row.id,
    attributes,
    relationships,
    links: { self: `${urls.api}/${descriptor.collection}/${row.id}` },
  };
}
