// Checks response bodies against the official JSON:API 1.0 schema (copied from
// jsonapi.org into test/fixtures/jsonapi-1.0/schema.json, unmodified).
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

const SCHEMA_FILE = new URL('../fixtures/jsonapi-1.0/schema.json', import.meta.url);

function loadResponseSchema(): Record<string, unknown> {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
  // Cadence's first documented deviation from JSON:API 1.0: resource ids are integers
  // (bigint keys sent as JSON numbers), where the spec says strings. A few resources,
  // such as `install`, keep string ids, so both are accepted. Error ids stay strings.
  const idSchema = schema.definitions?.resourceIdentificationNew?.properties?.id;
  if (idSchema?.type !== 'string') {
    throw new Error(`${SCHEMA_FILE.pathname} changed shape: the integer-id patch no longer applies`);
  }
  idSchema.type = ['string', 'integer'];
  // The second: SPEC.md's `install` resource links its `org` relationship to the org's API base
  // as `links.api`, a member JSON:API 1.0 does not define for relationship links. Only `api` is
  // added; any other unknown member is still refused.
  const relationshipLinks = schema.definitions?.relationshipLinks;
  if (relationshipLinks?.additionalProperties !== false || typeof relationshipLinks.properties !== 'object') {
    throw new Error(`${SCHEMA_FILE.pathname} changed shape: the relationship links.api patch no longer applies`);
  }
  relationshipLinks.properties.api = { $ref: '#/definitions/link' };
  // The third: SPEC.md's compliance request create answers `{data: {batch_compliance_request_id}}`,
  // primary data that is no resource object. Exactly that shape is added.
  const data = schema.definitions?.data;
  if (!Array.isArray(data?.oneOf) || data.oneOf.length !== 3) {
    throw new Error(`${SCHEMA_FILE.pathname} changed shape: the compliance request answer patch no longer applies`);
  }
  data.oneOf.push({
    type: 'object',
    required: ['batch_compliance_request_id'],
    properties: { batch_compliance_request_id: { type: 'string', format: 'uuid' } },
    additionalProperties: false,
  });
  return schema;
}

function compileResponseValidator() {
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
  // ajv-formats is CommonJS: under NodeNext its plugin function is the `default` member.
  ajvFormats.default(ajv);
  return ajv.compile(loadResponseSchema());
}

// Compiled once per test file; the validator holds no state between calls.
const validateResponseDocument = compileResponseValidator();

function describeErrors(errors: ErrorObject[]): string {
  return errors.map((error) => `  ${error.instancePath || '(document)'} ${error.message ?? ''}`).join('\n');
}

/** Throws, listing every schema violation and the document, unless `body` is a valid JSON:API 1.0 response. */
export function assertJsonApiDocument(body: unknown): void {
  if (validateResponseDocument(body)) return;
  throw new Error(`not a valid JSON:API 1.0 document:\n${describeErrors(validateResponseDocument.errors ?? [])}\n` + `document:\n${JSON.stringify(body, null, 2)}`);
}
