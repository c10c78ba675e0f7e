import type { WrittenRecord } from '../engine/index.js';
import type { MailingCounter } from './counters.js';

/** Whether the write set a stamp the mailing did not have: the first time it got there. */
function stamped(w: WrittenRecord, name: string): boolean {
  return w.row[name] != null && w.previous?.[name] == null;
}

function became(w: WrittenRecord, state: string): boolean {
  return w.row.state === state && (w.kind === 'create' || w.previous?.state !== state);
}

/**
 * What a written mailing now counts toward: each point a mailing reaches once. A mailing is
 * scheduled when it is made to be sent (created scheduled, or scheduled from a draft), not
 * again when a retry puts it back from `delivering`; it is opened, clicked, delivered, replied,
 * bounced or opted out the first time its stamp is set; failed when it becomes `failed`.
 */
export function countedOutcomes(w: WrittenRecord): MailingCounter[] {
  if (w.kind === 'delete') return [];
  const outcomes: MailingCounter[] = [];
  if (became(w, 'scheduled') && w.previous?.state !== 'delivering') outcomes.push('scheduleCount');
  if (stamped(w, 'deliveredAt')) outcomes.push('deliverCount');
  if (stamped(w, 'openedAt')) outcomes.push('openCount');
  if (stamped(w, 'clickedAt')) outcomes.push('clickCount');
  if (stamped(w, 'repliedAt')) outcomes.push('replyCount');
  if (stamped(w, 'bouncedAt')) outcomes.push('bounceCount');
  if (became(w, 'failed')) outcomes.push('failureCount');
  if (stamped(w, 'unsubscribedAt')) outcomes.push('optOutCount');
  return outcomes;
}

/** Whether the write made the mailing from its template (created with it, or the template set). */
export function usesTemplate(w: WrittenRecord): boolean {
  return w.kind !== 'delete' && w.row.template != null && (w.kind === 'create' || w.changed.has('template'));
}
