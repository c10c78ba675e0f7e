import { expect } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import type { ActionDescriptor, AttributeDescriptor, ParamSchema, ResourceDescriptor, ToOneDescriptor } from '../../runtime/model/descriptor.js';
import schemaDocument from '../../generated/schema.json' with { type: 'json' };
import type { TestApi } from './api.js';

/**
 * Attributes whose values must name a record the database holds, which no schema says: a
 * favorite's target is user 1, the admin of startTestApi's org (the first user of a fresh test
 * database), so samples are valid in that org.
 */
const RECORD_REFERENCES: Readonly<Record<string, unknown>> = { 'favorite.targetType': 'user', 'favorite.targetId': 1 };
/** Attributes whose values must name something that exists (a webhook subscription), by variant. */
const NAMED_VALUES: Readonly<Record<string, readonly string[]>> = { 'webhook.resource': ['prospect', 'account'], 'webhook.action': ['created', 'updated'] };

/**
 * Attributes whose samples must obey a rule of the service: an opted-out prospect cannot be
 * enrolled in a sequence, and a step of an interval sequence (the sample sequence's type) has
 * no date.
 */
const RULED_VALUES: Readonly<Record<string, unknown>> = { 'prospect.optedOut': false, 'sequenceStep.date': null };

/** A value the schema accepts for an attribute, varied by `variant` so updates can change it. */
export function sampleValue(resourceType: string, a: AttributeDescriptor, variant: number): unknown {
  const reference = `${resourceType}.${a.name}`;
  if (Object.hasOwn(RECORD_REFERENCES, reference)) return RECORD_REFERENCES[reference];
  if (Object.hasOwn(RULED_VALUES, reference)) return RULED_VALUES[reference];
  const named = NAMED_VALUES[reference];
  if (named) return named[variant % named.length];
  const definition = (schemaDocument.definitions as Record<string, any>)[resourceType].definitions[a.name];
  if (definition.enum) return definition.enum[variant % definition.enum.length];
  const item = (type: string, format: string | undefined): unknown => {
    if (format === 'date-time') return `2026-0${1 + variant}-15T09:30:00.000Z`;
    if (format === 'date') return `2026-0${1 + variant}-15`;
    if (format === 'email') return `person${variant}@example.test`;
    if (format === 'uri') return `https://hooks.example.test/${variant}`;
    if (type === 'string') return `${a.name}-${variant}`.slice(0, definition.maxLength ?? 255);
    if (type === 'integer') return 7 + variant;
    if (type === 'number') return 1.5 + variant;
    if (type === 'boolean') return variant % 2 === 0;
    return { key: `value${variant}` };
  };
  if (a.type === 'array') return [item(definition.items.type, definition.items.format)];
  return item(a.type, a.format);
}

/** Text an action parameter's schema accepts, as it goes in a query string. */
export function sampleParamValue(schema: ParamSchema): string {
  if (schema.type === 'integer') return String(Math.max(schema.minimum ?? 1, 1));
  if (schema.type === 'boolean') return 'true';
  if (schema.format === 'date-time') return '2030-01-15T09:30:00Z';
  return schema.enum?.[0] ?? 'x';
}

/** `actionParams[<name>]=<value>` for each of an action's required parameters, joined for a query string. */
export function requiredActionParams(action: Pick<ActionDescriptor, 'requiredParams' | 'paramSchemas'>): string {
  return action.requiredParams.map((name) => `actionParams[${name}]=${encodeURIComponent(sampleParamValue(action.paramSchemas[name]!))}`).join('&');
}

export function writableAttributes(d: ResourceDescriptor): AttributeDescriptor[] {
  return d.attributes.filter((a) => !a.readOnly);
}

/** Create attributes: every writable attribute set to its sample. */
export function sampleAttributes(d: ResourceDescriptor, variant: number): Record<string, unknown> {
  return Object.fromEntries(writableAttributes(d).map((a) => [a.name, sampleValue(d.type, a, variant)]));
}

function requiredToOnes(d: ResourceDescriptor): ToOneDescriptor[] {
  return d.relationships.filter((r): r is ToOneDescriptor => r.kind === 'toOne' && r.required && r.writableOnCreate);
}

/** Creates a record of a standard `type` from samples (and whatever it requires first), and returns its id. */
export async function createSampleRecord(api: TestApi, type: string, variant = 0): Promise<number> {
  if (type === 'complianceRequest') return createComplianceRequest(api, variant);
  const d = descriptors.get(type)!;
  const relationships: Record<string, unknown> = {};
  for (const rel of requiredToOnes(d)) relationships[rel.name] = { data: { type: rel.target, id: await createSampleRecord(api, rel.target) } };
  const response = await api.request('POST', `/api/v2/${d.collection}`, {
    body: { data: { type, attributes: sampleAttributes(d, variant), relationships } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

/**
 * SPEC.md's compliance request create is no standard create: snake_case attributes, answered
 * with the batch UUID, by which the record is then found. The address matches no prospect.
 */
async function createComplianceRequest(api: TestApi, variant: number): Promise<number> {
  const [admin] = await api.sql<{ email: string }[]>`select email from users where org_id = ${api.org.orgId} and id = ${api.org.userId}`;
  const attributes = { requester_email: admin!.email, request_type: 'Delete', object_type: 'Prospect', request_object_email: `sample${variant}@nobody.example.test` };
  const response = await api.request('POST', '/api/v2/complianceRequests', { body: { data: { type: 'complianceRequest', attributes } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const found = await api.request('GET', `/api/v2/complianceRequests?filter[batchComplianceRequest]=${response.body.data.batch_compliance_request_id}`);
  return found.body.data[0].id;
}
