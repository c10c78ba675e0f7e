import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { invalidQueryParameter } from '../jsonapi/index.js';

/**
 * Opaque, tamper-proof page cursors: the keyset position (the sort values and id of a row)
 * encrypted and authenticated with AES-256-GCM under a key derived from the server's cursor
 * secret, with the org, the resource type and the sort as associated data. A cursor reveals
 * nothing of the records (a name or an e-mail address would otherwise travel in URLs, proxies
 * and logs), and one from another org, collection or sort, or edited by hand, is refused.
 * Cursors do not expire and do not depend on the token, so they survive token refreshes.
 */

export interface CursorScope {
  readonly orgId: number;
  readonly type: string;
  readonly sort: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A cursor longer than this is no cursor of ours: sort values are bounded, and so is a URL. */
const MAX_CURSOR_CHARS = 4096;

/** The encryption key, derived so that the cursor secret itself never keys a cipher. */
function cursorKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('cadence page cursor encryption v1').digest();
}

function associatedData(scope: CursorScope): Buffer {
  return Buffer.from(`${scope.orgId}\n${scope.type}\n${scope.sort}`);
}

export function encodeCursor(secret: string, scope: CursorScope, position: readonly unknown[]): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', cursorKey(secret), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(scope));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(position), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

export function decodeCursor(secret: string, scope: CursorScope, parameter: string, cursor: string): unknown[] {
  const refuse = () => invalidQueryParameter(parameter, `${parameter} is not a cursor issued for this query; take cursors from links`);
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw refuse();
  const decipher = createDecipheriv('aes-256-gcm', cursorKey(secret), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(scope));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  let position: unknown;
  try {
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    position = JSON.parse(plain.toString('utf8'));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(position)) throw refuse();
  return position;
}
