import type { FieldError } from '../jsonapi/index.js';
import { actionFailed } from '../jsonapi/index.js';
import type { RecordReader, ResourceBehaviour, ReviewedWrite, WrittenRecord } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { enqueueRedeliveries } from '../webhooks/redelivery.js';

const REDELIVER = 'redeliver';

/**
 * A to-one relationship's id: locked rows (an action's record, a review's previous) carry it
 * under `rel:<name>` (runtime/model/sql-text.ts), written rows under its name.
 */
function linked(row: Row, relationship: string): number | null {
  const id = row[`rel:${relationship}`] ?? row[relationship];
  return id == null ? null : Number(id);
}
const WEBHOOK_POINTER = '/data/relationships/webhook';

/** Why a webhook cannot take a redelivery now, or undefined when it can. */
function webhookProblem(webhook: Row | undefined, now: Date): string | undefined {
  if (!webhook) return 'The webhook of this delivery was deleted: there is nothing to redeliver to';
  const why = typeof webhook.disabledReason === 'string' ? ` (${webhook.disabledReason})` : '';
  const until = typeof webhook.disabledUntil === 'string' ? Date.parse(webhook.disabledUntil) : undefined;
  if (until !== undefined && until > now.getTime()) {
    return `Webhook ${webhook.id} is disabled until ${new Date(until).toISOString()}${why}; redeliver once it is active again`;
  }
  if (webhook.active === false) return `Webhook ${webhook.id} is inactive${why}; set its active to true to redeliver`;
  return undefined;
}

/** The redeliver actions' webhooks, read with one statement, each checked as the delivery job would. */
async function redeliveryReviews(writes: readonly ReviewedWrite[], records: RecordReader, now: Date): Promise<{ problems?: FieldError[] }[]> {
  const redeliveries = writes.map((w) => (w.action === REDELIVER ? w.previous : null));
  const ids = redeliveries.flatMap((r) => (r && linked(r, 'webhook') !== null ? [linked(r, 'webhook')!] : []));
  const webhooks = ids.length ? await records.rows('webhook', ids) : new Map<number, Row>();
  return redeliveries.map((record) => {
    if (!record) return {};
    const webhookId = linked(record, 'webhook');
    const problem = webhookProblem(webhookId === null ? undefined : webhooks.get(webhookId), now);
    return problem ? { problems: [{ pointer: WEBHOOK_POINTER, detail: problem }] } : {};
  });
}

const redeliveryOf = (written: WrittenRecord) => ({
  eventId: linked(written.row, 'event')!,
  webhookId: linked(written.row, 'webhook')!,
  attempts: Number(written.row.attempts ?? 0),
});

/**
 * The delivery log (runtime/webhooks/delivery-log.ts writes it). Its records are bookkeeping:
 * writing them records no event, which also keeps a `*` webhook from hearing of its own
 * deliveries. Redeliver sends a record's event to its webhook again: refused while the record is
 * pending (attempts still to come) and when its webhook is deleted, inactive or disabled, and
 * otherwise enqueued with the write that marks the record pending again.
 */
export const webhookDeliveryBehaviour: ResourceBehaviour = {
  unrecorded: true,
  actions: {
    [REDELIVER]: {
      changes: ['state'],
      handle({ record }) {
        if (record.state === 'pending') {
          throw actionFailed('deliveryPending', `Webhook delivery ${record.id} is still pending: its attempts are not over; redeliver once it is delivered or failed`);
        }
        if (linked(record, 'event') === null) throw actionFailed('eventGone', `The event of webhook delivery ${record.id} no longer exists`);
        return { changes: { state: 'pending' } };
      },
    },
  },
  review: (writes, records, write) => redeliveryReviews(writes, records, write.now),
  async afterWrite(written, effects) {
    const redeliveries = written.filter((w) => w.action === REDELIVER).map(redeliveryOf);
    await enqueueRedeliveries(effects.tx, effects.orgId, redeliveries);
  },
};
