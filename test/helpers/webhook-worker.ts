import { pino } from 'pino';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { makeCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';
import { startTestApi, type TestApi } from './api.js';

/** The host name webhooks point at: the worker's injected resolver answers it with 127.0.0.1. */
export const WEBHOOK_HOST = 'hooks.example.test';

export interface WebhookSetup {
  readonly api: TestApi;
  readonly worker: StartedWorker;
  /** HTTPS on 127.0.0.1 with a certificate for *.example.test; answers every delivery 200. */
  readonly receiver: Receiver;
  /** The receiver's URL under WEBHOOK_HOST, for a webhook's `url`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An API, an HTTPS receiver and a real worker (concurrency 2) that delivers webhooks to it:
 * what tests of events reaching subscribers start with.
 */
export async function startWebhookSetup(): Promise<WebhookSetup> {
  const certificate = await makeCertificate('*.example.test');
  const receiver = await startReceiver(certificate, (_request, response) => response.end('ok'));
  const api = await startTestApi();
  const worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set([WEBHOOK_HOST]), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
  return {
    api,
    worker,
    receiver,
    url: `https://${WEBHOOK_HOST}:${receiver.port}/hook`,
    async close() {
      await worker.stop();
      await api.close();
      await receiver.close();
    },
  };
}
