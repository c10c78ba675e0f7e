import { randomUUID } from 'node:crypto';
import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { descriptors } from '../../../generated/routes/index.js';
import { SERVICE_ACTOR, type RecordWriter, type WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { quoteIdent } from '../../model/sql-text.js';
import { orgScopedTransaction, type Transaction } from '../../tenancy/index.js';
import { renderMailing, UnfilledVariable } from './render.js';
import { nextUtcDay, scheduleSends, sendDueAt, type SendJobPayload } from './send-jobs.js';
import { outcomeOfError, type Outcome } from './smtp-outcome.js';
import { storedLocally, type OutgoingMessage, type TransportFactory } from './transports.js';
import type { HeaderSource, HtmlTransform } from '../html-transform.js';

export type { HeaderSource, HtmlTransform, HtmlTransformContext } from '../html-transform.js';

/**
 * The `send_mailing` job. SMTP is outside any transaction, so a send is three steps:
 * 1. in one transaction: lock the mailing; unless it is `scheduled` and due, do nothing; hold it
 *    to the next UTC day when its mailbox is `sendDisabled` or has delivered `maxEmailsPerDay`
 *    today; render it (an unfillable variable fails it); store `delivering` with the Message-ID
 *    it will carry; commit;
 * 2. hand the message to the mailbox's transport, with no transaction open;
 * 3. in another transaction, store what the server answered: `delivered`, a retry (`scheduled`
 *    again at `retryAt`), `bounced` (5xx) or `failed` (also when the mailbox's smtpHost is a
 *    private address: the transport refuses it without connecting).
 * A job that finds its mailing `delivering` knows an earlier attempt stopped between 1 and 3
 * (a worker killed) and may have sent it: it does not send again. A message the local transport
 * stored is known to be delivered; otherwise the mailing is `failed` with an errorReason saying
 * it may have been sent, for a person to decide (scheduling it again sends it again). So a
 * crash never sends twice silently; it can at worst leave one send to a person.
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

export interface SendDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
  readonly transports: TransportFactory;
  readonly transforms: readonly HtmlTransform[];
  readonly headers: readonly HeaderSource[];
  readonly retry: RetryPolicy;
}

export function sendMailingTask(deps: SendDependencies): Task {
  return async (payload) => {
    const job = payload as SendJobPayload;
    const prepared = await orgScopedTransaction(deps.sql, job.orgId, (tx) => prepareSend(deps, tx, job));
    if (!prepared) return;
    let outcome: Outcome;
    try {
      outcome = { kind: 'delivered', answer: (await deps.transports(prepared.mailbox).send(prepared.message)).response };
    } catch (error) {
      outcome = outcomeOfError(error);
    }
    await orgScopedTransaction(deps.sql, job.orgId, (tx) => recordOutcome(deps, tx, job, outcome));
    deps.log.info({ orgId: job.orgId, mailingId: job.mailingId, outcome: outcome.kind }, 'mailing send attempted');
  };
}

const mailingTable = quoteIdent(descriptors.get('mailing')!.table);
const mailboxTable = quoteIdent(descriptors.get('mailbox')!.table);

async function lockedMailing(deps: SendDependencies, tx: Transaction, job: SendJobPayload): Promise<{ effects: WriteEffects; mailing: Row | undefined }> {
  await tx.unsafe(`select 1 from ${mailingTable} where org_id = $1 and id = $2 for no key update`, [job.orgId, job.mailingId], { prepare: true });
  const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
  return { effects, mailing: (await effects.records.rows('mailing', [job.mailingId])).get(job.mailingId) };
}

async function written(effects: WriteEffects, id: number, values: Record<string, unknown>, domainEvent?: string): Promise<void> {
  const [outcome] = await effects.write([effects.update('mailing', id, values, domainEvent)]);
  if (outcome!.status === 'refused') throw outcome!.error;
}

function fail(effects: WriteEffects, id: number, errorReason: string): Promise<void> {
  return written(effects, id, { state: 'failed', errorReason, retryAt: null });
}

/**
 * The subject and HTML body to send: the mailing's own, each taken from its template where the
 * mailing has none (as a sequence step's mailing is made); undefined when there is neither a
 * subject nor a body to send.
 */
async function contentOf(effects: WriteEffects, mailing: Row): Promise<{ subject: string | null; bodyHtml: string | null } | undefined> {
  const own = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  let subject = own(mailing.subject);
  let bodyHtml = own(mailing.bodyHtml);
  if ((subject === null || bodyHtml === null) && mailing.template != null) {
    const template = (await effects.records.rows('template', [Number(mailing.template)])).get(Number(mailing.template));
    subject ??= own(template?.subject);
    bodyHtml ??= own(template?.bodyHtml);
  }
  return subject === null && bodyHtml === null ? undefined : { subject, bodyHtml };
}

async function prepareSend(deps: SendDependencies, tx: Transaction, job: SendJobPayload): Promise<{ message: OutgoingMessage; mailbox: Row } | undefined> {
  const { effects, mailing } = await lockedMailing(deps, tx, job);
  if (mailing?.state === 'delivering') return void (await settleInterrupted(tx, effects, mailing));
  if (mailing?.state !== 'scheduled') return undefined;
  const now = effects.now;
  const due = sendDueAt(mailing, now);
  if (due > now) return void (await scheduleSends(tx, job.orgId, [{ mailingId: job.mailingId, runAt: due }]));
  if (mailing.mailbox == null) return void (await fail(effects, job.mailingId, 'The mailing has no mailbox to send from'));

  const mailboxId = Number(mailing.mailbox);
  // One send at a time decides per mailbox, so that the day's count cannot be passed by two at once.
  await tx.unsafe(`select 1 from ${mailboxTable} where org_id = $1 and id = $2 for no key update`, [job.orgId, mailboxId], { prepare: true });
  const mailbox = (await effects.records.rows('mailbox', [mailboxId])).get(mailboxId)!;
  const held = await holdReason(tx, job, mailbox, now);
  if (held) {
    deps.log.info({ orgId: job.orgId, mailingId: job.mailingId, held }, 'mailing held to the next day');
    return void (await scheduleSends(tx, job.orgId, [{ mailingId: job.mailingId, runAt: nextUtcDay(now) }]));
  }

  const prospect = mailing.prospect == null ? undefined : (await effects.records.rows('prospect', [Number(mailing.prospect)])).get(Number(mailing.prospect));
  const account = prospect?.account == null ? undefined : (await effects.records.rows('account', [Number(prospect.account)])).get(Number(prospect.account));
  const sender = mailbox.user == null ? undefined : (await effects.records.rows('user', [Number(mailbox.user)])).get(Number(mailbox.user));
  const to = Array.isArray(prospect?.emails) ? prospect.emails.find((e): e is string => typeof e === 'string' && e !== '') : undefined;
  if (!to) return void (await fail(effects, job.mailingId, 'The prospect has no e-mail address to send to'));
  const content = await contentOf(effects, mailing);
  if (!content) return void (await fail(effects, job.mailingId, 'The mailing has no subject and no body, and no template to take them from'));
  let rendered;
  try {
    rendered = renderMailing({ ...mailing, ...content }, { prospect, account, mailbox, sender });
  } catch (error) {
    if (error instanceof UnfilledVariable) return void (await fail(effects, job.mailingId, error.message));
    throw error;
  }
  const from = String(mailbox.email);
  const messageId = `<${randomUUID()}@${from.slice(from.lastIndexOf('@') + 1)}>`;
  const context = {
    orgId: job.orgId,
    mailingId: job.mailingId,
    prospectId: prospect ? Number(prospect.id) : null,
    trackOpens: mailing.trackOpens === true,
    trackLinks: mailing.trackLinks === true,
    sequence: mailing.mailingType === 'sequence',
  };
  const html = deps.transforms.reduce((body, transform) => transform(body, context), rendered.html);
  await written(effects, job.mailingId, {
    state: 'delivering',
    messageId,
    mailboxAddress: from,
    // What was sent, the template's where the mailing had none of its own.
    subject: content.subject,
    bodyHtml: content.bodyHtml,
    bodyText: rendered.text,
    user: mailbox.user ?? null,
    errorReason: null,
  });
  return {
    mailbox,
    message: {
      orgId: job.orgId,
      mailingId: job.mailingId,
      from: { name: nameOf(sender), address: from },
      to: { name: nameOf(prospect), address: to },
      subject: rendered.subject,
      html,
      text: rendered.text,
      messageId,
      headers: Object.assign({}, ...deps.headers.map((source) => source(context))) as Record<string, string>,
    },
  };
}

function nameOf(row: Row | undefined): string | undefined {
  return typeof row?.name === 'string' && row.name !== '' ? row.name : undefined;
}

/** Why the mailbox sends nothing more today, if it does not: sendDisabled, or maxEmailsPerDay reached. */
async function holdReason(tx: Transaction, job: SendJobPayload, mailbox: Row, now: Date): Promise<string | undefined> {
  if (mailbox.sendDisabled === true) return 'sendDisabled';
  if (typeof mailbox.maxEmailsPerDay !== 'number') return undefined;
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  // Mailings being delivered now count too: they are this day's unless they fail.
  const [row] = await tx.unsafe<{ n: number }[]>(
    `select count(*)::int as n from ${mailingTable}
      where org_id = $1 and mailbox_id = $2 and id <> $3
        and ((delivered_at >= $4 and delivered_at < $5) or state = 'delivering')`,
    [job.orgId, Number(mailbox.id), job.mailingId, dayStart.toISOString(), nextUtcDay(now).toISOString()] as never[],
    { prepare: true },
  );
  return row!.n >= mailbox.maxEmailsPerDay ? 'maxEmailsPerDay' : undefined;
}

/** An earlier attempt stopped after storing `delivering`: delivered if the local transport has the message, else failed (see above). */
async function settleInterrupted(tx: Transaction, effects: WriteEffects, mailing: Row): Promise<void> {
  const id = Number(mailing.id);
  if (typeof mailing.messageId === 'string' && (await storedLocally(tx, effects.orgId, mailing.messageId))) {
    return written(effects, id, { state: 'delivered', deliveredAt: effects.now.toISOString(), retryAt: null }, 'delivered');
  }
  return fail(
    effects,
    id,
    'An earlier send attempt was interrupted after handing the message to the mail server; it may have been sent. Schedule it again to send it again',
  );
}

async function recordOutcome(deps: SendDependencies, tx: Transaction, job: SendJobPayload, outcome: Outcome): Promise<void> {
  const { effects, mailing } = await lockedMailing(deps, tx, job);
  // Changed meanwhile (deleted, or set by a person): what they did stands.
  if (mailing?.state !== 'delivering') return;
  const now = effects.now.toISOString();
  switch (outcome.kind) {
    case 'delivered':
      return written(effects, job.mailingId, { state: 'delivered', deliveredAt: now, retryAt: null, errorReason: null }, 'delivered');
    case 'bounced':
      return written(effects, job.mailingId, { state: 'bounced', bouncedAt: now, retryAt: null, errorReason: outcome.answer }, 'bounced');
    case 'failed':
      return fail(effects, job.mailingId, outcome.answer);
    case 'temporary': {
      const retryCount = (typeof mailing.retryCount === 'number' ? mailing.retryCount : 0) + 1;
      if (retryCount > deps.retry.maxRetries) return fail(effects, job.mailingId, `Gave up after ${deps.retry.maxRetries} retries: ${outcome.answer}`);
      const delay = deps.retry.delayMs(retryCount);
      const retryAt = new Date(effects.now.getTime() + delay).toISOString();
      // Back to scheduled with a retryAt: the mailing's afterWrite schedules the job then.
      return written(effects, job.mailingId, { state: 'scheduled', retryCount, retryAt, retryInterval: Math.round(delay / 1000), errorReason: outcome.answer });
    }
  }
}
