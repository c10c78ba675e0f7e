import { descriptors } from '../../../generated/resources/index.js';
import { changesByName, type Behaviours, type ResourceBehaviour, type WriteEffects, type WriteOperation, type WrittenRecord } from '../../engine/index.js';
import { LIVE_STATES } from '../../sequences/steps.js';
import { touchPoints } from './touch-points.js';

/**
 * What mail results set in motion, as behaviour of the standard resources (hooks of the record
 * writer), so every path that writes them follows it: a tracking hit, a client's PATCH, a bulk
 * modify, an import.
 *
 * Prospect counters (SPEC.md: "the counts total all events over the prospect's mailings since
 * the last touch point and are not counts of distinct mailings"): the last touch point is the
 * prospect's `touchedAt`, set when one of their mailings is delivered, which also starts
 * `openCount`, `clickCount` and `replyCount` again from 0. From then on each open or click
 * recorded on any of their mailings adds one (the mailing's own count going up is what is
 * added), and sets `engagedAt`.
 */
export const mailTrackingBehaviour: ReadonlyMap<string, (written: readonly WrittenRecord[], effects: WriteEffects) => Promise<void>> = new Map([
  ['mailing', afterMailingWrites],
  ['prospect', afterProspectWrites],
]);

/** `behaviours` with the mail hooks run after whatever afterWrite each resource already has. */
export function withMailTracking(behaviours: Behaviours): Behaviours {
  const combined = new Map(behaviours);
  for (const [type, hook] of mailTrackingBehaviour) {
    const own: ResourceBehaviour | undefined = behaviours.get(type);
    combined.set(type, {
      ...own,
      async afterWrite(written, effects) {
        await own?.afterWrite?.(written, effects);
        await hook(written, effects);
      },
    });
  }
  return combined;
}

const count = (value: unknown) => (typeof value === 'number' ? value : Number(value ?? 0)) || 0;

async function afterMailingWrites(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const prospects = descriptors.get('prospect')!;
  const touched = new Set<number>();
  const added = new Map<number, { opens: number; clicks: number }>();
  for (const w of written) {
    const prospectId = Number(w.row.prospect);
    if (w.kind === 'delete' || !(prospectId > 0)) continue;
    const delivered = w.row.state === 'delivered' && (w.kind === 'create' || (w.changed.has('state') && w.previous?.state !== 'delivered'));
    if (delivered) touched.add(prospectId);
    const opens = count(w.row.openCount) - count(w.previous?.openCount);
    const clicks = count(w.row.clickCount) - count(w.previous?.clickCount);
    if (opens > 0 || clicks > 0) {
      const sum = added.get(prospectId) ?? { opens: 0, clicks: 0 };
      added.set(prospectId, { opens: sum.opens + Math.max(opens, 0), clicks: sum.clicks + Math.max(clicks, 0) });
    }
  }
  const at = effects.now.toISOString();
  // Touches first: a set that delivers one mailing and counts a hit on another starts the
  // counts from 0 and then adds the hit (the writer applies a record's second change after its first).
  await effects.writeInChunks([
    ...touchPoints(effects, touched),
    ...[...added].map(([id, sum]): WriteOperation => ({
      kind: 'update',
      type: 'prospect',
      id,
      // From the prospect as the writer locked it: hits on several of their mailings at once add up.
      changes: (current) =>
        changesByName(prospects, {
          ...(sum.opens > 0 && { openCount: count(current.openCount) + sum.opens }),
          ...(sum.clicks > 0 && { clickCount: count(current.clickCount) + sum.clicks }),
          engagedAt: at,
        }),
    })),
  ]);
}

/**
 * A prospect who opts out, of e-mail (`emailOptedOut`: an unsubscribe link, a PATCH, an import)
 * or of everything (`optedOut`), leaves every sequence they are live in: those states become
 * `opted_out`, and their pending step jobs go with them (runtime/sequences/scheduling.ts).
 */
async function afterProspectWrites(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const optingOut = written.filter(
    (w) => w.kind === 'update' && ((w.changed.has('emailOptedOut') && w.row.emailOptedOut === true) || (w.changed.has('optedOut') && w.row.optedOut === true)),
  );
  if (optingOut.length === 0) return;
  const live = await effects.records.find('sequenceState', { prospect: optingOut.map((w) => Number(w.row.id)), state: LIVE_STATES });
  await effects.writeInChunks(live.map((s) => effects.update('sequenceState', Number(s.id), { state: 'opted_out' })));
}
