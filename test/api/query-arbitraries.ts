import fc from 'fast-check';
import type { AttributeFilter, TextAttribute, ValueFilter } from './query-model.js';

/**
 * Random filters over prospects' text attributes, shared by the property tests of collection
 * queries (query-property.test.ts) and of bulk action selections (bulk-action-selection.test.ts).
 */

/** Values a filter may name: most of them `held` by some row (so filters hit), some that no row holds. */
export function filterValueArbitrary(held: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: fc.constantFrom(...held), weight: 3 }, { arbitrary: fc.stringMatching(/^[a-f]{1,3}$/), weight: 1 });
}

/** A values list, a range, or a null marker on `attribute`; `held` are the values rows hold. */
export function filterArbitrary(attribute: TextAttribute, newFilterSyntax: boolean, held: readonly string[]): fc.Arbitrary<AttributeFilter> {
  const value = filterValueArbitrary(held);
  // In the new syntax commas and `..` are literal, so such values match nothing here.
  const listed = newFilterSyntax ? fc.oneof({ arbitrary: value, weight: 6 }, fc.constantFrom('ada,bob', 'a..z')) : value;
  const range = fc.record({ gte: value, lte: value }, { requiredKeys: [] }).filter((r) => !newFilterSyntax || r.gte !== undefined || r.lte !== undefined);
  const filter: fc.Arbitrary<ValueFilter> = fc.oneof(
    fc.array(listed, { minLength: 1, maxLength: 3 }).map((values) => ({ kind: 'in' as const, values })),
    range.map((r) => ({ kind: 'range' as const, ...r })),
    fc.constant({ kind: 'null' as const }),
    fc.constant({ kind: 'notNull' as const }),
  );
  return filter.map((f) => ({ attribute, filter: f }));
}
