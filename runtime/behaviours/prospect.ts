import type { ResourceBehaviour } from '../engine/index.js';

function fullName(next: Readonly<Record<string, unknown>>): string | null {
  const name = [next.firstName, next.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
  return name === '' ? null : name;
}

/**
 * `name` is maintained as first and last name joined, whenever either is written.
 * `emailsOptedAt` is when the prospect last opted out of e-mail or back in: stamped whenever
 * `emailOptedOut` changes, by a client, an import or an unsubscribe link alike, and on a create
 * that opts out from the start.
 */
export const prospectBehaviour: ResourceBehaviour = {
  derives: ['name', 'emailsOptedAt'],
  derive(next, previous, { now }) {
    const renamed = !previous || next.firstName !== previous.firstName || next.lastName !== previous.lastName;
    // Unset counts as opted in: writing false to a prospect that never opted out changes nothing.
    const opted = (next.emailOptedOut === true) !== (previous?.emailOptedOut === true);
    return { ...(renamed && { name: fullName(next) }), ...(opted && { emailsOptedAt: now.toISOString() }) };
  },
};
