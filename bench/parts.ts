// BENCH_ONLY: which parts of the benchmark run, as a comma list; all of them when unset.
export const PARTS = ['prospects', 'custom', 'rateLimit', 'webhooks', 'writes', 'bulkActions', 'imports', 'sequences', 'mail'] as const;
export type Part = (typeof PARTS)[number];

export function benchParts(only: string | undefined): ReadonlySet<Part> {
  const asked = (only ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (!asked.length) return new Set(PARTS);
  const unknown = asked.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length) throw new Error(`BENCH_ONLY: unknown part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
  // In the order they run, whatever the order asked.
  return new Set(PARTS.filter((p) => asked.includes(p)));
}
