import type { WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import type { InboxMessage } from './imap-client.js';
import { classifyMessage, messageIdsIn, type MessageKind } from './message-headers.js';
import { pauseOutOfOffice } from './out-of-office.js';
import { answerReplies } from './reply-actions.js';
import { lockedRows, written } from './service-writes.js';

/** A message answering one of the org's mailings, and how. */
interface Answer {
  readonly key: string;
  readonly kind: Exclude<MessageKind, 'automated'>;
  readonly mailing: Row;
}

/**
 * Acts on a mailbox's new messages, in the caller's transaction: a reply marks its mailing
 * replied, counts on the prospect and finishes, pauses or marks replied the mailing's sequence
 * state, as its sequence says (reply-actions.ts); an out-of-office
 * answer pauses the state. Each message is claimed in mail_sync_messages first, so one seen
 * again does nothing. Answers how many replies and automatic replies were applied.
 */
export async function applyMessages(
  effects: WriteEffects,
  mailboxId: number,
  uidValidity: string,
  messages: readonly InboxMessage[],
): Promise<{ replies: number; autoReplies: number }> {
  const answers = await answersOf(effects, mailboxId, uidValidity, messages);
  const claimed = await claim(effects, mailboxId, answers);
  const replies = claimed.filter((a) => a.kind === 'reply');
  const autoReplies = claimed.filter((a) => a.kind === 'auto_reply');
  await applyReplies(effects, replies);
  await pauseOutOfOffice(
    effects,
    autoReplies.map((a) => a.mailing),
  );
  return { replies: replies.length, autoReplies: autoReplies.length };
}

/**
 * The messages that answer a mailing: by In-Reply-To first, else the newest mailing among its
 * References (which list a thread oldest first). A message that is itself one of our mailings
 * (a copy of what was sent) answers nothing.
 */
async function answersOf(effects: WriteEffects, mailboxId: number, uidValidity: string, messages: readonly InboxMessage[]): Promise<Answer[]> {
  const referenced = new Set(
    messages.flatMap((m) => [...messageIdsIn(m.headers.get('in-reply-to')), ...messageIdsIn(m.headers.get('references')), ...messageIdsIn(m.headers.get('message-id'))]),
  );
  if (referenced.size === 0) return [];
  const mailings = new Map((await effects.records.find('mailing', { messageId: [...referenced] })).map((m) => [String(m.messageId), m]));
  const answers: Answer[] = [];
  for (const message of messages) {
    const [ownId] = messageIdsIn(message.headers.get('message-id'));
    if (ownId && mailings.has(ownId)) continue;
    const kind = classifyMessage(message.headers, message.subject);
    if (kind === 'automated') continue;
    const candidates = [...messageIdsIn(message.headers.get('in-reply-to')), ...messageIdsIn(message.headers.get('references')).reverse()];
    const mailing = candidates.map((id) => mailings.get(id)).find((m) => m !== undefined);
    if (!mailing) continue;
    answers.push({ key: ownId ?? `uid:${mailboxId}:${uidValidity}:${message.uid}`, kind, mailing });
  }
  return answers;
}

/** The answers not applied before, each recorded as applied now (the first of a key in the batch wins). */
async function claim(effects: WriteEffects, mailboxId: number, answers: readonly Answer[]): Promise<Answer[]> {
  if (answers.length === 0) return [];
  const rows = await effects.tx.unsafe<{ key: string }[]>(
    `insert into mail_sync_messages (org_id, message_key, mailbox_id, mailing_id, kind, applied_at)
     select $1, a.key, $2, a.mailing, a.kind, $3 from jsonb_to_recordset($4::jsonb) as a(key text, mailing bigint, kind text)
     on conflict do nothing returning message_key as key`,
    [effects.orgId, mailboxId, effects.now.toISOString(), answers.map((a) => ({ key: a.key, mailing: Number(a.mailing.id), kind: a.kind }))] as never[],
  );
  const fresh = new Set(rows.map((r) => r.key));
  return answers.filter((a) => fresh.delete(a.key));
}

async function applyReplies(effects: WriteEffects, replies: readonly Answer[]): Promise<void> {
  if (replies.length === 0) return;
  const now = effects.now.toISOString();
  const mailingIds = [...new Set(replies.map((r) => Number(r.mailing.id)))];
  await written(
    effects,
    mailingIds.map((id) => effects.update('mailing', id, { state: 'replied', repliedAt: now, stateChangedAt: now }, 'replied')),
  );

  // Counters are read and written under a row lock: two mailboxes' syncs may count for one prospect.
  const perProspect = countBy(replies.map((r) => r.mailing.prospect));
  const prospects = await lockedRows(effects, 'prospect', [...perProspect.keys()]);
  await written(
    effects,
    [...prospects.values()].map((p) => effects.update('prospect', Number(p.id), { replyCount: Number(p.replyCount ?? 0) + perProspect.get(Number(p.id))! })),
  );

  const perState = countBy(replies.map((r) => r.mailing.sequenceState));
  const states = await lockedRows(effects, 'sequenceState', [...perState.keys()]);
  await answerReplies(effects, [...states.values()], perState);
}

/** How many times each id occurs, nulls left out. */
function countBy(ids: readonly unknown[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const id of ids) if (id != null) counts.set(Number(id), (counts.get(Number(id)) ?? 0) + 1);
  return counts;
}
