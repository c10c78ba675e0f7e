import { invalidQueryParameter } from '../jsonapi/index.js';
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

/** `actionParams[<name>]` values of an action request, checked against the declared names. */
export function actionParams(params: Map<string, string[]>, declared: { optionalParams: readonly string[]; requiredParams: readonly string[] }): Map<string, string> {
  const values = new Map<string, string>();
  for (const name of params.keys()) {
    const match = name.match(/^actionParams\[([A-Za-z0-9_]+)\]$/);
    if (!match) throw invalidQueryParameter(name, `${name} is not a supported query parameter on an action`);
    const param = match[1]!;
    if (!declared.optionalParams.includes(param) && !declared.requiredParams.includes(param)) {
      const known = [...declared.requiredParams, ...declared.optionalParams];
      throw invalidQueryParameter(name, `${param} is not a parameter of this action${known.length ? ` (it takes ${known.join(', ')})` : ''}`);
    }
    values.set(param, singleValue(params, name)!);
  }
  for (const param of declared.requiredParams) {
    if (!values.has(param)) throw invalidQueryParameter(`actionParams[${param}]`, `actionParams[${param}] is required`);
  }
  return values;
}
