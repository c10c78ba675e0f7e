import { request, type Agent } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkServerIdentity, createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { ConnectionTarget, DeliveryConnections } from './connections.js';

export interface WebhookRequest {
  /** An https: URL; its host names the certificate to expect and goes in the Host header. */
  readonly url: URL;
  /** The address resolveDeliveryTarget checked: the only one connected to. */
  readonly address: string;
  readonly family: 4 | 6;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface SendOptions {
  /** Connecting, TLS, sending and waiting for the status line together; SPEC.md says 5 s. */
  readonly timeoutMs: number;
  /** PEM certificates trusted in addition to the bundled root certificates. */
  readonly ca?: string | Buffer;
  /**
   * The same trust, built once (trustedContext). Building a context from the ~145 root
   * certificates costs ~30 ms of CPU, too much to repeat for every delivery.
   */
  readonly secureContext?: SecureContext;
  /**
   * Kept-alive connections per checked target (connections.ts); unset, each request has a
   * fresh connection of its own. `trust` names which of `ca` or `secureContext` is in use.
   */
  readonly connections?: DeliveryConnections;
  readonly trust?: string;
}

/** Root certificates plus an extra PEM bundle, as one reusable TLS context. */
export function trustedContext(ca: string | Buffer): SecureContext {
  return createSecureContext({ ca: [...rootCertificates, ca] });
}

export type SendResult =
  | { readonly kind: 'response'; readonly status: number; readonly latencyMs: number }
  | { readonly kind: 'network-error'; readonly error: string; readonly latencyMs: number };

export const RESPONSE_TIMEOUT_MS = 5000;

// The status is the acknowledgement; a little of the body is read so the receiver can finish.
const RESPONSE_BYTES_READ = 16 * 1024;

/**
 * One HTTPS POST. Any status, 3xx included, is a response (redirects are not followed);
 * failing to get one, for whatever reason, is a network error. Connects to `address` by IP,
 * so no second DNS lookup can send the request anywhere else, while the certificate is
 * still verified against the URL's host. With `connections`, the request goes over a kept-alive
 * connection to that same checked target when one is idle; a kept-alive connection that the
 * receiver closed just as it was reused is retried once on a fresh one, as Node's documentation
 * advises, since the request cannot have been answered.
 */
export function sendWebhook(webhook: WebhookRequest, options: SendOptions): Promise<SendResult> {
  const { url, address, family } = webhook;
  if (url.protocol !== 'https:') throw new TypeError(`webhooks are delivered over HTTPS only, not to ${url.protocol}`);
  if (isIP(address) !== family) throw new TypeError(`"${address}" is not an IPv${family} address`);
  const { connections } = options;
  if (!connections) return post(webhook, options, false).then((posted) => posted.result);
  const target = { address, family, port: portOf(url), hostname: hostnameOf(url), trust: options.trust ?? 'default' };
  return sendPooled(webhook, options, connections, target);
}

async function sendPooled(webhook: WebhookRequest, options: SendOptions, connections: DeliveryConnections, target: ConnectionTarget): Promise<SendResult> {
  const started = performance.now();
  const first = await connections.using(target, (agent) => post(webhook, options, agent));
  if (!first.staleReuse) return first.result;
  const again = await connections.using(target, (agent) => post(webhook, { ...options, timeoutMs: options.timeoutMs - (performance.now() - started) }, agent, true));
  return again.result.kind === 'network-error' ? again.result : { ...again.result, latencyMs: Math.round(performance.now() - started) };
}

function hostnameOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function portOf(url: URL): number {
  return url.port === '' ? 443 : Number(url.port);
}

/** A POST's result, and whether it failed on a reused connection the receiver had closed. */
interface Posted {
  readonly result: SendResult;
  readonly staleReuse: boolean;
}

function post(webhook: WebhookRequest, options: SendOptions, agent: Agent | false, fresh = false): Promise<Posted> {
  const { url, address, family } = webhook;
  const hostname = hostnameOf(url);
  const body = Buffer.from(webhook.body, 'utf8');
  let started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);

  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    let answered = false;
    let deadline: NodeJS.Timeout | undefined;
    const settle = (posted: Posted) => {
      if (settled) return;
      settled = true;
      resolve(posted);
    };
    const outgoing = request({
      host: address,
      family,
      port: portOf(url),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...webhook.headers, Host: url.host, 'Content-Length': String(body.length) },
      servername: isIP(hostname) === 0 ? hostname : undefined,
      checkServerIdentity: (_host, certificate) => checkServerIdentity(hostname, certificate),
      ...(options.secureContext ? { secureContext: options.secureContext } : { ca: options.ca === undefined ? undefined : [...rootCertificates, options.ca] }),
      // Without a pool, a fresh connection each time. A pool's agent is this target's alone
      // (connections.ts), so any socket it hands out was made to this address for this host.
      agent,
    });
    // The receiver's time runs from when the request has a connection: a pool's request may
    // first wait for one of its target's connections, which is no fault of the receiver's.
    outgoing.once('socket', () => {
      started = performance.now();
      deadline = setTimeout(
        () => {
          timedOut = true;
          outgoing.destroy(new Error('timeout'));
        },
        Math.max(0, options.timeoutMs),
      );
    });

    outgoing.on('response', (response) => {
      answered = true;
      settle({ result: { kind: 'response', status: response.statusCode ?? 0, latencyMs: latencyMs() }, staleReuse: false });
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        // Past what is read, the connection is not worth keeping: drop it rather than drain it.
        if (read >= RESPONSE_BYTES_READ) outgoing.destroy();
      });
      // Destroying the request after the status aborts the response; nobody waits for it.
      // Read to its end (the data listener keeps it flowing), it frees its connection instead.
      response.on('error', () => {});
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const staleReuse = !fresh && !timedOut && !answered && outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      settle({
        result: { kind: 'network-error', error: timedOut ? 'timeout' : (error.code ?? error.message), latencyMs: latencyMs() },
        staleReuse,
      });
    });
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.end(body);
  });
}
