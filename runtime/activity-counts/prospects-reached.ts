import type { RecordReader, WrittenRecord } from '../engine/index.js';

/** A prospect a sequence reached by one record: a mailing delivered or replied to, a call. */
export interface Reach {
  readonly sequence: number;
  readonly prospect: number;
  /** The record (of the type given to firstReaches) that reached them, left out when looking for earlier ones. */
  readonly id: number;
}

/** The reach of a written mailing or call: none when it names no sequence or no prospect. */
export function reachOf(w: WrittenRecord): Reach[] {
  const sequence = Number(w.row.sequence);
  const prospect = Number(w.row.prospect);
  return sequence > 0 && prospect > 0 ? [{ sequence, prospect, id: Number(w.row.id) }] : [];
}

/** How a kind of reach is recognised among a sequence's earlier records. */
export interface EarlierReach {
  readonly type: 'mailing' | 'call';
  /** Whether an earlier record of `type` reached its prospect. */
  readonly reached: (row: Readonly<Record<string, unknown>>) => boolean;
}

/**
 * The sequences' prospects these records reach for the first time, counted per sequence (each
 * prospect once, however many records reach them). The sequences' keys are serialized first
 * (held to the end of the transaction), so two sets reaching one prospect at once see each
 * other's records: the second, reading after the first committed, does not count them again.
 */
export async function firstReaches(
  records: RecordReader,
  type: EarlierReach['type'],
  reaches: readonly Reach[],
  earlier: readonly EarlierReach[],
): Promise<Map<number, number>> {
  const firsts = new Map<number, number>();
  if (reaches.length === 0) return firsts;
  const sequences = [...new Set(reaches.map((r) => r.sequence))];
  const prospects = [...new Set(reaches.map((r) => r.prospect))];
  await records.serialize('sequenceProspects', sequences);
  const own = new Set(reaches.map((r) => r.id));
  const seen = new Set<string>();
  for (const kind of earlier) {
    for (const row of await records.find(kind.type, { sequence: sequences, prospect: prospects })) {
      if (!(kind.type === type && own.has(Number(row.id))) && kind.reached(row)) seen.add(`${Number(row.sequence)}:${Number(row.prospect)}`);
    }
  }
  for (const r of reaches) {
    const key = `${r.sequence}:${r.prospect}`;
    if (seen.has(key)) continue;
    seen.add(key);
    firsts.set(r.sequence, (firsts.get(r.sequence) ?? 0) + 1);
  }
  return firsts;
}
