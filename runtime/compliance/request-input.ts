import { descriptors } from '../../generated/routes/index.js';
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
 * The create's attributes: SPEC.md's snake_case names only. The record's own attributes
 * (camelCase, all read-only) are the service's; a create naming them is refused like any write
 * of a read-only attribute.
 */
const ATTRIBUTES = [
  { name: 'requester_email', kind: 'email' },
  { name: 'request_type', kind: 'enum', values: ['Delete'] },
  { name: 'object_type', kind: 'enum', values: ['Prospect'] },
  { name: 'request_object_email', kind: 'email' },
] as const;

const CREATE_NAMES: ReadonlySet<string> = new Set(ATTRIBUTES.map((a) => a.name));

/** Addresses of no more than this length: PostgreSQL indexes and SMTP (RFC 5321) agree on 254. */
const MAX_EMAIL_LENGTH = 254;

/** One @, something either side, no spaces: what an address to search by needs, no more. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Reads `POST /api/v2/complianceRequests`' body: identity problems are 409/403 as for any
 * create, and every missing or unacceptable attribute is one 422 with its pointer.
 */
export function readComplianceRequest(body: Record<string, unknown>): ComplianceRequestInput {
  const data = body.data;
  if (!isObject(data)) throw badRequest('invalidBody', 'The body must have a "data" object', { pointer: '/data' });
  if (data.type !== undefined && data.type !== 'complianceRequest') {
    throw conflict(`data.type ${JSON.stringify(data.type)} does not match this collection's type "complianceRequest"`, { pointer: '/data/type' });
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
  for (const attribute of ATTRIBUTES) {
    const pointer = `/data/attributes/${attribute.name}`;
    const value = given[attribute.name];
    if (value === undefined || value === null || value === '') {
      problems.push({ pointer, detail: `${attribute.name} is required` });
    } else if (typeof value !== 'string') {
      problems.push({ pointer, detail: `${attribute.name} must be a string` });
    } else if (attribute.kind === 'enum' && !(attribute.values as readonly string[]).includes(value)) {
      problems.push({ pointer, detail: `${attribute.name} must be ${attribute.values.map((v) => `"${v}"`).join(' or ')}, not ${JSON.stringify(value)}` });
    } else if (attribute.kind === 'email' && (value.trim().length > MAX_EMAIL_LENGTH || !EMAIL.test(value.trim()))) {
      problems.push({ pointer, detail: `${attribute.name} must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters` });
    } else {
      values.set(attribute.name, value.trim());
    }
  }
  if (problems.length) throw validationError(problems);
  return {
    requesterEmail: values.get('requester_email')!,
    requestType: 'Delete',
    objectType: 'Prospect',
    requestObjectEmail: values.get('request_object_email')!,
  };
}

/** Members a create cannot set: the record's read-only attributes, unknown names, any relationship (the requester is found by e-mail). */
function refusedMembers(attributes: Record<string, unknown>, relationships: unknown): FieldError[] {
  const refused: FieldError[] = [];
  for (const name of Object.keys(attributes)) {
    if (CREATE_NAMES.has(name)) continue;
    const known = descriptors.get('complianceRequest')!.attributes.some((a) => a.name === name);
    refused.push({ pointer: `/data/attributes/${pointerSegment(name)}`, detail: known ? `${name} is read-only` : `"${name}" is not a known attribute` });
  }
  if (isObject(relationships)) {
    for (const name of Object.keys(relationships)) {
      refused.push({ pointer: `/data/relationships/${pointerSegment(name)}`, detail: `${name} cannot be written: the requester is the user with requester_email` });
    }
  }
  return refused;
}
