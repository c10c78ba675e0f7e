import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Presigned upload URLs (SPEC.md "CSV import" step 2): the URL itself is the credential. It
 * names the org, the storage key and an expiry, signed with HMAC-SHA256 under a key derived
 * from the server's cursor secret, which every API process shares through the database. A
 * forged or altered URL is refused without a database lookup.
 */

/** A storage key as generateUploadLink makes it (a UUID), in any case. */
export const STORAGE_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long an upload link can be used. */
export const UPLOAD_LINK_LIFETIME_MS = 60 * 60 * 1000;

export interface UploadUrlParts {
  readonly orgId: number;
  readonly storageKey: string;
  /** Epoch seconds. */
  readonly expires: number;
}

/** The key upload URLs are signed with: its own, so a signature never doubles as a cursor's. */
export function uploadSigningKey(cursorSecret: string): Buffer {
  return createHmac('sha256', cursorSecret).update('cadence upload urls').digest();
}

function signatureOf(key: Buffer, parts: UploadUrlParts): Buffer {
  return createHmac('sha256', key).update(`${parts.orgId}.${parts.storageKey}.${parts.expires}`).digest();
}

/** `<base>/uploads/<storageKey>?org=…&expires=…&signature=…`. */
export function signUploadUrl(key: Buffer, base: string, parts: UploadUrlParts): string {
  const query = new URLSearchParams({ org: String(parts.orgId), expires: String(parts.expires), signature: signatureOf(key, parts).toString('base64url') });
  return `${base}/uploads/${parts.storageKey}?${query.toString()}`;
}

const DECIMAL = /^[1-9][0-9]{0,15}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The URL's org and expiry when its signature holds; undefined for anything forged, altered or malformed. */
export function verifyUploadUrl(key: Buffer, storageKey: string, query: URLSearchParams): UploadUrlParts | undefined {
  const org = query.get('org') ?? '';
  const expires = query.get('expires') ?? '';
  const signature = query.get('signature') ?? '';
  if (!DECIMAL.test(org) || !DECIMAL.test(expires) || !BASE64URL.test(signature)) return undefined;
  const parts = { orgId: Number(org), storageKey, expires: Number(expires) };
  if (!Number.isSafeInteger(parts.orgId) || !Number.isSafeInteger(parts.expires)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(key, parts);
  return given.length === expected.length && timingSafeEqual(given, expected) ? parts : undefined;
}
