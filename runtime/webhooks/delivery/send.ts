import { request } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkServerIdentity, createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

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
 * still verified against the URL's host.
 */
export function sendWebhook(webhook: WebhookRequest, options: SendOptions): Promise<SendResult> {
  const { url, address, family } = webhook;
  if (url.protocol !== 'https:') throw new TypeError(`webhooks are delivered over HTTPS only, not to ${url.protocol}`);
  if (isIP(address) !== family) throw new TypeError(`"${address}" is not an IPv${family} address`);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const body = Buffer.from(webhook.body, 'utf8');
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);

  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const outgoing = request({
      host: address,
      family,
      port: url.port === '' ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...webhook.headers, Host: url.host, 'Content-Length': String(body.length) },
      servername: isIP(hostname) === 0 ? hostname : undefined,
      checkServerIdentity: (_host, certificate) => checkServerIdentity(hostname, certificate),
      ...(options.secureContext ? { secureContext: options.secureContext } : { ca: options.ca === undefined ? undefined : [...rootCertificates, options.ca] }),
      // A fresh connection each time: a pooled socket could be one made to another address.
      agent: false,
    });
    const deadline = setTimeout(() => {
      timedOut = true;
      outgoing.destroy(new Error('timeout'));
    }, options.timeoutMs);

    outgoing.on('response', (response) => {
      settle({ kind: 'response', status: response.statusCode ?? 0, latencyMs: latencyMs() });
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= RESPONSE_BYTES_READ) outgoing.destroy();
      });
      // Destroying the request after the status aborts the response; nobody waits for it.
      response.on('error', () => {});
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      settle({
        kind: 'network-error',
        error: timedOut ? 'timeout' : (error.code ?? error.message),
        latencyMs: latencyMs(),
      });
    });
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.end(body);
  });
}
