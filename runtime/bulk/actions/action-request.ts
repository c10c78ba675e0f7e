import { singleValue } from '../../query/index.js';
import { badRequest, invalidQueryParameter, isObject, parseRequestBody, validationError } from '../../jsonapi/index.js';
import type { Subject } from './definitions.js';

/**
 * A bulk action request's own parameters, read and checked before anything else: SPEC.md
 * "Bulk actions" and the reference OpenAPI's `actionParams` (filter, skipConfirmation, and
 * objectName for custom objects) and body (`data.attributes`, whose `ids` narrows the selection).
 */
export interface ActionRequest {
  readonly skipConfirmation: boolean;
  /** The custom object's internal name; only custom-object actions take it, and they require it. */
  readonly objectName: string | undefined;
  /** The body's attributes without `ids`: the action's own parameters. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The body's `ids`, when given: only these records, of those the filter selects. */
  readonly ids: readonly number[] | undefined;
}

const MAX_IDS = 100_000;

/** Refuses a query parameter the action does not take: 400 naming it (SPEC.md rule 2 of the generic pattern). */
function checkParamNames(params: ReadonlyMap<string, readonly string[]>, subject: Subject): void {
  const accepted = ['actionParams[skipConfirmation]', ...(subject === 'customObject' ? ['actionParams[objectName]'] : [])];
  for (const name of params.keys()) {
    if (name.startsWith('actionParams[filter][')) continue;
    if (!accepted.includes(name)) {
      const takes = [...accepted, 'actionParams[filter][...]'].join(', ');
      throw invalidQueryParameter(name, `${name} is not a parameter of this bulk action (it takes ${takes})`);
    }
  }
}

function skipConfirmationOf(params: Map<string, string[]>): boolean {
  const text = singleValue(params, 'actionParams[skipConfirmation]');
  if (text === undefined) return false;
  if (text !== 'true' && text !== 'false') throw invalidQueryParameter('actionParams[skipConfirmation]', 'actionParams[skipConfirmation] must be true or false');
  return text === 'true';
}

function objectNameOf(params: Map<string, string[]>, subject: Subject): string | undefined {
  if (subject !== 'customObject') return undefined;
  const name = singleValue(params, 'actionParams[objectName]');
  if (name === undefined || name === '')
    throw invalidQueryParameter('actionParams[objectName]', 'actionParams[objectName] is required: the internal name of the custom object');
  return name;
}

/** The body's attributes; an empty or absent body is none (delete actions take no body). */
function attributesOf(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const body = parseRequestBody(text);
  if (body.data === undefined || body.data === null) return {};
  if (!isObject(body.data)) throw badRequest('invalidBody', 'data must be an object', { pointer: '/data' });
  const attributes = body.data.attributes;
  if (attributes === undefined || attributes === null) return {};
  if (!isObject(attributes)) throw validationError([{ pointer: '/data/attributes', detail: 'attributes must be an object' }]);
  return attributes;
}

function idsOf(value: unknown): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  const refuse = (): never => {
    throw validationError([{ pointer: '/data/attributes/ids', detail: `ids must be a list of at most ${MAX_IDS} record ids (integers or their decimal strings)` }]);
  };
  if (!Array.isArray(value) || value.length > MAX_IDS) return refuse();
  return value.map((id) => {
    const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : refuse();
  });
}

export function readActionRequest(subject: Subject, params: Map<string, string[]>, bodyText: string): ActionRequest {
  checkParamNames(params, subject);
  const skipConfirmation = skipConfirmationOf(params);
  const objectName = objectNameOf(params, subject);
  const { ids, ...attributes } = attributesOf(bodyText);
  return { skipConfirmation, objectName, attributes, ids: idsOf(ids) };
}
