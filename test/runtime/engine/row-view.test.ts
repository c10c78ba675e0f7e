import { describe, expect, it } from 'vitest';
import { mergeRows, rowsFromValues } from '../../../runtime/engine/row-view.js';

/** A row as postgres.js makes one: its columns assigned one by one, so a wide one is in dictionary mode. */
function rowOf(names: readonly string[], valueOf: (name: string, i: number) => unknown): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  names.forEach((name, i) => (row[name] = valueOf(name, i)));
  return row;
}

describe('mergeRows', () => {
  it('gives what spreading each base row and its own row gives, keys in the same order, for rows of 250 columns', () => {
    const names = ['id', ...Array.from({ length: 249 }, (_, i) => `column_${i}`)];
    const base = [1, 2, 3].map((id) => rowOf(names, (name, i) => (name === 'id' ? id : i % 3 === 0 ? null : `${name}-${id}`)));
    const own = [1, 2, 3].map((id) => ({ id, column_7: `new-${id}`, updated_at: new Date(id * 1000) }));
    const merged = mergeRows(base, own);
    expect(merged).toEqual(base.map((row, i) => ({ ...row, ...own[i] })));
    expect(merged.map((row) => Object.keys(row))).toEqual(base.map((row, i) => Object.keys({ ...row, ...own[i] })));
    // Copies: the locked rows stay as they were read, for the events' view of before and after.
    expect(base[0]!.column_7).toBe('column_7-1');
    expect(merged[0]).not.toBe(base[0]);
  });

  it('keeps names that are no identifiers, quotes, line separators and a __proto__ among them, as plain properties', () => {
    const odd = ['id', 'with "quotes"', "it's", 'line\u2028separator', 'back\\slash', 'ünïcode', '1st'];
    const base = [rowOf(odd, (name) => `base ${name}`)];
    expect(mergeRows(base, [{ "it's": 'own' }])).toEqual([{ ...base[0], "it's": 'own' }]);
    const withProto = JSON.parse('{"id": 1, "__proto__": "a column"}') as Record<string, unknown>;
    const [merged] = mergeRows([withProto], [{ id: 2 }]);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(merged, '__proto__')?.value).toBe('a column');
    expect(merged!.id).toBe(2);
  });

  it('answers no rows for no rows', () => {
    expect(mergeRows([], [])).toEqual([]);
  });
});

describe('rowsFromValues', () => {
  it('names each array of values as assigning the columns one by one would, later names winning, with the null columns after', () => {
    const names = ['id', 'first_name', 'with "quotes"', 'id'];
    const rows = rowsFromValues(names, [[1, 'Ada', 'q', 2]], ['omitted']);
    expect(rows).toEqual([{ id: 2, first_name: 'Ada', 'with "quotes"': 'q', omitted: null }]);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'first_name', 'with "quotes"', 'omitted']);
    const [proto] = rowsFromValues(['id', '__proto__'], [[1, 'a column']]);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toBe('a column');
  });
});
