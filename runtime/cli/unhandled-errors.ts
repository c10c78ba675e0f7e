import type { Logger } from 'pino';

/**
 * What `cadence serve` and `cadence worker` do with an error that escaped every handler: an
 * 'error' event of a socket or a stream that nobody listened to (an IMAP or SMTP connection,
 * a CSV parser, a PostgreSQL connection), or a promise that a request or a job forgot to await.
 * Node's default is to end the process, for fear that the throw left memory half-updated. Here
 * that would turn one tenant's odd mail server or file into an outage for every tenant, and
 * Cadence keeps nothing in memory that such a throw could leave inconsistent: configuration is
 * read once, and every state that matters lives in PostgreSQL and changes in transactions, which
 * roll back when their statement or connection fails. So the error is logged, with the request or
 * job it came from failing or timing out on its own (graphile-worker retries a failed job), and
 * the process goes on serving everyone else.
 */
export function logUnhandledErrors(log: Logger): void {
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection; the process goes on'));
  process.on('uncaughtException', (error, origin) => log.error({ err: error, origin }, 'uncaught exception; the process goes on'));
}
