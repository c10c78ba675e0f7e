import { randomUUID } from 'node:crypto';
import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { WriteEffects, WrittenRecord } from '../../engine/index.js';
import { enqueueJobs } from '../../jobs/enqueue.js';
import { CredentialProblem } from '../../oauth/credentials.js';
import { inviteUser } from '../../oauth/invitations.js';
import { escapeHtml } from './render.js';
import type { Address, TransportFactory } from './transports.js';

/**
 * `POST /users` sends the new user an invitation (SPEC.md: `meta.sendInvite` false suppresses
 * it): a job enqueued in the create's transaction issues the invitation link (the one `cadence
 * user invite` prints) and sends it through the deployment's default transport. A job run
 * twice (a worker killed after sending, before graphile-worker heard) sends a second message
 * with a second link; both work until one is used, so that costs nothing but the extra e-mail.
 */

export const SEND_INVITATION_TASK = 'send_invitation';

interface InvitationPayload {
  readonly orgId: number;
  readonly userId: number;
}

/**
 * The user `afterWrite`: an invitation job for each user a client created (POST /users: its
 * resource object, so `meta`, came with the request) with an e-mail address, unless
 * `meta.sendInvite` is false. The service's own creates (an org's first admin by `cadence org
 * create`) carry no meta and invite nobody; the operator runs `cadence user invite`.
 */
export async function queueInvitations(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const invited = written.filter(
    (w) => w.kind === 'create' && w.meta !== undefined && w.meta.sendInvite !== false && typeof w.row.email === 'string' && w.row.email !== '',
  );
  await enqueueJobs(
    effects.tx,
    invited.map((w) => ({
      task: SEND_INVITATION_TASK,
      payload: { orgId: effects.orgId, userId: Number(w.row.id) } satisfies InvitationPayload,
      jobKey: `${SEND_INVITATION_TASK}:${effects.orgId}:${Number(w.row.id)}`,
    })),
  );
}

export interface InvitationDependencies {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
  readonly log: Logger;
  readonly transports: TransportFactory;
  /** MAIL_FROM: who invitations are from. */
  readonly mailFrom: Address;
  /** Where the invitation page is served: PUBLIC_BASE_URL, else the server's own address. */
  readonly publicBaseUrl: string;
}

/** `Name <address>` or a bare address, as MAIL_FROM is written. */
export function parseAddress(text: string): Address {
  const match = /^\s*(.*?)\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(text);
  if (match) return { ...(match[1] && { name: match[1].replace(/^"|"$/g, '') }), address: match[2]! };
  return { address: text.trim() };
}

export function sendInvitationTask(deps: InvitationDependencies): Task {
  return async (payload) => {
    const job = payload as InvitationPayload;
    let invitation;
    try {
      invitation = await inviteUser(deps.sql, { orgId: job.orgId, userId: job.userId, now: deps.clock() });
    } catch (error) {
      // The user was deleted, or lost their address, before the job ran: nothing to send.
      if (error instanceof CredentialProblem) return void deps.log.info({ orgId: job.orgId, userId: job.userId, reason: error.message }, 'no invitation sent');
      throw error;
    }
    const url = new URL(`/account/invitations/${invitation.token}`, deps.publicBaseUrl).toString();
    const domain = deps.mailFrom.address.slice(deps.mailFrom.address.lastIndexOf('@') + 1);
    const sent = await deps.transports(null).send({
      orgId: job.orgId,
      mailingId: null,
      from: deps.mailFrom,
      to: { address: invitation.login },
      subject: 'You are invited to Cadence',
      html: `<p>You have been invited to Cadence. Set your password here (the link works once, for 7 days):</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p><p>You sign in as ${escapeHtml(invitation.login)}.</p>`,
      text: `You have been invited to Cadence. Set your password here (the link works once, for 7 days):\n\n${url}\n\nYou sign in as ${invitation.login}.`,
      messageId: `<${randomUUID()}@${domain}>`,
    });
    deps.log.info({ orgId: job.orgId, userId: job.userId, response: sent.response }, 'invitation sent');
  };
}
