import { lookup } from 'node:dns/promises';
import { request } from 'node:http';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AdminError } from '../operator/index.js';
import { DELIVERY_ATTEMPTS, RESPONSE_TIMEOUT_MS, RETRY_DELAY_MS, sendWebhook, type SendResult } from '../webhooks/delivery/index.js';

/** How a forward ended: the last attempt's result, and how many attempts were made. */
export interface Forwarded {
  readonly result: SendResult;
  readonly attempts: number;
}

/**
 * The --forward-to URL. Plain HTTP only to this machine (localhost, 127.0.0.0/8, ::1): listen
 * runs on the operator's own machine, where a receiver under development listens on loopback;
 * anywhere else the body would cross a network in the clear, so it must be https.
 */
export function forwardTarget(text: string | undefined): URL {
  if (text === undefined || text === '') throw new AdminError('--forward-to is required (e.g. http://127.0.0.1:4000/hook)');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AdminError(`--forward-to must be a URL, not "${text}"`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol !== 'http:') throw new AdminError(`--forward-to must be an http: or https: URL, not ${url.protocol}`);
  if (!isLoopback(url.hostname)) throw new AdminError(`--forward-to: plain http is only sent to this machine (localhost, 127.0.0.1, [::1]); use https for ${url.host}`);
  return url;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * POSTs a delivery's body and headers to `url`, with SPEC.md's retry rule for deliveries: any
 * status acknowledges it; a network failure is tried again, one second later, up to 4 attempts.
 */
export async function forwardDelivery(url: URL, body: string, headers: Readonly<Record<string, string>>): Promise<Forwarded> {
  for (let attempt = 1; ; attempt++) {
    const result = await postOnce(url, body, headers);
    if (result.kind === 'response' || attempt >= DELIVERY_ATTEMPTS) return { result, attempts: attempt };
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
  }
}

async function postOnce(url: URL, body: string, headers: Readonly<Record<string, string>>): Promise<SendResult> {
  if (url.protocol === 'http:') return postPlain(url, body, headers);
  // https goes out as a real delivery does (send.ts), to the address the host resolves to now;
  // no private-address check: the operator chose the receiver.
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let address: { address: string; family: number };
  try {
    address = isIP(hostname) ? { address: hostname, family: isIP(hostname) } : await lookup(hostname);
  } catch (error) {
    return { kind: 'network-error', error: (error as NodeJS.ErrnoException).code ?? 'unresolvable', latencyMs: 0 };
  }
  return sendWebhook({ url, address: address.address, family: address.family as 4 | 6, body, headers }, { timeoutMs: RESPONSE_TIMEOUT_MS });
}

/** One plain-HTTP POST to a loopback receiver, with the same headers and timeout as send.ts. */
function postPlain(url: URL, body: string, headers: Readonly<Record<string, string>>): Promise<SendResult> {
  const bytes = Buffer.from(body, 'utf8');
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: { ...headers, Host: url.host, 'Content-Length': String(bytes.length) },
      agent: false,
    });
    // Connecting, sending and waiting for the status line together, as for a real delivery.
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      outgoing.destroy(new Error('timeout'));
    }, RESPONSE_TIMEOUT_MS);
    outgoing.on('close', () => clearTimeout(deadline));
    outgoing.on('response', (response) => {
      resolve({ kind: 'response', status: response.statusCode ?? 0, latencyMs: latencyMs() });
      response.resume();
      response.on('error', () => {});
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ kind: 'network-error', error: timedOut ? 'timeout' : (error.code ?? error.message), latencyMs: latencyMs() });
    });
    outgoing.end(bytes);
  });
}
