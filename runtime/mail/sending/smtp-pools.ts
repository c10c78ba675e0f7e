import { createHash } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';

/**
 * Pooled nodemailer transports, one per SMTP endpoint (address, port, TLS, login), kept by a
 * worker while it runs and closed when it stops. A set of messages to one server goes over a
 * few open connections, each carrying many messages, instead of a connection (and a login) per
 * message. The pool bounds how many connections, and so how many messages at once, go to one
 * endpoint.
 */

export interface SmtpPoolLimits {
  /** Connections open at once to one endpoint. */
  readonly maxConnections: number;
  /** Messages one connection carries before it is replaced. */
  readonly maxMessages: number;
}

/** Five connections of a hundred messages: what nodemailer's pool defaults to, and what shared mail servers tolerate. */
export const DEFAULT_SMTP_POOL_LIMITS: SmtpPoolLimits = { maxConnections: 5, maxMessages: 100 };

export type PooledTransport = Transporter<SMTPPool.SentMessageInfo>;

export class SmtpPools {
  private readonly pools = new Map<string, PooledTransport>();

  constructor(readonly limits: SmtpPoolLimits = DEFAULT_SMTP_POOL_LIMITS) {}

  /**
   * The pooled transport of the endpoint `options` describe, made once. The key is a hash of
   * the options, so no password sits in a map key.
   */
  transport(options: SMTPPool.Options): PooledTransport {
    const key = createHash('sha256').update(JSON.stringify(options)).digest('base64url');
    let pool = this.pools.get(key);
    if (!pool) {
      pool = nodemailer.createTransport({
        ...options,
        pool: true,
        maxConnections: this.limits.maxConnections,
        maxMessages: this.limits.maxMessages,
        // A connection that closes while a message is on it fails that message (a retry later,
        // as any lost connection) rather than handing it to another connection at once: the
        // server may have taken it already.
        maxRequeues: 0,
      });
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** How many endpoints have a pool. */
  get size(): number {
    return this.pools.size;
  }

  /** Closes every pool's connections (their messages in flight fail); the next send opens new ones. */
  close(): void {
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
  }
}
