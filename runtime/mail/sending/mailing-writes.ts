import type { WriteEffects, WrittenRecord } from '../../engine/index.js';
import { LIVE_STATES } from '../../sequences/steps.js';
import { scheduleSends, sendDueAt, unscheduleSends } from './send-queue.js';

/**
 * What a written set of mailings sets in motion, whoever wrote it (POST /mailings, a sequence's
 * auto_email step, a task's deliver, the send job itself):
 * - a mailing `scheduled` (created so, moved to it, or given a new scheduledAt or retryAt) is a
 *   send due at that time (send-queue.ts), replacing any earlier one;
 * - one that leaves `scheduled` or `delivering` for anything but the other (the sender taking
 *   it, or a retry), or is deleted, loses its send;
 * - a bounce moves the mailing's sequence state, while it is live, to `bounced`, which removes
 *   its pending step (runtime/sequences/scheduling.ts);
 * - a delivery completes the e-mail task waiting for it (`in progress` since its deliver action),
 *   which moves its sequence state on.
 */
export async function afterMailingWrites(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  await rescheduleSends(written, effects);
  await bounceSequenceStates(written, effects);
  await completeDeliveredTasks(written, effects);
}

function movedTo(w: WrittenRecord, state: string): boolean {
  return w.kind === 'update' && w.changed.has('state') && w.row.state === state;
}

async function rescheduleSends(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const starting = written.filter(
    (w) =>
      w.kind !== 'delete' && w.row.state === 'scheduled' && (w.kind === 'create' || w.changed.has('state') || w.changed.has('scheduledAt') || w.changed.has('retryAt')),
  );
  const sending = (state: unknown) => state === 'scheduled' || state === 'delivering';
  const stopping = written.filter((w) => (w.kind === 'delete' ? sending(w.row.state) : w.changed.has('state') && sending(w.previous?.state) && !sending(w.row.state)));
  await unscheduleSends(
    effects.tx,
    effects.orgId,
    stopping.map((w) => Number(w.row.id)),
  );
  await scheduleSends(
    effects.tx,
    effects.orgId,
    starting.map((w) => ({ mailingId: Number(w.row.id), dueAt: sendDueAt(w.row, effects.now) })),
  );
}

async function bounceSequenceStates(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const bounced = written.filter((w) => movedTo(w, 'bounced') && w.row.sequenceState != null);
  if (bounced.length === 0) return;
  const states = await effects.records.rows(
    'sequenceState',
    bounced.map((w) => Number(w.row.sequenceState)),
  );
  await effects.write(
    bounced.flatMap((w) => {
      const state = states.get(Number(w.row.sequenceState));
      if (!state || !LIVE_STATES.includes(String(state.state))) return [];
      return [
        effects.update('sequenceState', Number(state.id), {
          state: 'bounced',
          errorReason: `Mailing ${String(w.row.id)} bounced: ${typeof w.row.errorReason === 'string' ? w.row.errorReason : 'no reason given'}`,
        }),
      ];
    }),
  );
}

async function completeDeliveredTasks(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const delivered = written.filter((w) => movedTo(w, 'delivered')).map((w) => Number(w.row.id));
  if (delivered.length === 0) return;
  const waiting = await effects.records.find('task', { mailing: delivered, state: ['in progress'] });
  await effects.write(waiting.map((t) => effects.action('task', Number(t.id), 'markComplete')));
}
