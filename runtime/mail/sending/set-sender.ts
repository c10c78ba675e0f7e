import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter, type UpdateOperation, type WriteEffects } from '../../engine/index.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import type { HeaderSource, HtmlTransform } from '../html-transform.js';
import type { LabelledCounter } from '../../metrics/index.js';
import { composeSet, type MailingToSend } from './compose-set.js';
import { lockedMailboxes, withinDailyLimits } from './daily-limits.js';
import { enqueueRecheckSender, nextUtcDay, scheduleSends, sendDueAt, type LegacySendJobPayload, type SenderJobPayload } from './send-queue.js';
import { claimDueSet, type Claimant } from './set-claim.js';
import { deliverSet, type SetMessage } from './set-delivery.js';
import { failed, outcomeUpdate, settleInterrupted, type RetryPolicy } from './set-outcomes.js';
import type { Outcome } from './smtp-outcome.js';
import type { SmtpPools } from './smtp-pools.js';
import type { TransportFactory } from './transports.js';

export type { HeaderSource, HtmlTransform, HtmlTransformContext } from '../html-transform.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './set-outcomes.js';

/**
 * The set sender: the `send_mailings` job of an org (send-queue.ts) sends the org's due
 * mailings a set at a time. SMTP is outside any transaction, so a set is three steps:
 * 1. in one transaction: claim up to SET_SIZE due sends and lock their mailings (set-claim.ts);
 *    settle the interrupted ones; hold to the next UTC day those whose mailbox is
 *    `sendDisabled` or has no more of its `maxEmailsPerDay` today (daily-limits.ts); render the
 *    rest (compose-set.ts; an unfillable variable fails its mailing); store them `delivering`
 *    with the Message-ID they will carry, the set in one write; commit;
 * 2. hand the messages to their transports with no transaction open (set-delivery.ts): pooled
 *    connections per SMTP endpoint, a bounded number at once per mailbox;
 * 3. in another transaction, store what the servers answered, the set in one write
 *    (set-outcomes.ts): `delivered`, a retry (`scheduled` again at `retryAt`), `bounced` (5xx)
 *    or `failed` (also when the mailbox's smtpHost is a private address).
 * A mailing is never handed to SMTP twice by the sender: `delivering` and its Message-ID are
 * committed before it is, and a later run that finds it `delivering` after the job that sent it
 * stopped settles it without sending (settleInterrupted).
 */

/** Sends claimed per set: enough to fill a pool's connections many times over, few enough that a set's transactions stay short. */
export const SET_SIZE = 200;

export interface SendDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
  readonly transports: TransportFactory;
  /** The worker's pooled SMTP connections; unset, every message has a connection of its own. */
  readonly pools?: SmtpPools | undefined;
  readonly transforms: readonly HtmlTransform[];
  readonly headers: readonly HeaderSource[];
  readonly retry: RetryPolicy;
  /** Messages of one mailbox handed to its transport at once; the pool's connections when unset. */
  readonly perMailbox?: number;
  /** Sends claimed per set; SET_SIZE when unset. */
  readonly setSize?: number;
  /** Counts the servers' answers once they are recorded (cadence_mail_messages_total); none when unset. */
  readonly outcomes?: LabelledCounter<'outcome'> | undefined;
}

/** `send_mailings`: sends a set of the org's due mailings. */
export function sendMailingsTask(deps: SendDependencies): Task {
  return async (payload, helpers) => {
    const { orgId } = payload as SenderJobPayload;
    await sendDueSet(deps, orgId, claimantOf(helpers.job));
  };
}

function claimantOf(job: { readonly id: string; readonly attempts: number }): Claimant {
  return { jobId: Number(job.id), attempt: job.attempts };
}

/**
 * `send_mailing`, the one-mailing job of the design before sets, for those a deployment still
 * has pending: the mailing is made a due send if it is not one already, and the org's set sender
 * runs.
 */
export function legacySendMailingTask(deps: SendDependencies): Task {
  return async (payload, helpers) => {
    const { orgId, mailingId } = payload as LegacySendJobPayload;
    await orgScopedTransaction(deps.sql, orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR });
      const mailing = (await effects.records.rows('mailing', [mailingId])).get(mailingId);
      if (mailing?.state !== 'scheduled') return;
      const [queued] = await tx.unsafe(`select 1 from mailing_sends where org_id = $1 and mailing_id = $2`, [orgId, mailingId], { prepare: true });
      if (!queued) await scheduleSends(tx, orgId, [{ mailingId, dueAt: sendDueAt(mailing, effects.now) }]);
    });
    await sendDueSet(deps, orgId, claimantOf(helpers.job));
  };
}

export async function sendDueSet(deps: SendDependencies, orgId: number, claimant: Claimant): Promise<void> {
  const started = performance.now();
  const messages = await orgScopedTransaction(deps.sql, orgId, (tx) => prepareSet(deps, deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR }), claimant));
  if (messages.length === 0) return;
  const prepared = performance.now();
  const perMailbox = deps.perMailbox ?? deps.pools?.limits.maxConnections ?? 5;
  const outcomes = await deliverSet(messages, deps.transports, deps.pools, perMailbox);
  const sent = performance.now();
  await orgScopedTransaction(deps.sql, orgId, (tx) => recordOutcomes(deps, deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR }), outcomes));
  const kinds: Record<string, number> = {};
  for (const outcome of outcomes.values()) kinds[outcome.kind] = (kinds[outcome.kind] ?? 0) + 1;
  for (const [outcome, count] of Object.entries(kinds)) deps.outcomes?.inc({ outcome }, count);
  // How long each step took, so that a slow database and a slow mail server can be told apart.
  const ms = { prepareMs: Math.round(prepared - started), sendMs: Math.round(sent - prepared), recordMs: Math.round(performance.now() - sent) };
  deps.log.info({ orgId, mailings: messages.length, outcomes: kinds, ...ms }, 'mailing set sent');
}

async function written(effects: WriteEffects, operations: readonly UpdateOperation[]): Promise<void> {
  const outcomes = await effects.write(operations);
  const refused = outcomes.find((o) => o.status === 'refused');
  if (refused?.status === 'refused') throw refused.error;
}

/** Step 1: the set's messages, each mailing stored `delivering` with its Message-ID. */
async function prepareSet(deps: SendDependencies, effects: WriteEffects, claimant: Claimant): Promise<SetMessage[]> {
  const { jobId } = claimant;
  const claimed = await claimDueSet(effects, claimant, deps.setSize ?? SET_SIZE);
  const updates = await settleInterrupted(effects, claimed.interrupted);
  const mailboxes = await lockedMailboxes(
    effects,
    claimed.scheduled.flatMap((m) => (m.mailbox == null ? [] : [Number(m.mailbox)])),
  );
  const toSend: MailingToSend[] = [];
  for (const mailing of claimed.scheduled) {
    const mailbox = mailing.mailbox == null ? undefined : mailboxes.get(Number(mailing.mailbox));
    if (mailbox) toSend.push({ mailing, mailbox });
    else updates.push(failed(effects, Number(mailing.id), 'The mailing has no mailbox to send from'));
  }
  // A disabled mailbox's mailings wait as they are, not rendered (a broken one fails on the day it may go).
  const disabled = toSend.filter((s) => s.mailbox.sendDisabled === true);
  const { composed, failed: unsendable } = await composeSet(
    effects,
    toSend.filter((s) => s.mailbox.sendDisabled !== true),
    deps.transforms,
    deps.headers,
  );
  for (const f of unsendable) updates.push(failed(effects, f.mailingId, f.reason));
  const { sending, held } = await withinDailyLimits(
    effects,
    composed,
    (c) => c.mailbox,
    claimed.scheduled.map((m) => Number(m.id)),
  );
  for (const c of sending) updates.push(effects.update('mailing', Number(c.mailing.id), c.delivering));
  await written(effects, updates);

  const sendingIds = sending.map((c) => Number(c.mailing.id));
  if (sendingIds.length > 0) {
    await effects.tx.unsafe(
      'update mailing_sends set claimed_by = $3 where org_id = $1 and mailing_id = any($2::bigint[])',
      [effects.orgId, sendingIds, jobId] as never[],
      {
        prepare: true,
      },
    );
  }
  const heldIds = [...disabled.map((s) => Number(s.mailing.id)), ...held.map((h) => Number(h.item.mailing.id))];
  if (heldIds.length > 0) {
    const tomorrow = nextUtcDay(effects.now);
    deps.log.info({ orgId: effects.orgId, mailings: heldIds, disabled: disabled.length, overDailyLimit: held.length }, 'mailings held to the next day');
    await scheduleSends(
      effects.tx,
      effects.orgId,
      heldIds.map((mailingId) => ({ mailingId, dueAt: tomorrow })),
    );
  }
  // Last, as it locks the org's one recheck job until commit: concurrent sets wait on it only for that.
  if (claimed.othersInFlight) await enqueueRecheckSender(effects.tx, effects.orgId);
  return sending.map((c) => ({ mailbox: c.mailbox, message: c.message }));
}

/** Step 3: the answers, for the mailings still `delivering` (one changed meanwhile, deleted or set by a person, stays as they left it). */
async function recordOutcomes(deps: SendDependencies, effects: WriteEffects, outcomes: ReadonlyMap<number, Outcome>): Promise<void> {
  const ids = [...outcomes.keys()].sort((a, b) => a - b);
  await effects.tx.unsafe(`select 1 from mailings where org_id = $1 and id = any($2::bigint[]) order by id for no key update`, [effects.orgId, ids] as never[], {
    prepare: true,
  });
  const mailings = await effects.records.rows('mailing', ids);
  const updates = ids.flatMap((id) => {
    const mailing = mailings.get(id);
    return mailing?.state === 'delivering' ? [outcomeUpdate(effects, mailing, outcomes.get(id)!, deps.retry)] : [];
  });
  await written(effects, updates);
}
