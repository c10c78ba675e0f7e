import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import type { HeaderSource, HtmlTransform } from '../html-transform.js';
import { renderMailing, UnfilledVariable } from './render.js';
import type { OutgoingMessage } from './transports.js';

/**
 * A set's messages, composed in one pass: the records they are rendered from (prospects, their
 * accounts, the senders, the templates) are read with one query per type for the whole set;
 * each mailing is rendered, its HTML put through the transforms (tracking), and given the
 * Message-ID it will carry. A mailing that cannot be sent is failed with the reason, never sent
 * half-filled.
 */

export interface MailingToSend {
  readonly mailing: Row;
  readonly mailbox: Row;
}

export interface ComposedMailing extends MailingToSend {
  readonly message: OutgoingMessage;
  /** What the mailing is stored with as it goes `delivering`. */
  readonly delivering: Readonly<Record<string, unknown>>;
}

export interface ComposedSet {
  readonly composed: readonly ComposedMailing[];
  readonly failed: readonly { readonly mailingId: number; readonly reason: string }[];
}

/** Rendering is synchronous: the event loop gets a turn after every this many. */
const RENDERED_PER_TURN = 50;

const idsOf = (rows: Iterable<Row | undefined>, field: string) => [...new Set([...rows].flatMap((r) => (r?.[field] == null ? [] : [Number(r[field])])))];

function own(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function nameOf(row: Row | undefined): string | undefined {
  return typeof row?.name === 'string' && row.name !== '' ? row.name : undefined;
}

export async function composeSet(
  effects: WriteEffects,
  set: readonly MailingToSend[],
  transforms: readonly HtmlTransform[],
  headers: readonly HeaderSource[],
): Promise<ComposedSet> {
  const mailings = set.map((s) => s.mailing);
  const prospects = await effects.records.rows('prospect', idsOf(mailings, 'prospect'));
  const [accounts, senders, templates] = await Promise.all([
    effects.records.rows('account', idsOf(prospects.values(), 'account')),
    effects.records.rows(
      'user',
      idsOf(
        set.map((s) => s.mailbox),
        'user',
      ),
    ),
    // Only where the mailing lacks a subject or body of its own: a sequence step's mailing.
    effects.records.rows(
      'template',
      idsOf(
        mailings.filter((m) => own(m.subject) === null || own(m.bodyHtml) === null),
        'template',
      ),
    ),
  ]);
  const composed: ComposedMailing[] = [];
  const failed: { mailingId: number; reason: string }[] = [];
  for (const [index, { mailing, mailbox }] of set.entries()) {
    if (index > 0 && index % RENDERED_PER_TURN === 0) await yieldToLoop();
    const mailingId = Number(mailing.id);
    const prospect = mailing.prospect == null ? undefined : prospects.get(Number(mailing.prospect));
    const account = prospect?.account == null ? undefined : accounts.get(Number(prospect.account));
    const sender = mailbox.user == null ? undefined : senders.get(Number(mailbox.user));
    const template = mailing.template == null ? undefined : templates.get(Number(mailing.template));
    const to = Array.isArray(prospect?.emails) ? prospect.emails.find((e): e is string => typeof e === 'string' && e !== '') : undefined;
    if (!to) {
      failed.push({ mailingId, reason: 'The prospect has no e-mail address to send to' });
      continue;
    }
    // The mailing's own subject and body, each taken from its template where it has none.
    const subject = own(mailing.subject) ?? own(template?.subject);
    const bodyHtml = own(mailing.bodyHtml) ?? own(template?.bodyHtml);
    if (subject === null && bodyHtml === null) {
      failed.push({ mailingId, reason: 'The mailing has no subject and no body, and no template to take them from' });
      continue;
    }
    let rendered;
    try {
      rendered = renderMailing({ ...mailing, subject, bodyHtml }, { prospect, account, mailbox, sender });
    } catch (error) {
      if (!(error instanceof UnfilledVariable)) throw error;
      failed.push({ mailingId, reason: error.message });
      continue;
    }
    const from = String(mailbox.email);
    const messageId = `<${randomUUID()}@${from.slice(from.lastIndexOf('@') + 1)}>`;
    const context = {
      orgId: effects.orgId,
      mailingId,
      prospectId: prospect ? Number(prospect.id) : null,
      trackOpens: mailing.trackOpens === true,
      trackLinks: mailing.trackLinks === true,
      sequence: mailing.mailingType === 'sequence',
    };
    const html = transforms.reduce((body, transform) => transform(body, context), rendered.html);
    composed.push({
      mailing,
      mailbox,
      delivering: {
        state: 'delivering',
        messageId,
        mailboxAddress: from,
        // What was sent, the template's where the mailing had none of its own.
        subject,
        bodyHtml,
        bodyText: rendered.text,
        user: mailbox.user ?? null,
        errorReason: null,
      },
      message: {
        orgId: effects.orgId,
        mailingId,
        from: { name: nameOf(sender), address: from },
        to: { name: nameOf(prospect), address: to },
        subject: rendered.subject,
        html,
        text: rendered.text,
        messageId,
        headers: Object.assign({}, ...headers.map((source) => source(context))) as Record<string, string>,
      },
    });
  }
  return { composed, failed };
}
