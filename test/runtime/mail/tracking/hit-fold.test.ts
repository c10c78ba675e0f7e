import { describe, expect, it } from 'vitest';
import type { Row } from '../../../../runtime/engine/render.js';
import { foldOperation } from '../../../../runtime/mail/tracking/hit-fold.js';
import type { MailingHits } from '../../../../runtime/mail/tracking/hit-store.js';

/**
 * What a fold writes on a mailing from its counted hits and the mailing as the writer locked
 * it: the same totals, first times and state as counting each hit in turn would give, and one
 * domain event per mailing and fold.
 */

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-01T10:00:01.000Z';
const T3 = '2026-01-01T10:00:02.000Z';

const hits = (given: Partial<MailingHits>): MailingHits => ({
  mailingId: 7,
  opens: 0,
  clicks: 0,
  firstOpenAt: undefined,
  firstClickAt: undefined,
  firstKind: 'open',
  ...given,
});

/** The update's changes by attribute name, and its domain event. */
function folded(set: MailingHits, current: Row): { values: Record<string, unknown>; event: string | undefined } {
  const { changes } = foldOperation(set);
  if (typeof changes !== 'function') throw new Error('the fold reads the locked mailing');
  const written = changes(current, new Date(T3));
  return { values: Object.fromEntries([...written.attributes].map(([attribute, value]) => [attribute.name, value])), event: written.domainEvent };
}

describe('a fold of hits on one mailing', () => {
  it.each([
    {
      case: 'first opens: counted, the first is openedAt, delivered becomes opened',
      set: hits({ opens: 3, firstOpenAt: T1 }),
      current: { openCount: null, state: 'delivered' },
      values: { openCount: 3, openedAt: T1, state: 'opened' },
      event: 'opened',
    },
    {
      case: 'more opens and a click: added, openedAt kept',
      set: hits({ opens: 2, clicks: 1, firstOpenAt: T2, firstClickAt: T3 }),
      current: { openCount: 5, openedAt: T1, clickCount: null, state: 'opened' },
      values: { openCount: 7, openedAt: T1, clickCount: 1, clickedAt: T3 },
      event: 'opened',
    },
    {
      case: 'a click before any open is the open too (images blocked)',
      set: hits({ opens: 1, clicks: 2, firstOpenAt: T2, firstClickAt: T1, firstKind: 'click' }),
      current: { openCount: 0, state: 'delivered' },
      values: { openCount: 2, openedAt: T1, clickCount: 2, clickedAt: T1, state: 'opened' },
      event: 'opened',
    },
    {
      case: 'clicks on an opened mailing: clicked, no open',
      set: hits({ clicks: 3, firstClickAt: T2, firstKind: 'click' }),
      current: { openCount: 1, openedAt: T1, clickCount: 4, clickedAt: T1, state: 'opened' },
      values: { clickCount: 7, clickedAt: T1 },
      event: 'clicked',
    },
    {
      case: 'an open before the mailing is marked delivered counts, and leaves its state',
      set: hits({ opens: 1, firstOpenAt: T1 }),
      current: { openCount: null, state: 'delivering' },
      values: { openCount: 1, openedAt: T1 },
      event: 'opened',
    },
  ])('$case', ({ set, current, values, event }) => {
    expect(folded(set, { id: 7, ...current })).toEqual({ values, event });
  });
});
