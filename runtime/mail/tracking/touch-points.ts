import type { WriteEffects, WriteOperation } from '../../engine/index.js';

/**
 * A touch point: the service or a person reaching out to a prospect (a mailing delivered to
 * them, a call logged to them). SPEC.md: "the counts total all events over the prospect's
 * mailings since the last touch point", so each one sets `touchedAt` and starts `openCount`,
 * `clickCount` and `replyCount` again from 0.
 */
export function touchPoints(effects: WriteEffects, prospectIds: Iterable<number>): WriteOperation[] {
  const at = effects.now.toISOString();
  return [...new Set(prospectIds)].map((id) => effects.update('prospect', id, { touchedAt: at, openCount: 0, clickCount: 0, replyCount: 0 }));
}
