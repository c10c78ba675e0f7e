/**
 * SPEC.md's Versioning rule 3: collection queries count by default only for tokens of apps
 * registered before 2024-10-13, and only until those are switched on 2025-02-12. User tokens
 * and newer apps count only with count=true.
 */
export const COUNT_DEFAULT_CUTOFF = new Date('2024-10-13T00:00:00Z');
export const COUNT_DEFAULT_SWITCH = new Date('2025-02-12T00:00:00Z');

/** Counting stops here: SPEC.md's count cap. */
export const COUNT_CAP = 2_000_000;

export function countsByDefault(appRegisteredAt: Date | null, now: Date): boolean {
  return appRegisteredAt !== null && appRegisteredAt < COUNT_DEFAULT_CUTOFF && now < COUNT_DEFAULT_SWITCH;
}
