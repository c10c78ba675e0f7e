import { randomBytes } from 'node:crypto';
import { parseId } from '../jsonapi/index.js';

/**
 * A cleanup token names its org (`whc_<orgId>_<random>`), so the cleanup endpoint can find the
 * webhook inside that org's rows, through row-level security like every other request.
 */
export function newCleanupToken(orgId: number): string {
  return `whc_${orgId}_${randomBytes(24).toString('base64url')}`;
}

/** The org a cleanup token names, or undefined when it is not one (an org id past 2^53 included). */
export function orgOfCleanupToken(token: string): number | undefined {
  const match = token.match(/^whc_([1-9][0-9]{0,15})_[A-Za-z0-9_-]{32}$/);
  return match ? parseId(match[1]) : undefined;
}
