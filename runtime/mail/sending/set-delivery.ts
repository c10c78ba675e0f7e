import type { Row } from '../../engine/render.js';
import { outcomeOfError, type Outcome } from './smtp-outcome.js';
import type { SmtpPools } from './smtp-pools.js';
import type { MailTransport, OutgoingMessage, SentMessage, TransportFactory } from './transports.js';

/**
 * The SMTP step of a set send, with no transaction open: each mailbox's messages go through its
 * transport (asked for once per mailbox, so a host is checked once per set), at most
 * `perTransport` at a time, and the transports of the set are worked on side by side. A pooled
 * transport spreads them over its connections; the local one stores its set with one insert.
 * Every message ends with an outcome, whatever the others do.
 */

export interface SetMessage {
  readonly mailbox: Row;
  readonly message: OutgoingMessage;
}

export async function deliverSet(
  messages: readonly SetMessage[],
  transports: TransportFactory,
  pools: SmtpPools | undefined,
  perTransport: number,
): Promise<Map<number, Outcome>> {
  const byMailbox = new Map<number, MailTransport>();
  const byTransport = new Map<MailTransport, OutgoingMessage[]>();
  for (const { mailbox, message } of messages) {
    const id = Number(mailbox.id);
    let transport = byMailbox.get(id);
    if (!transport) byMailbox.set(id, (transport = transports(mailbox, pools)));
    const list = byTransport.get(transport) ?? [];
    list.push(message);
    byTransport.set(transport, list);
  }
  const outcomes = new Map<number, Outcome>();
  const settle = (message: OutgoingMessage, result: PromiseSettledResult<SentMessage>) =>
    outcomes.set(Number(message.mailingId), result.status === 'fulfilled' ? { kind: 'delivered', answer: result.value.response } : outcomeOfError(result.reason));
  await Promise.all(
    [...byTransport].map(async ([transport, list]) => {
      if (transport.sendSet) {
        const results = await transport.sendSet(list);
        list.forEach((message, i) => settle(message, results[i]!));
        return;
      }
      await inParallel(list, perTransport, async (message) => {
        const [result] = await Promise.allSettled([transport.send(message)]);
        settle(message, result);
      });
    }),
  );
  return outcomes;
}

/** Runs `work` over the items, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
