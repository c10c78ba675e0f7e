import type { TaskList } from 'graphile-worker';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { ActionHandler, ApiEnv, Behaviours, RecordWriter, ResourceBehaviour } from '../engine/index.js';
import type { LabelledCounter } from '../metrics/index.js';
import { queueInvitations, SEND_INVITATION_TASK, sendInvitationTask } from './sending/invitations.js';
import { afterMailingWrites } from './sending/mailing-writes.js';
import { SEND_MAILING_TASK, SEND_MAILINGS_TASK } from './sending/send-queue.js';
import { DEFAULT_RETRY_POLICY, legacySendMailingTask, sendMailingsTask, type HeaderSource, type HtmlTransform, type RetryPolicy } from './sending/set-sender.js';
import type { SmtpPools } from './sending/smtp-pools.js';
import { mountTestSend, TEST_SEND_PATH, type TestSendOptions } from './sending/test-send.js';
import type { Address, TransportFactory } from './sending/transports.js';

/**
 * E-mail (issue #16). Sending: a scheduled mailing is a send due at its time (mailing_sends),
 * which its org's `send_mailings` job sends in sets: rendered from its prospect, account and
 * sender, sent over pooled connections to its mailbox's SMTP server or the deployment's default
 * transport, and moved to delivered, bounced or failed (or retried) with
 * its events; mailbox limits hold mailings to the next day; `testSend` checks a mailbox; new
 * users get their invitation. Like the sequence automation it is behaviour of the standard
 * resources, so every path that writes a mailing follows it.
 */

export { SEND_MAILING_TASK, SEND_MAILINGS_TASK, SEND_PRIORITY, senderJobKey } from './sending/send-queue.js';
export { SmtpPools, DEFAULT_SMTP_POOL_LIMITS, type SmtpPoolLimits } from './sending/smtp-pools.js';
export { SEND_INVITATION_TASK, parseAddress } from './sending/invitations.js';
export { DEFAULT_RETRY_POLICY, SET_SIZE, type HeaderSource, type HtmlTransform, type HtmlTransformContext, type RetryPolicy } from './sending/set-sender.js';
export { TEMPLATE_VARIABLES } from './sending/render.js';
export {
  defaultTransports,
  composeMime,
  localTransport,
  smtpSettingsOf,
  smtpTransport,
  type MailTransport,
  type OutgoingMessage,
  type SentMessage,
  type TransportFactory,
} from './sending/transports.js';
export { listMailMessages, showMailMessage } from './messages.js';
export { mailServerRule, MailServerRefused, type MailServerRule } from './server-address.js';

/** A mailing's state changes when `stateChangedAt` does; the service keeps it. */
const mailingBehaviour: Partial<ResourceBehaviour> = {
  derives: ['stateChangedAt'],
  derive(next, previous, write) {
    return previous && next.state === previous.state ? {} : { stateChangedAt: write.now.toISOString() };
  },
  afterWrite: afterMailingWrites,
};

/**
 * testSend talks to an SMTP server, which an engine action (run inside the write's transaction)
 * must not: runtime/mail serves it with a route of its own mounted ahead of the engine (see
 * mountMailRoutes). The engine still wants a handler for every declared action; this one is
 * never reached while that route is mounted.
 */
export const testSendServedElsewhere: ActionHandler = {
  changes: [],
  handle() {
    throw new Error(`testSend is served by runtime/mail's own route (${TEST_SEND_PATH}), which was not mounted`);
  },
};

export const mailAutomation: ReadonlyMap<string, Partial<ResourceBehaviour>> = new Map<string, Partial<ResourceBehaviour>>([
  ['mailing', mailingBehaviour],
  ['user', { afterWrite: queueInvitations }],
]);

/** `behaviours` with the mail automation's hooks added to the resources it concerns. */
export function withMailAutomation(behaviours: Behaviours): Behaviours {
  const combined = new Map(behaviours);
  for (const [type, hooks] of mailAutomation) {
    const own = behaviours.get(type);
    if (own?.afterWrite && hooks.afterWrite) throw new Error(`${type} already has an afterWrite; compose them`);
    if (own?.derive && hooks.derive) throw new Error(`${type} already has a derive; compose them`);
    combined.set(type, { ...own, ...hooks });
  }
  return combined;
}

export interface MailDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
  readonly transports: TransportFactory;
  /** The worker's pooled SMTP connections (closed when it stops); unset, a connection per message. */
  readonly pools?: SmtpPools;
  /** Composition steps of every mailing's HTML after rendering (tracking); none by default. */
  readonly transforms?: readonly HtmlTransform[];
  /** Headers every mailing's message gets from its context (List-Unsubscribe); none by default. */
  readonly headers?: readonly HeaderSource[];
  readonly retry?: RetryPolicy;
  /** Sends claimed per set; SET_SIZE when unset. */
  readonly setSize?: number;
  /** Counts what mail servers answered for mailings (cadence_mail_messages_total); none when unset. */
  readonly outcomes?: LabelledCounter<'outcome'> | undefined;
  /** MAIL_FROM: who invitations are from. */
  readonly mailFrom: Address;
  /** Base of the invitation links. */
  readonly publicBaseUrl: string;
}

export function mailTasks(deps: MailDependencies): TaskList {
  const sender = { ...deps, transforms: deps.transforms ?? [], headers: deps.headers ?? [], retry: deps.retry ?? DEFAULT_RETRY_POLICY };
  return {
    [SEND_MAILINGS_TASK]: sendMailingsTask(sender),
    [SEND_MAILING_TASK]: legacySendMailingTask(sender),
    [SEND_INVITATION_TASK]: sendInvitationTask(deps),
  };
}

/** What the mail routes need: testSend's options. */
export type MailRouteOptions = TestSendOptions;

/** The mailbox's testSend, on the /api/v2 router ahead of the resource routes. */
export function mountMailRoutes(api: Hono<ApiEnv>, options: MailRouteOptions): void {
  mountTestSend(api, options);
}
