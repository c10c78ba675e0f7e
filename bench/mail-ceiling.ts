// The ceiling of the mail part: the messages Cadence's worker sent, sent again to the same SMTP
// sink from the benchmark process by a bare pooled nodemailer transport (the same pool size and
// login as the worker's, no database, no rendering): what one process can push through
// nodemailer to this server, the figure Cadence's messages/s is set against.
import nodemailer from 'nodemailer';
import { DEFAULT_SMTP_POOL_LIMITS } from '../runtime/mail/index.js';
import type { SmtpSink, SunkMessage } from './smtp-sink.js';

export interface CeilingRun {
  readonly messages: number;
  readonly seconds: number;
  readonly messagesPerSecond: number;
  /** TCP connections the sink saw. */
  readonly connections: number;
}

export async function measureSmtpCeiling(sink: SmtpSink, login: { username: string; password: string }, messages: readonly SunkMessage[]): Promise<CeilingRun> {
  if (messages.length === 0) throw new Error('the worker sent no message for the ceiling to send again');
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    auth: { user: login.username, pass: login.password },
    pool: true,
    maxConnections: DEFAULT_SMTP_POOL_LIMITS.maxConnections,
    maxMessages: DEFAULT_SMTP_POOL_LIMITS.maxMessages,
    logger: false,
  });
  sink.reset();
  const started = performance.now();
  try {
    await Promise.all(messages.map((m) => transport.sendMail({ envelope: { from: m.from, to: m.to }, raw: m.raw })));
  } finally {
    transport.close();
  }
  const seconds = (performance.now() - started) / 1000;
  if (sink.received() !== messages.length) throw new Error(`the ceiling sent ${messages.length} messages but the sink received ${sink.received()}`);
  return { messages: messages.length, seconds, messagesPerSecond: messages.length / seconds, connections: sink.connections() };
}
