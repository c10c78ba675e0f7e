import { createHash, randomBytes } from 'node:crypto';

/** Tokens carry 32 random bytes; the prefix tells a leaked one apart in secret scanners. */
const TOKEN_PREFIX = 'cad_';

export function newAccessToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up only by this hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
