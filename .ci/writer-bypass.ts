import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Finds SQL that writes a resource's table without the record writer: every write to a table a
 * schema declares should go through runtime/engine/record-writer/, which records its events
 * (and so its webhooks) and runs its behaviours' hooks. A write that skips it is found here by
 * its text — `insert into <table>`, `update <table>`, `delete from <table>`, `copy <table>` —
 * in runtime/ outside runtime/engine/, comments left out. SQL whose table is interpolated
 * (`update ${table}`) is not seen: such code belongs in the engine.
 */

export interface SqlWrite {
  /** Relative to the scanned folder's parent, with forward slashes: `runtime/bulk/batch-store.ts`. */
  readonly file: string;
  readonly table: string;
  readonly verb: 'insert' | 'update' | 'delete' | 'copy';
  readonly line: number;
}

const WRITE = /\b(insert\s+into|update|delete\s+from|copy)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/** Comments out, as blanks of the same length, so line numbers and positions still hold. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g, (match: string, lead: string | undefined) => {
    const kept = lead ?? '';
    return kept + match.slice(kept.length).replace(/[^\n]/g, ' ');
  });
}

function verbOf(word: string): SqlWrite['verb'] {
  const first = word.toLowerCase().split(/\s+/)[0]!;
  return first as SqlWrite['verb'];
}

export function sqlWritesIn(file: string, source: string, tables: ReadonlySet<string>): SqlWrite[] {
  const text = withoutComments(source);
  const found: SqlWrite[] = [];
  for (const match of text.matchAll(WRITE)) {
    const table = match[2]!.toLowerCase();
    if (!tables.has(table)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    found.push({ file, table, verb: verbOf(match[1]!), line });
  }
  return found;
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every SQL write to one of `tables` in `runtimeDir`, but for runtime/engine/ (the writer's home). */
export function sqlWritesOutsideEngine(runtimeDir: string, tables: ReadonlySet<string>): SqlWrite[] {
  const base = join(runtimeDir, '..');
  return typescriptFiles(runtimeDir)
    .map((path) => relative(base, path).split('\\').join('/'))
    .filter((file) => !file.startsWith('runtime/engine/'))
    .sort()
    .flatMap((file) => sqlWritesIn(file, readFileSync(join(base, file), 'utf8'), tables));
}
