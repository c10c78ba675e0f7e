/**
 * The JSON Schema of a create or update request body, from a neutral description of what may be
 * written. One builder for both kinds of resources: the generator compiles it ahead of time for
 * standard resources, the custom-object registry at run time from definitions.
 */

export type JsonSchema = Record<string, unknown>;

export interface WritableShape {
  readonly operation: 'create' | 'update';
  /** Value schemas of the writable attributes, and whether create requires them. */
  readonly attributes: readonly { readonly name: string; readonly schema: JsonSchema; readonly required: boolean }[];
  /** Writable to-one relationships; a polymorphic one names several targets. */
  readonly relationships: readonly { readonly name: string; readonly target: string | readonly string[]; readonly required: boolean }[];
}

/** Ids in bodies: integers, or numeric strings (rendered back as integers). */
export const ID_SCHEMA: JsonSchema = {
  anyOf: [
    { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { type: 'string', pattern: '^[1-9][0-9]{0,14}$' },
  ],
};

/**
 * The identifier of a polymorphic to-one takes any type here: the engine refuses a type that is
 * not a target with one error at the identifier, naming the targets (runtime/engine/write-input.ts).
 */
function toOneSchema(target: string | readonly string[], required: boolean): JsonSchema {
  const identifier = {
    type: 'object',
    required: ['type', 'id'],
    additionalProperties: false,
    properties: { type: typeof target === 'string' ? { const: target } : { type: 'string' }, id: ID_SCHEMA, meta: { type: 'object' } },
  };
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data: required ? identifier : { anyOf: [{ type: 'null' }, identifier] }, meta: { type: 'object' } },
  };
}

export function writeBodySchema(shape: WritableShape): JsonSchema {
  const creating = shape.operation === 'create';
  const requiredAttributes = creating ? shape.attributes.filter((a) => a.required).map((a) => a.name) : [];
  const requiredRelationships = creating ? shape.relationships.filter((r) => r.required).map((r) => r.name) : [];
  const data: JsonSchema = {
    type: 'object',
    required: ['type', ...(creating ? [] : ['id']), ...(requiredAttributes.length ? ['attributes'] : []), ...(requiredRelationships.length ? ['relationships'] : [])],
    additionalProperties: false,
    properties: {
      type: { type: 'string' },
      id: creating ? {} : ID_SCHEMA,
      attributes: {
        type: 'object',
        required: requiredAttributes,
        additionalProperties: false,
        properties: Object.fromEntries(shape.attributes.map((a) => [a.name, a.schema])),
      },
      relationships: {
        type: 'object',
        required: requiredRelationships,
        additionalProperties: false,
        properties: Object.fromEntries(shape.relationships.map((r) => [r.name, toOneSchema(r.target, r.required)])),
      },
      meta: { type: 'object' },
      links: { type: 'object' },
    },
  };
  return { type: 'object', required: ['data'], properties: { data } };
}
