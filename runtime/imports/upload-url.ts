import { linkInteger, linkSignature, linkSignatureHolds, linkSigningKey } from '../http/signed-links.js';

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
  return linkSigningKey(cursorSecret, 'cadence upload urls');
}

function payloadOf(parts: UploadUrlParts): string {
  return `${parts.orgId}.${parts.storageKey}.${parts.expires}`;
}

/** `<base>/uploads/<storageKey>?org=…&expires=…&signature=…`. */
export function signUploadUrl(key: Buffer, base: string, parts: UploadUrlParts): string {
  const query = new URLSearchParams({ org: String(parts.orgId), expires: String(parts.expires), signature: linkSignature(key, payloadOf(parts)) });
  return `${base}/uploads/${parts.storageKey}?${query.toString()}`;
}

/** The URL's org and expiry when its signature holds; undefined for anything forged, altered or malformed. */
export function verifyUploadUrl(key: Buffer, storageKey: string, query: URLSearchParams): UploadUrlParts | undefined {
  const orgId = linkInteger(query.get('org'));
  const expires = linkInteger(query.get('expires'));
  if (orgId === undefined || expires === undefined) return undefined;
  const parts = { orgId, storageKey, expires };
  return linkSignatureHolds(key, payloadOf(parts), query.get('signature') ?? '') ? parts : undefined;
}
