import { descriptors } from '../../generated/resources/index.js';
import { changesByName, type UpdateOperation } from '../engine/index.js';

/**
 * The activity counters the service keeps on sequences, their steps, their steps' uses of
 * templates and templates: each a count of mailings that reached a point (SPEC.md's reference
 * says "the total count of delivered mailings from this sequence", and so on), never of hits.
 */
export const MAILING_COUNTERS = ['scheduleCount', 'deliverCount', 'openCount', 'clickCount', 'replyCount', 'bounceCount', 'failureCount', 'optOutCount'] as const;
export type MailingCounter = (typeof MAILING_COUNTERS)[number];

/** Counts of prospects a sequence reached, and of its steps. */
export const SEQUENCE_COUNTERS = ['numContactedProspects', 'numRepliedProspects', 'sequenceStepCount'] as const;

/** The types whose rows carry the mailing counters, by the mailing's relationship to them. */
export const COUNTED_TYPES = ['sequence', 'sequenceStep', 'sequenceTemplate', 'template'] as const;
export type CountedType = (typeof COUNTED_TYPES)[number];

/** Every attribute the service keeps by these counts, per type (all start at 0 on create). */
export const COUNTERS_OF: Readonly<Record<CountedType, readonly string[]>> = {
  sequence: [...MAILING_COUNTERS, ...SEQUENCE_COUNTERS],
  sequenceStep: MAILING_COUNTERS,
  sequenceTemplate: MAILING_COUNTERS,
  template: MAILING_COUNTERS,
};

/** Besides the counts, the service stamps when a sequence or template was last used. */
const KEPT_OF: Readonly<Record<CountedType, readonly string[]>> = {
  ...COUNTERS_OF,
  sequence: [...COUNTERS_OF.sequence, 'lastUsedAt'],
  template: [...COUNTERS_OF.template, 'lastUsedAt'],
};

/**
 * Whether a reviewed update changes only what the service keeps (counts, lastUsedAt): such an
 * update is no edit of the record, so a locked sequence does not refuse it.
 */
export function changesOnlyActivity(type: CountedType, next: Readonly<Record<string, unknown>> | null, previous: Readonly<Record<string, unknown>> | null): boolean {
  if (!next || !previous) return false;
  const kept = new Set([...KEPT_OF[type], 'updatedAt', 'updater']);
  return Object.keys(next).every((name) => kept.has(name) || next[name] === previous[name]);
}

/** What one write adds to one record: counts by name, and lastUsedAt when it used the record. */
export interface Tally {
  readonly added: Map<string, number>;
  usedAt?: string;
}

/** Tallies by type and id, built while a written set is read. */
export class Tallies {
  private readonly byType = new Map<CountedType, Map<number, Tally>>();

  add(type: CountedType, id: unknown, counter: string, n = 1): void {
    const tally = this.of(type, id);
    if (tally) tally.added.set(counter, (tally.added.get(counter) ?? 0) + n);
  }

  used(type: CountedType, id: unknown, at: string): void {
    const tally = this.of(type, id);
    if (tally) tally.usedAt = at;
  }

  /** Adds another set's tallies to these (the later use stamp wins). */
  merge(other: Tallies): void {
    for (const [type, tallies] of other.byType) {
      for (const [id, tally] of tallies) {
        for (const [counter, n] of tally.added) this.add(type, id, counter, n);
        if (tally.usedAt !== undefined) this.used(type, id, tally.usedAt);
      }
    }
  }

  get empty(): boolean {
    return [...this.byType.values()].every((tallies) => tallies.size === 0);
  }

  /**
   * One update per record, each adding to the record as the writer locked it. Always in the one
   * order of COUNTED_TYPES and then ids, so two sets counting the same records lock them in the
   * same order and cannot deadlock.
   */
  updates(): UpdateOperation[] {
    return COUNTED_TYPES.flatMap((type) => [...(this.byType.get(type) ?? [])].sort(([a], [b]) => a - b).map(([id, tally]) => addTo(type, id, tally)));
  }

  private of(type: CountedType, id: unknown): Tally | undefined {
    const n = Number(id);
    if (id == null || !(n > 0)) return undefined;
    const tallies = this.byType.get(type) ?? new Map<number, Tally>();
    this.byType.set(type, tallies);
    const tally = tallies.get(n) ?? { added: new Map() };
    tallies.set(n, tally);
    return tally;
  }
}

/**
 * The update adding a tally to a record. It reads the record as the writer locked it, so
 * concurrent sets add up instead of overwriting each other; a count still null (a record from
 * before counts were kept and not yet counted) counts from 0.
 */
function addTo(type: CountedType, id: number, tally: Tally): UpdateOperation {
  return {
    kind: 'update',
    type,
    id,
    changes: (current) => {
      const values: Record<string, unknown> = {};
      for (const [name, n] of tally.added) if (n !== 0) values[name] = Math.max(0, Number(current[name] ?? 0) + n);
      if (tally.usedAt !== undefined) values.lastUsedAt = tally.usedAt;
      return changesByName(descriptors.get(type)!, values);
    },
  };
}
