import { Counter, type Registry } from 'prom-client';

/**
 * What a feature is handed to count how things ended: prom-client's Counter fits it, and a
 * feature needs nothing else of prom-client. Label values are fixed words (an outcome, a kind),
 * never an org's, a user's or a record's id.
 */
export interface LabelledCounter<Label extends string> {
  inc(labels: Record<Label, string>, value?: number): void;
}

/** Webhook deliveries by how their attempt ended: acknowledged, network-failure, private, unresolvable. */
export function webhookDeliveryCounter(registry: Registry): LabelledCounter<'outcome'> {
  return new Counter({
    name: 'cadence_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (acknowledged, network-failure, private, unresolvable)',
    labelNames: ['outcome'],
    registers: [registry],
  });
}

/** Mailings handed to a mail server, by its answer: delivered (sent), temporary, bounced, failed. */
export function mailOutcomeCounter(registry: Registry): LabelledCounter<'outcome'> {
  return new Counter({
    name: 'cadence_mail_messages_total',
    help: 'Mailings handed to a mail server by its answer (delivered, temporary, bounced, failed)',
    labelNames: ['outcome'],
    registers: [registry],
  });
}

/** Valid tracking URLs followed: opens, clicks and unsubscribes. */
export function trackingHitCounter(registry: Registry): LabelledCounter<'kind'> {
  return new Counter({
    name: 'cadence_tracking_hits_total',
    help: 'Valid tracking URLs served, by kind (open, click, unsubscribe)',
    labelNames: ['kind'],
    registers: [registry],
  });
}
