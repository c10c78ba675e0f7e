import type { UpdateOperation, WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import type { Outcome } from './smtp-outcome.js';
import { storedLocally } from './transports.js';

/**
 * How a set's mailings end, as updates for one write: what the server answered for each, or,
 * for a send that was interrupted, what can be known of it.
 */

export interface RetryPolicy {
  /** Temporary failures retried before the mailing is `failed`. */
  readonly maxRetries: number;
  /** How long to wait before retry `retryCount` (1, 2, ...). */
  delayMs(retryCount: number): number;
}

/** 1, 5 and 25 minutes, about 2 hours, then 6: a server's bad hour is outlasted, a dead one is given up on within a day. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  delayMs: (retryCount) => Math.min(60_000 * 5 ** (retryCount - 1), 6 * 60 * 60_000),
};

export const INTERRUPTED_REASON =
  'An earlier send attempt was interrupted after handing the message to the mail server; it may have been sent. Schedule it again to send it again';

export function failed(effects: WriteEffects, id: number, errorReason: string): UpdateOperation {
  return effects.update('mailing', id, { state: 'failed', errorReason, retryAt: null });
}

/**
 * Mailings found `delivering` by a later run: an earlier attempt stored that and may have sent
 * them. One the local transport stored is known to be delivered; any other is failed with a
 * reason saying it may have been sent, for a person to decide (scheduling it again sends it
 * again). So a crash never sends twice silently; at worst it leaves a send to a person.
 */
export async function settleInterrupted(effects: WriteEffects, mailings: readonly Row[]): Promise<UpdateOperation[]> {
  const ids = mailings.flatMap((m) => (typeof m.messageId === 'string' ? [m.messageId] : []));
  const stored = await storedLocally(effects.tx, effects.orgId, ids);
  return mailings.map((m) =>
    typeof m.messageId === 'string' && stored.has(m.messageId)
      ? effects.update('mailing', Number(m.id), { state: 'delivered', deliveredAt: effects.now.toISOString(), retryAt: null }, 'delivered')
      : failed(effects, Number(m.id), INTERRUPTED_REASON),
  );
}

/** The update storing what the server answered for a mailing still `delivering`. */
export function outcomeUpdate(effects: WriteEffects, mailing: Row, outcome: Outcome, retry: RetryPolicy): UpdateOperation {
  const id = Number(mailing.id);
  const now = effects.now.toISOString();
  switch (outcome.kind) {
    case 'delivered':
      return effects.update('mailing', id, { state: 'delivered', deliveredAt: now, retryAt: null, errorReason: null }, 'delivered');
    case 'bounced':
      return effects.update('mailing', id, { state: 'bounced', bouncedAt: now, retryAt: null, errorReason: outcome.answer }, 'bounced');
    case 'failed':
      return failed(effects, id, outcome.answer);
    case 'temporary': {
      const retryCount = (typeof mailing.retryCount === 'number' ? mailing.retryCount : 0) + 1;
      if (retryCount > retry.maxRetries) return failed(effects, id, `Gave up after ${retry.maxRetries} retries: ${outcome.answer}`);
      const delay = retry.delayMs(retryCount);
      const retryAt = new Date(effects.now.getTime() + delay).toISOString();
      // Back to scheduled with a retryAt: the mailing's afterWrite makes the send due then.
      return effects.update('mailing', id, { state: 'scheduled', retryCount, retryAt, retryInterval: Math.round(delay / 1000), errorReason: outcome.answer });
    }
  }
}
