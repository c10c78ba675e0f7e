/**
 * npm run generate [-- --check] [-- --root DIR]
 *
 * Reads schema/*.json under the root (default: the repository), writes generated/ from them, or
 * with --check compares instead and exits 1 naming every drifted, missing and stale file.
 * This is the generator's only module that touches the disk.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { emitAll, type GeneratedFiles } from './emit/index.js';
import { loadModel, SchemaFileError } from './load/index.js';
import { describeDrift } from './drift.js';
import { byCodePoint } from './compare.js';

const here = dirname(fileURLToPath(import.meta.url));

async function readSchemaFiles(root: string): Promise<Map<string, string>> {
  const names = (await readdir(join(root, 'schema'))).filter((n) => n.endsWith('.json')).sort(byCodePoint);
  const files = new Map<string, string>();
  for (const name of names) files.set(`schema/${name}`, await readFile(join(root, 'schema', name), 'utf8'));
  return files;
}

async function listGenerated(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  async function walk(dir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else found.set(relative(root, path).split('\\').join('/'), await readFile(path, 'utf8'));
    }
  }
  await walk(join(root, 'generated'));
  return found;
}

export async function generate(root: string): Promise<GeneratedFiles> {
  const model = loadModel(await readSchemaFiles(root));
  const templates = {
    resourceModule: await readFile(join(here, 'templates/resource-module.hbs'), 'utf8'),
    resourcesIndex: await readFile(join(here, 'templates/resources-index.hbs'), 'utf8'),
  };
  return emitAll(model, templates);
}

async function writeAll(root: string, files: GeneratedFiles, existing: Map<string, string>): Promise<void> {
  for (const path of existing.keys()) if (!files.has(path)) await rm(join(root, path));
  for (const [path, contents] of files) {
    if (existing.get(path) === contents) continue;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), contents);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' }, root: { type: 'string' } } });
  const root = values.root ?? join(here, '..');
  let files: GeneratedFiles;
  try {
    files = await generate(root);
  } catch (error) {
    if (error instanceof SchemaFileError) {
      process.stderr.write(`schema error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const existing = await listGenerated(root);
  if (values.check) {
    const drift = describeDrift(files, existing);
    if (drift.length === 0) {
      process.stdout.write(`generated/ is up to date (${files.size} files)\n`);
      return 0;
    }
    process.stderr.write(`${drift.join('\n')}\n\ngenerated/ is out of step with schema/: run npm run generate\n`);
    return 1;
  }
  await writeAll(root, files, existing);
  process.stdout.write(`wrote generated/ (${files.size} files)\n`);
  return 0;
}

// Runs only as the entry point, so importing generate() (tests do) writes nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
