import type { JsonSchema } from '../../runtime/openapi/index.js';
import type { AttributeFormat, AttributeModel, ResourceModel, ScalarType } from '../model.js';

/**
 * The example create body of a resource in the OpenAPI document: what a reader copies to make a
 * first record. It names the attributes a create must give and those the schema gives sample
 * values for (`examples`), and each required relationship, pointing at record 1.
 */

/**
 * Dates have no sample: generated files hold no date (a test keeps build dates out), and the
 * schema beside the example gives the format.
 */
const FORMAT_SAMPLES: Readonly<Record<AttributeFormat, unknown>> = {
  'date-time': undefined,
  date: undefined,
  email: 'ada@example.com',
  uri: 'https://example.com/',
  html: '<p>Hello</p>',
};

/** A value of the type when the schema offers none: the attribute's name for text, so the example reads. */
function typeSample(type: ScalarType, name: string, minimum: number | undefined): unknown {
  if (type === 'string') return name;
  if (type === 'integer' || type === 'number') return minimum ?? 1;
  if (type === 'boolean') return false;
  return {};
}

function sampleOf(a: AttributeModel): unknown {
  if (a.examples !== undefined) return a.examples[0];
  if (a.default !== undefined && a.default !== null) return a.default;
  if (a.enum !== undefined) return a.enum[0];
  if (a.type === 'array') {
    const item = a.items!;
    const sample = item.format !== undefined ? FORMAT_SAMPLES[item.format] : typeSample(item.type, a.name, undefined);
    return sample === undefined ? undefined : [sample];
  }
  if (a.format !== undefined) return FORMAT_SAMPLES[a.format];
  return typeSample(a.type, a.name, a.minimum);
}

/** Undefined for a resource that cannot be created through JSON:API. */
export function createExampleOf(resource: ResourceModel): JsonSchema | undefined {
  if (!resource.operations.create || resource.createBody) return undefined;
  const attributes = resource.attributes
    .filter((a) => !a.readOnly && (a.required || a.examples !== undefined))
    .map((a): [string, unknown] => [a.name, sampleOf(a)])
    .filter(([, sample]) => sample !== undefined);
  const relationships = resource.relationships.flatMap((r): [string, unknown][] => {
    if (r.kind === 'toMany' || !r.required || !r.writableOnCreate) return [];
    const target = r.kind === 'toOne' ? r.target : r.targets[0]!;
    return [[r.name, { data: { type: target, id: 1 } }]];
  });
  return {
    data: {
      type: resource.type,
      attributes: Object.fromEntries(attributes),
      ...(relationships.length > 0 && { relationships: Object.fromEntries(relationships) }),
    },
  };
}
