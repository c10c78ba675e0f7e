/**
 * npx tsx generator/import-reference.ts <reference-schema.json> [--write]
 *
 * A one-off: merges a reference hyper-schema (the document the reference deployment serves at
 * GET /api/v2/schema) into schema/, adding the types and members schema/ lacks and changing
 * nothing it already says. Without --write it only reports. The merge itself is pure
 * (generator/import/merge-reference.ts); this file reads and writes the disk.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { byCodePoint } from './compare.js';
import { mergeReference, schemaFileText } from './import/merge-reference.js';
import type { Json } from './import/map-member.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function readSchemaDirectory(dir: string): Promise<Map<string, Json>> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort(byCodePoint);
  const files = new Map<string, Json>();
  for (const name of names) files.set(name.replace(/\.json$/, ''), JSON.parse(await readFile(join(dir, name), 'utf8')) as Json);
  return files;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { write: { type: 'boolean' } }, allowPositionals: true });
  if (positionals.length !== 1) {
    process.stderr.write('usage: npx tsx generator/import-reference.ts <reference-schema.json> [--write]\n');
    return 2;
  }
  const reference = JSON.parse(await readFile(positionals[0]!, 'utf8')) as Json;
  const dir = join(root, 'schema');
  const existing = await readSchemaDirectory(dir);
  const result = mergeReference(reference, existing);
  const lines = [
    `types added (${result.addedTypes.length}): ${result.addedTypes.join(', ')}`,
    `members added: ${result.addedMembers.length}`,
    `members skipped (${result.skipped.length}):`,
    ...result.skipped.map((s) => `  ${s.type}.${s.member}: ${s.reason}`),
    `action links not carried over (${result.skippedActions.length}):`,
    ...result.skippedActions.map((a) => `  ${a}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (!values.write) return 0;
  let written = 0;
  for (const [type, file] of result.files) {
    const text = schemaFileText(file);
    if (existing.has(type) && schemaFileText(existing.get(type)!) === text) continue;
    await writeFile(join(dir, `${type}.json`), text);
    written += 1;
  }
  process.stdout.write(`wrote ${written} files in schema/\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
