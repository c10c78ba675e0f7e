import type { EarlierReach } from './prospects-reached.js';

/**
 * numContactedProspects: "the total count of prospects who have been either called or
 * emailed": a mailing of the sequence delivered to them, or a call logged to them in it.
 */
export const CONTACTED: readonly EarlierReach[] = [
  { type: 'mailing', reached: (row) => row.deliveredAt != null },
  { type: 'call', reached: () => true },
];

/** numRepliedProspects: prospects who replied to a mailing of the sequence. */
export const REPLIED: readonly EarlierReach[] = [{ type: 'mailing', reached: (row) => row.repliedAt != null }];
