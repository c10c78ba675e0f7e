import { badRequest, invalidQueryParameter } from '../jsonapi/index.js';

/**
 * Query parameters of the engine's endpoints. Each endpoint declares what it accepts; anything
 * else is a 400 naming the parameter, so a client never gets silently ignored input.
 */

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** Every parameter of a request, repeated ones as several values. */
export function queryParams(url: string): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const [name, value] of new URL(url).searchParams) {
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

/**
 * The single value of a parameter. A repeated parameter is accepted when every copy says the
 * same (clients re-send parameters when following links), refused when they disagree.
 */
export function singleValue(params: Map<string, string[]>, name: string): string | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  if (new Set(values).size > 1) throw invalidQueryParameter(name, `${name} is given more than once with different values`);
  return values[0];
}

export function rejectUnknownParams(params: Map<string, string[]>, accepted: (name: string) => boolean, what: string): void {
  for (const name of params.keys()) {
    if (!accepted(name)) throw invalidQueryParameter(name, `${name} is not a supported query parameter ${what}`);
  }
}

export interface PageRequest {
  readonly size: number;
  readonly after?: number;
  readonly before?: number;
}

const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ id })).toString('base64url');
}

function decodeCursor(name: string, value: string): number {
  if (CURSOR_PATTERN.test(value)) {
    try {
      const decoded = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { id?: unknown };
      if (Number.isSafeInteger(decoded.id) && (decoded.id as number) >= 0) return decoded.id as number;
    } catch {
      // Falls through to the 400 below.
    }
  }
  throw invalidQueryParameter(name, `${name} is not a cursor this service issued; take cursors from links`);
}

export function pageRequest(params: Map<string, string[]>): PageRequest {
  const sizeText = singleValue(params, 'page[size]');
  let size = DEFAULT_PAGE_SIZE;
  if (sizeText !== undefined) {
    if (!/^[0-9]{1,7}$/.test(sizeText) || Number(sizeText) < 1 || Number(sizeText) > MAX_PAGE_SIZE) {
      throw invalidQueryParameter('page[size]', `page[size] must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    size = Number(sizeText);
  }
  const afterText = singleValue(params, 'page[after]');
  const beforeText = singleValue(params, 'page[before]');
  if (afterText !== undefined && beforeText !== undefined) {
    throw badRequest('invalidQueryParameter', 'page[after] and page[before] cannot be combined', { parameter: 'page[before]' });
  }
  return {
    size,
    ...(afterText !== undefined && { after: decodeCursor('page[after]', afterText) }),
    ...(beforeText !== undefined && { before: decodeCursor('page[before]', beforeText) }),
  };
}

/** `actionParams[<name>]` values of an action request, checked against the declared names. */
export function actionParams(
  params: Map<string, string[]>,
  declared: { optionalParams: readonly string[]; requiredParams: readonly string[] },
): Map<string, string> {
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
