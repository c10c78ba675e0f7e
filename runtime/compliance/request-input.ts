import { descriptors } from '../../generated/resources/index.js';
import { badRequest, conflict, forbidden, isObject, pointerSegment, validationError, type FieldError } from '../jsonapi/index.js';

/** A deletion request as SPEC.md's create names it (snake_case attributes, all required). */
export interface ComplianceRequestInput {
  readonly requesterEmail: string;
  readonly requestType: 'Delete';
  readonly objectType: 'Prospect';
  /** Trimmed; matched case-insensitively wherever it is looked for. */
  readonly requestObjectEmail: string;
}

/**
 * The create's attributes, as schema/complianceRequest.json's `x-createBody` declares them
 * (SPEC.md's snake_case names; the record's own camelCase attributes are all read-only). Each is
 * a string, checked for what its schema says: `enum`, `format: email`, `maxLength`.
 */
const descriptor = descriptors.get('complianceRequest')!;
const createBody = descriptor.createBody!;

interface StringSchema {
  readonly enum?: readonly string[];
  readonly format?: string;
  readonly maxLength?: number;
}

/** One @, something either side, no spaces: what an address to search by needs, no more. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Reads `POST /api/v2/complianceRequests`' body: identity problems are 409/403 as for any
 * create; members a create cannot set, then every missing or unacceptable attribute, are one
 * 422 each with its pointer.
 */
export function readComplianceRequest(body: Record<string, unknown>): ComplianceRequestInput {
  const data = body.data;
  if (!isObject(data)) throw badRequest('invalidBody', 'The body must have a "data" object', { pointer: '/data' });
  if (data.type !== undefined && data.type !== descriptor.type) {
    throw conflict(`data.type ${JSON.stringify(data.type)} does not match this collection's type "${descriptor.type}"`, { pointer: '/data/type' });
  }
  if (data.id !== undefined) throw forbidden('clientGeneratedId', 'Ids are assigned by the service; remove data.id from the create request', { pointer: '/data/id' });
  if (data.attributes !== undefined && !isObject(data.attributes)) {
    throw validationError([{ pointer: '/data/attributes', detail: 'attributes must be an object' }]);
  }
  const given = data.attributes ?? {};
  const refused = refusedMembers(given, data.relationships);
  if (refused.length) throw validationError(refused);
  const problems: FieldError[] = [];
  const values = new Map<string, string>();
  for (const [name, schema] of Object.entries(createBody.attributes) as [string, StringSchema][]) {
    const problem = problemOf(name, given[name], schema, createBody.required.includes(name));
    if (problem) problems.push({ pointer: `/data/attributes/${name}`, detail: problem });
    else if (typeof given[name] === 'string') values.set(name, given[name].trim());
  }
  if (problems.length) throw validationError(problems);
  return {
    requesterEmail: values.get('requester_email')!,
    requestType: 'Delete',
    objectType: 'Prospect',
    requestObjectEmail: values.get('request_object_email')!,
  };
}

/** What is wrong with one attribute's value, if anything. */
function problemOf(name: string, value: unknown, schema: StringSchema, required: boolean): string | undefined {
  if (value === undefined || value === null || value === '') return required ? `${name} is required` : undefined;
  if (typeof value !== 'string') return `${name} must be a string`;
  if (schema.enum && !schema.enum.includes(value)) return `${name} must be ${schema.enum.map((v) => `"${v}"`).join(' or ')}, not ${JSON.stringify(value)}`;
  const text = value.trim();
  if (schema.format === 'email' && !EMAIL.test(text)) return `${name} must be an e-mail address`;
  if (schema.maxLength !== undefined && text.length > schema.maxLength) return `${name} must be at most ${schema.maxLength} characters`;
  return undefined;
}

/** Members a create cannot set: the record's read-only attributes, unknown names, any relationship (the requester is found by e-mail). */
function refusedMembers(attributes: Record<string, unknown>, relationships: unknown): FieldError[] {
  const refused: FieldError[] = [];
  for (const name of Object.keys(attributes)) {
    if (Object.hasOwn(createBody.attributes, name)) continue;
    const known = descriptor.attributes.some((a) => a.name === name);
    refused.push({ pointer: `/data/attributes/${pointerSegment(name)}`, detail: known ? `${name} is read-only` : `"${name}" is not a known attribute` });
  }
  if (isObject(relationships)) {
    for (const name of Object.keys(relationships)) {
      refused.push({ pointer: `/data/relationships/${pointerSegment(name)}`, detail: `${name} cannot be written: the requester is the user with requester_email` });
    }
  }
  return refused;
}
