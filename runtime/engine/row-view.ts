/**
 * `own` laid over `base`: a name `own` has is read from it, any other from `base`, which stays
 * as it was. A Proxy, not `Object.create(base)`: reading through an object as a prototype makes
 * V8 rebuild its map for fast lookups, which for a row of 200 columns cost more per record than
 * the copy the view saves (a sixth of a step set's worker time, issue #26). Read a view by name:
 * spreading it or listing its keys gives `own` alone.
 */
export function overlayView<T extends object>(base: T, own: Record<string, unknown>): T {
  return new Proxy(own, new Overlay(base as Record<PropertyKey, unknown>)) as T;
}

/**
 * The traps of an overlay view, as methods: arrows made per view would each be named as they are
 * made (tsx compiles with esbuild's keepNames), two property definitions for every record.
 */
class Overlay implements ProxyHandler<Record<PropertyKey, unknown>> {
  constructor(private readonly base: Record<PropertyKey, unknown>) {}

  get(target: Record<PropertyKey, unknown>, name: PropertyKey): unknown {
    return Object.hasOwn(target, name) ? target[name] : this.base[name];
  }

  has(target: Record<PropertyKey, unknown>, name: PropertyKey): boolean {
    return name in target || name in this.base;
  }
}

type Merge = (base: Record<string, unknown>, own: Record<string, unknown>) => Record<string, unknown>;

/** Mergers compiled so far, by their two lists of names; a set of tables and column groups, bounded anyway. */
const mergers = new Map<string, Merge>();
/** Functions compiled per cache: more than this many, and the cache starts again. */
const MAX_COMPILED = 1000;

/** The function `compile` makes of two lists of names, from `cache` when made before. */
function compiled<F>(cache: Map<string, F>, first: readonly string[], second: readonly string[], compile: (first: readonly string[], second: readonly string[]) => F): F {
  const key = `${first.join('\0')}\u0001${second.join('\0')}`;
  let made = cache.get(key);
  if (!made) {
    made = compile(first, second);
    if (cache.size >= MAX_COMPILED) cache.clear();
    cache.set(key, made);
  }
  return made;
}

/**
 * A copy of each `base` row with the matching `own` row laid over it, as `{ ...base, ...own }`
 * gives (every base row has the same names, as rows of one statement do; so has every own row).
 * The copy is made by a function compiled once per pair of name lists, an object literal that
 * names every column: a row of 250 columns as postgres.js reads it is an object in dictionary
 * mode, and spreading one cost ~70 µs (a fifth of a bulk modify's worker time, issue #26); the
 * literal is built about five times faster and comes out with fast properties, quicker to read.
 */
export function mergeRows<T extends Record<string, unknown>>(base: readonly T[], own: readonly Record<string, unknown>[]): T[] {
  if (base.length === 0) return [];
  const baseNames = Object.keys(base[0]!);
  const ownNames = Object.keys(own[0] ?? {});
  const merge = compiled(mergers, baseNames, ownNames, compileMerge);
  return base.map((row, i) => merge(row, own[i]!) as T);
}

function compileMerge(baseNames: readonly string[], ownNames: readonly string[]): Merge {
  // A literal "__proto__" key would set the prototype instead of a property.
  if ([...baseNames, ...ownNames].includes('__proto__')) return (base, own) => ({ ...base, ...own });
  const owned = new Set(ownNames);
  const names = [...baseNames, ...ownNames.filter((n) => !baseNames.includes(n))];
  const fields = names.map((n) => `${JSON.stringify(n)}: ${owned.has(n) ? 'own' : 'base'}[${JSON.stringify(n)}]`);
  // The names are column names and aliases, each written as a JSON string literal: no other code can enter.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to a literal of run-time names
  return new Function('base', 'own', `return { ${fields.join(', ')} };`) as Merge;
}

type Build = (values: readonly unknown[]) => Record<string, unknown>;

/** Row builders compiled so far, by their names; bounded like the mergers. */
const builders = new Map<string, Build>();

/**
 * Rows read as arrays of values (postgres.js `.values()`) made objects named by `names`, with
 * `nulls` named too, each null. postgres.js itself makes a row by assigning its columns one by
 * one, so a row of 250 columns grows into an object in dictionary mode, slow to build and to
 * read; an object literal naming every column, compiled once per list of names, is built in
 * about two thirds of the time and has fast properties (issue #26).
 */
export function rowsFromValues(names: readonly string[], rows: readonly (readonly unknown[])[], nulls: readonly string[] = []): Record<string, unknown>[] {
  if (rows.length === 0) return [];
  return rows.map(compiled(builders, names, nulls, compileBuild));
}

function compileBuild(names: readonly string[], nulls: readonly string[]): Build {
  if ([...names, ...nulls].includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) => Object.defineProperty(row, name, { value: values[i], writable: true, enumerable: true, configurable: true }));
      for (const name of nulls) Object.defineProperty(row, name, { value: null, writable: true, enumerable: true, configurable: true });
      return row;
    };
  }
  // Later names win, as assigning them one by one does.
  const fields = new Map<string, string>();
  names.forEach((name, i) => fields.set(name, `values[${i}]`));
  for (const name of nulls) fields.set(name, 'null');
  const literal = [...fields].map(([name, value]) => `${JSON.stringify(name)}: ${value}`).join(', ');
  // The names are column names and aliases, each written as a JSON string literal: no other code can enter.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to a literal of run-time names
  return new Function('values', `return { ${literal} };`) as Build;
}
