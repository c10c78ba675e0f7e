import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidQueryParameter } from '../jsonapi/index.js';

/**
 * Opaque, tamper-evident page cursors: the keyset position (the sort values and id of a row)
 * signed with a server secret over the org, the resource type and the sort. A cursor from
 * another org, collection or sort, or edited by hand, is refused. Cursors do not expire and
 * do not depend on the token, so they survive token refreshes.
 */

export interface CursorScope {
  readonly orgId: number;
  readonly type: string;
  readonly sort: string;
}

const MAC_BYTES = 16;

function mac(secret: string, scope: CursorScope, payload: string): Buffer {
  return createHmac('sha256', secret).update(`${scope.orgId}\n${scope.type}\n${scope.sort}\n${payload}`).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(secret: string, scope: CursorScope, position: readonly unknown[]): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${mac(secret, scope, payload).toString('base64url')}`;
}

export function decodeCursor(secret: string, scope: CursorScope, parameter: string, cursor: string): unknown[] {
  const refuse = () => invalidQueryParameter(parameter, `${parameter} is not a cursor issued for this query; take cursors from links`);
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || cursor.length > 4096) throw refuse();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  if (!Array.isArray(position)) throw refuse();
  return position;
}
