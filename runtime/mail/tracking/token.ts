import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/**
 * Tracking tokens: what a pixel, click or unsubscribe URL names, signed so that checking one
 * needs no database. A token is base64url of a small binary payload followed by a 16-byte
 * HMAC-SHA-256 tag of it (truncated to half the hash, as RFC 2104 allows: forging one is a
 * 2^128 guess). The payload: a version byte, a kind byte, the org id and mailing id as
 * unsigned LEB128 varints and, for clicks, the target URL's UTF-8 bytes to the end.
 */

export type TrackingKind = 'open' | 'click' | 'unsubscribe';

export interface TrackingClaim {
  readonly kind: TrackingKind;
  readonly orgId: number;
  readonly mailingId: number;
  /** The link's target, for clicks only: an absolute http or https URL. */
  readonly url?: string;
}

export interface TrackingSigner {
  /** The token of a claim; throws on a click whose target is not an absolute http(s) URL. */
  sign(claim: TrackingClaim): string;
  /** The claim a token carries when its tag is right and it is well formed; otherwise undefined. */
  verify(token: string): TrackingClaim | undefined;
}

const VERSION = 1;
const TAG_BYTES = 16;
const KIND_CODES: Readonly<Record<TrackingKind, number>> = { open: 1, click: 2, unsubscribe: 3 };
const KINDS_BY_CODE = new Map<number, TrackingKind>(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as TrackingKind]));
/** A URL longer than this is not worth a tracked link (browsers and mail clients choke first). */
const MAX_URL_BYTES = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Whether `url` may be a click's target: absolute http or https, nothing else (no javascript:, data:). */
export function isTrackableUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return (protocol === 'http:' || protocol === 'https:') && Buffer.byteLength(url) <= MAX_URL_BYTES;
}

export function createTrackingSigner(secret: string): TrackingSigner {
  if (secret.length < 32) throw new Error('the tracking secret must be at least 32 characters');
  // The key made once: a worker signs a few tokens for every message it sends.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const tagOf = (payload: Buffer) => createHmac('sha256', key).update(payload).digest().subarray(0, TAG_BYTES);
  return {
    sign(claim) {
      if ((claim.kind === 'click') !== (claim.url !== undefined)) throw new Error('a click, and only a click, carries a URL');
      if (claim.url !== undefined && !isTrackableUrl(claim.url)) throw new Error('a tracked link must be an absolute http or https URL');
      const payload = encodePayload(claim);
      return Buffer.concat([payload, tagOf(payload)]).toString('base64url');
    },
    verify(token) {
      if (!BASE64URL.test(token) || token.length > 2 * MAX_URL_BYTES) return undefined;
      const bytes = Buffer.from(token, 'base64url');
      // Base64url has several spellings of the same bytes (the last character's spare bits):
      // only the one sign() writes is accepted, so a token has exactly one valid form.
      if (bytes.length <= TAG_BYTES || bytes.toString('base64url') !== token) return undefined;
      const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
      if (!timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), tagOf(payload))) return undefined;
      return decodePayload(payload);
    },
  };
}

function encodePayload(claim: TrackingClaim): Buffer {
  const parts = [Buffer.from([VERSION, KIND_CODES[claim.kind]]), varint(claim.orgId), varint(claim.mailingId)];
  if (claim.url !== undefined) parts.push(Buffer.from(claim.url, 'utf8'));
  return Buffer.concat(parts);
}

/** Signed payloads are ours, but they are still read strictly: a bad one is no claim. */
function decodePayload(payload: Buffer): TrackingClaim | undefined {
  if (payload[0] !== VERSION) return undefined;
  const kind = KINDS_BY_CODE.get(payload[1] ?? 0);
  const org = readVarint(payload, 2);
  const mailing = org && readVarint(payload, org.next);
  if (!kind || !org || !mailing) return undefined;
  const rest = payload.subarray(mailing.next);
  if (kind !== 'click') return rest.length === 0 ? { kind, orgId: org.value, mailingId: mailing.value } : undefined;
  const url = rest.toString('utf8');
  return isTrackableUrl(url) ? { kind, orgId: org.value, mailingId: mailing.value, url } : undefined;
}

function varint(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`tracking ids are positive integers, not ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function readVarint(bytes: Buffer, start: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  // Eight bytes of seven bits hold every safe integer; more is no id of ours.
  for (let i = start; i < bytes.length && i < start + 8; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
    if ((byte & 0x80) === 0) return Number.isSafeInteger(value) && value >= 1 ? { value, next: i + 1 } : undefined;
  }
  return undefined;
}
