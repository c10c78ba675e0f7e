import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type postgres from 'postgres';
import { localTransport, SEND_MAILING_TASK, SEND_MAILINGS_TASK, smtpSettingsOf, smtpTransport, type TransportFactory } from '../../runtime/mail/index.js';
import type { TestApi } from './api.js';
import { loopbackMailServers } from './mail-servers.js';
import type { SimulatedClock } from './sequences.js';
import { until } from './wait.js';

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package), for test/api/mail-sending.test.ts.
 * It keeps every message it accepts, byte for byte, and the logins it was given; `answer`
 * decides, per message, whether it accepts it or answers 4xx or 5xx after DATA, as a real
 * server refusing a recipient or deferring would.
 */

export interface ReceivedMessage {
  readonly from: string;
  readonly to: string[];
  /** The message as received, headers and body, CRLF line ends. */
  readonly raw: string;
}

export type SmtpAnswer = 'accept' | { readonly code: number; readonly message: string };

export interface TestSmtpServer {
  readonly port: number;
  readonly received: ReceivedMessage[];
  /** username:password of each login, to check what a mailbox sent. */
  readonly logins: string[];
  /** TCP connections accepted so far: none, for a server the address rule refused. */
  readonly connections: number;
  /** Connections open now. */
  readonly openConnections: number;
  /** What the next messages get; 'accept' by default. A promise holds the answer until it settles (a server that is slow to answer). */
  answer: (message: ReceivedMessage) => SmtpAnswer | Promise<SmtpAnswer>;
  close(): Promise<void>;
}

export async function startSmtpServer(options: { username?: string; password?: string; banner?: string } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMessage[] = [];
  const logins: string[] = [];
  const state: { answer: (message: ReceivedMessage) => SmtpAnswer | Promise<SmtpAnswer> } = { answer: () => 'accept' };
  const address = (a: SMTPServerAddress | false) => (a ? a.address : '');
  let connections = 0;
  let open = 0;
  const server = new SMTPServer({
    ...(options.banner !== undefined && { banner: options.banner }),
    // Plain SMTP on loopback: no STARTTLS offered, logins allowed without TLS.
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: options.username === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      if (auth.username === options.username && auth.password === options.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = { from: address(session.envelope.mailFrom), to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') };
        void Promise.resolve(state.answer(message)).then((answer) => {
          if (answer === 'accept') {
            received.push(message);
            return callback(null, 'OK: queued as test');
          }
          return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
        });
      });
    },
  });
  server.server.on('connection', (socket: import('node:net').Socket) => {
    connections += 1;
    open += 1;
    socket.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    logins,
    get connections() {
      return connections;
    },
    get openConnections() {
      return open;
    },
    get answer() {
      return state.answer;
    },
    set answer(next) {
      state.answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SEND_TASKS = [SEND_MAILINGS_TASK, SEND_MAILING_TASK];

/** Makes the send jobs due by the simulated clock runnable now (see releaseDueSteps). */
export async function releaseDueSends(api: TestApi, clock: SimulatedClock): Promise<number> {
  const released = await api.sql`
    update graphile_worker._private_jobs j set run_at = now()
      from graphile_worker._private_tasks t
     where t.id = j.task_id and t.identifier in ${api.sql(SEND_TASKS)} and j.run_at <= ${clock.now().toISOString()}::timestamptz and j.run_at > now()`;
  return released.count;
}

/**
 * Sends waiting (mailing_sends not being delivered): their due times by mailing id, for those
 * with a sender job of their org at or before that time to send them.
 */
export async function pendingSends(api: TestApi): Promise<Map<number, string>> {
  const rows = await api.sql<{ mailing: string; due_at: Date }[]>`
    select s.mailing_id as mailing, s.due_at from mailing_sends s
     where s.claimed_by is null and exists (
       select 1 from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${SEND_MAILINGS_TASK} and (j.payload->>'orgId')::bigint = s.org_id and j.run_at < s.due_at + interval '1 second' and j.locked_at is null)`;
  return new Map(rows.map((r) => [Number(r.mailing), r.due_at.toISOString()]));
}

/** Until no send job is due or running. */
export async function sendsSettled(api: TestApi): Promise<void> {
  await until('due send jobs to have run', async () => {
    // A locked job is running whatever its attempts: graphile-worker sets a running job's attempts
    // to max_attempts when a new job takes over its key, so that it is not retried.
    const [row] = await api.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier in ${api.sql(SEND_TASKS)} and (j.locked_at is not null or (j.run_at <= now() and j.attempts < j.max_attempts))`;
    return row!.n === 0 ? true : undefined;
  });
}

/** The decoded text of a quoted-printable body part. */
export function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

/**
 * Transports for tests: a mailbox's own SMTP settings, sent to 127.0.0.1 whatever host they
 * name (mailboxes name an outside host, which no test may reach), through the address rule
 * with 127.0.0.1 allowed, over the worker's pools when it has them; else the local transport.
 */
export function loopbackTransports(sql: postgres.Sql, clock: () => Date): TransportFactory {
  const local = localTransport(sql, clock);
  return (mailbox, pools) => {
    const settings = smtpSettingsOf(mailbox);
    return settings ? smtpTransport({ ...settings, host: '127.0.0.1' }, loopbackMailServers, pools) : local;
  };
}
