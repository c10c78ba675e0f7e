import type { ResourceBehaviour } from '../engine/index.js';

/** `2026-01-01T00:00:00.000Z` as `"1767225600"`; anything else as it is. */
function epochSeconds(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : String(Math.floor(ms / 1000));
}

/**
 * Batches render createdAt and updatedAt as numeric strings of epoch seconds, not ISO 8601
 * (SPEC.md "Batch"); they are stored, filtered and sorted as timestamps like everywhere else.
 */
export const batchBehaviour: ResourceBehaviour = {
  present(row) {
    return { ...row, createdAt: epochSeconds(row.createdAt), updatedAt: epochSeconds(row.updatedAt) };
  },
};
