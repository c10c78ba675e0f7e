import type { WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { nextUtcDay } from './send-queue.js';

/**
 * A mailbox's limits on a set: `sendDisabled` holds all of its mailings, `maxEmailsPerDay` all
 * beyond what it may still send today (UTC). The set's mailboxes with a daily limit are locked
 * (in id order) before their day's count is read, so that two sets of one mailbox in flight at
 * once (two jobs, two workers) count one after the other and never pass the limit together:
 * mailings `delivering` count as sent today, as they are unless they fail. A mailbox without a
 * limit is not locked, so that its sets are prepared side by side.
 */

const hasDailyLimit = (mailbox: Row) => mailbox.sendDisabled !== true && typeof mailbox.maxEmailsPerDay === 'number';

/** The mailboxes, those with a daily limit locked (in id order) and read again under the lock. */
export async function lockedMailboxes(effects: WriteEffects, ids: readonly number[]): Promise<Map<number, Row>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (sorted.length === 0) return new Map();
  const mailboxes = await effects.records.rows('mailbox', sorted);
  const limited = sorted.filter((id) => {
    const mailbox = mailboxes.get(id);
    return mailbox !== undefined && hasDailyLimit(mailbox);
  });
  if (limited.length === 0) return mailboxes;
  await effects.tx.unsafe(`select 1 from mailboxes where org_id = $1 and id = any($2::bigint[]) order by id for no key update`, [effects.orgId, limited] as never[], {
    prepare: true,
  });
  // What a write committed before the lock was taken (a new limit) is what counts.
  for (const [id, mailbox] of await effects.records.rows('mailbox', limited)) mailboxes.set(id, mailbox);
  return mailboxes;
}

/** How many mailings each mailbox has delivered today or is delivering, the set's own not counted; one statement. */
async function sentToday(effects: WriteEffects, mailboxIds: readonly number[], excluding: readonly number[]): Promise<Map<number, number>> {
  if (mailboxIds.length === 0) return new Map();
  const now = effects.now;
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const rows = await effects.tx.unsafe<{ mailbox_id: string; n: number }[]>(
    `select mailbox_id, count(*)::int as n from mailings
      where org_id = $1 and mailbox_id = any($2::bigint[]) and not (id = any($3::bigint[]))
        and ((delivered_at >= $4 and delivered_at < $5) or state = 'delivering')
      group by mailbox_id`,
    [effects.orgId, mailboxIds, excluding, dayStart.toISOString(), nextUtcDay(now).toISOString()] as never[],
    { prepare: true },
  );
  return new Map(rows.map((r) => [Number(r.mailbox_id), r.n]));
}

export interface Allotted<T> {
  readonly sending: readonly T[];
  readonly held: readonly { readonly item: T; readonly reason: 'sendDisabled' | 'maxEmailsPerDay' }[];
}

/**
 * Of `items` (in the order they fell due), which their mailbox sends now and which wait:
 * each mailbox sends at most what is left of its day, the earliest first.
 */
export async function withinDailyLimits<T>(
  effects: WriteEffects,
  items: readonly T[],
  mailboxOf: (item: T) => Row,
  setMailingIds: readonly number[],
): Promise<Allotted<T>> {
  const limited = [...new Set(items.map(mailboxOf).filter(hasDailyLimit))];
  const counts = await sentToday(
    effects,
    limited.map((m) => Number(m.id)),
    setMailingIds,
  );
  const left = new Map(limited.map((m) => [Number(m.id), Number(m.maxEmailsPerDay) - (counts.get(Number(m.id)) ?? 0)]));
  const sending: T[] = [];
  const held: { item: T; reason: 'sendDisabled' | 'maxEmailsPerDay' }[] = [];
  for (const item of items) {
    const mailbox = mailboxOf(item);
    if (mailbox.sendDisabled === true) {
      held.push({ item, reason: 'sendDisabled' });
      continue;
    }
    const remaining = left.get(Number(mailbox.id));
    if (remaining === undefined) sending.push(item);
    else if (remaining > 0) {
      left.set(Number(mailbox.id), remaining - 1);
      sending.push(item);
    } else held.push({ item, reason: 'maxEmailsPerDay' });
  }
  return { sending, held };
}
