import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that are their own credential (CSV upload URLs, the mail viewer): HMAC-SHA256 over what
 * the link names, under a key derived from a deployment secret for one purpose only, so that
 * a signature made for one kind of link never holds for another, nor for a page cursor.
 */

/** The key for links of one `purpose`, derived from `secret` (the cursor secret every process shares). */
export function linkSigningKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}

function signatureOf(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** The signature of `payload`, base64url, as links carry it. */
export function linkSignature(key: Buffer, payload: string): string {
  return signatureOf(key, payload).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Whether `signature` (from a link) is the signature of `payload`; compared in constant time. */
export function linkSignatureHolds(key: Buffer, payload: string, signature: string): boolean {
  if (!BASE64URL.test(signature)) return false;
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(key, payload);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const DECIMAL = /^[1-9][0-9]{0,15}$/;

/** A positive integer as links write it (an org id, an expiry in epoch seconds); undefined for anything else. */
export function linkInteger(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
