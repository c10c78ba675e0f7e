/**
 * What the OpenAPI document is built from: a neutral description of each resource, made by the
 * generator from schema/ for standard resources and by the custom-object registry at run time
 * from an organisation's definitions, so both kinds are described by one builder.
 */
import type { JsonSchema } from '../engine/body-schema.js';
import type { ActionDescriptor, AttributeType, OperationsDescriptor, RelationshipDescriptor } from '../model/descriptor.js';

export type { JsonSchema } from '../engine/body-schema.js';

export interface OpenApiAttribute {
  readonly name: string;
  readonly type: AttributeType;
  /**
   * The value's JSON Schema as a create or update accepts it (null included when the attribute
   * is nullable), with its description and default.
   */
  readonly schema: JsonSchema;
  /** The value's JSON Schema in responses, when they render it otherwise than writes take it (epoch seconds). */
  readonly rendered?: JsonSchema;
  readonly readOnly: boolean;
  /** Taken on writes, never rendered (a password). */
  readonly writeOnly?: boolean;
  /** Given on create and never null. */
  readonly required: boolean;
  readonly filterable: boolean;
  readonly sortable: boolean;
  /** Part of filter[q] search. */
  readonly search: boolean;
}

export interface OpenApiResource {
  readonly type: string;
  /** Path under /api/v2: `prospects`, `customObjects/booking`. */
  readonly collection: string;
  /** OAuth scope stem. */
  readonly scope: string;
  readonly description: string;
  readonly attributes: readonly OpenApiAttribute[];
  readonly relationships: readonly RelationshipDescriptor[];
  readonly operations: OperationsDescriptor;
  readonly actions: readonly ActionDescriptor[];
  readonly collectionActions: readonly ActionDescriptor[];
  /** A create body for readers to copy (the generator's, from the schema's sample values); none for custom objects. */
  readonly createExample?: JsonSchema;
  /** A create that is no JSON:API create (schema `x-createBody`): what it takes and answers. */
  readonly createBody?: {
    readonly attributes: Readonly<Record<string, JsonSchema>>;
    readonly required: readonly string[];
    readonly answer: Readonly<Record<string, JsonSchema>>;
  };
}

/**
 * What query parameters need of a resource that is only reached through another (a related
 * collection, an include, a sparse fieldset): its names and flags, no value schemas. Runtime
 * descriptors have this shape, so custom objects can refer to standard resources by descriptor.
 */
export interface ResourceOutline {
  readonly type: string;
  readonly collection: string;
  readonly scope: string;
  readonly attributes: readonly Pick<OpenApiAttribute, 'name' | 'type' | 'filterable' | 'sortable' | 'search'>[];
  readonly relationships: readonly RelationshipDescriptor[];
}

/** Finds any resource the document may refer to by type: standard ones and, at run time, the org's custom objects. */
export type OutlineLookup = (type: string) => ResourceOutline | undefined;
