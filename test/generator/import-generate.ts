// Imports generate() from generator/cli.ts, which runs its command line only as the entry
// point, so importing it writes nothing.
type Generate = (typeof import('../../generator/cli.js'))['generate'];

export async function importGenerate(): Promise<Generate> {
  return (await import('../../generator/cli.js')).generate;
}
