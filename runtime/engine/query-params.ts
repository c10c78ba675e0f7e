import { invalidQueryParameter } from '../jsonapi/index.js';
import type { ParamSchema } from '../model/descriptor.js';
import { parseTimestamp } from '../model/timestamps.js';
import { singleValue } from '../query/index.js';

/**
 * Query parameters of the engine's endpoints. Each endpoint declares what it accepts; anything
 * else is a 400 naming the parameter, so a client never gets silently ignored input.
 */

/** Every parameter of a request, repeated ones as several values. */
export function queryParams(url: string): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const [name, value] of new URL(url).searchParams) {
    // PostgreSQL text cannot hold NUL; refusing it here keeps every later use safe.
    if (name.includes('\u0000') || value.includes('\u0000')) {
      // eslint-disable-next-line no-control-regex -- NUL is exactly what is removed from the name shown
      throw invalidQueryParameter(name.replace(/\u0000/g, ''), 'Query parameters must not contain the NUL character');
    }
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

export function rejectUnknownParams(params: Map<string, string[]>, accepted: (name: string) => boolean, what: string): void {
  for (const name of params.keys()) {
    if (!accepted(name)) throw invalidQueryParameter(name, `${name} is not a supported query parameter ${what}`);
  }
}

/** What an action declares of its parameters: names, and the schema of each value where it gives one. */
export interface DeclaredParams {
  readonly optionalParams: readonly string[];
  readonly requiredParams: readonly string[];
  readonly paramSchemas?: Readonly<Record<string, ParamSchema>>;
}

/**
 * `actionParams[<name>]` values of an action request, checked against the declared names and
 * each against its schema: handlers get text they can trust (a date-time that exists, an
 * integer in digits), and a value that does not fit is a 400 naming the parameter.
 */
export function actionParams(params: Map<string, string[]>, declared: DeclaredParams): Map<string, string> {
  const values = new Map<string, string>();
  for (const name of params.keys()) {
    const match = name.match(/^actionParams\[([A-Za-z0-9_]+)\]$/);
    if (!match) throw invalidQueryParameter(name, `${name} is not a supported query parameter on an action`);
    const param = match[1]!;
    if (!declared.optionalParams.includes(param) && !declared.requiredParams.includes(param)) {
      const known = [...declared.requiredParams, ...declared.optionalParams];
      throw invalidQueryParameter(name, `${param} is not a parameter of this action${known.length ? ` (it takes ${known.join(', ')})` : ''}`);
    }
    const value = singleValue(params, name)!;
    const schema = declared.paramSchemas?.[param];
    const expected = schema && valueProblem(schema, value, name);
    if (expected) throw invalidQueryParameter(name, `${name} must be ${expected}`);
    values.set(param, value);
  }
  for (const param of declared.requiredParams) {
    if (!values.has(param)) throw invalidQueryParameter(`actionParams[${param}]`, `actionParams[${param}] is required`);
  }
  return values;
}

/** Integers in decimal digits, no sign and no leading zero, as ids are written. */
const DIGITS = /^(0|[1-9][0-9]*)$/;

/** What `text` should have been, when it does not fit `schema`; undefined when it does. */
function valueProblem(schema: ParamSchema, text: string, name: string): string | undefined {
  switch (schema.type) {
    case 'boolean':
      return text === 'true' || text === 'false' ? undefined : 'true or false';
    case 'integer': {
      const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
      const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
      const fits = DIGITS.test(text) && Number(text) >= min && Number(text) <= max;
      return fits ? undefined : `an integer in digits from ${Math.max(min, 0)} to ${max}`;
    }
    case 'object':
      // Deep objects (a bulk action's filter) are read by the module serving the action, by their parts.
      return `given by its parts, as ${name}[<key>]`;
    case 'string':
      if (schema.format === 'date-time' && !parseTimestamp(text)) return 'an ISO 8601 timestamp with a time zone that exists, such as 2025-01-31T09:00:00Z';
      if (schema.enum && !schema.enum.includes(text)) return `one of ${schema.enum.join(', ')}`;
      if (schema.maxLength !== undefined && [...text].length > schema.maxLength) return `at most ${schema.maxLength} characters long`;
      return undefined;
  }
}
