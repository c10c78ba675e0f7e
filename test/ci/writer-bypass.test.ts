import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALLOWED_WRITER_BYPASSES } from '../../.ci/writer-bypass-allow-list.js';
import { sqlWritesIn, sqlWritesOutsideEngine } from '../../.ci/writer-bypass.js';
import { descriptors } from '../../generated/resources/index.js';

const RUNTIME = fileURLToPath(new URL('../../runtime', import.meta.url));
const RESOURCE_TABLES = new Set([...descriptors.values()].map((d) => d.table));
const allowed = (file: string, table: string) => ALLOWED_WRITER_BYPASSES.some((a) => a.file === file && a.table === table);

describe('.ci/writer-bypass.ts', () => {
  it('finds insert, update, delete and copy of resource tables, not comments or other tables', () => {
    const source = [
      '// update batches in a comment',
      '/* delete from prospects',
      '   in a block comment */',
      'await tx`insert into batches (org_id) values (1)`;',
      'await tx`',
      '  UPDATE "prospects"',
      '     set name = 1 for update skip locked`;',
      "await tx.unsafe('delete from uploads where org_id = $1');",
      "await tx.unsafe('copy accounts (org_id) from stdin');",
      "const url = 'https://example.test/update'; // update accounts",
    ].join('\n');
    expect(sqlWritesIn('x.ts', source, RESOURCE_TABLES)).toEqual([
      { file: 'x.ts', table: 'batches', verb: 'insert', line: 4 },
      { file: 'x.ts', table: 'prospects', verb: 'update', line: 6 },
      { file: 'x.ts', table: 'accounts', verb: 'copy', line: 9 },
    ]);
  });

  it('finds no write to a resource table outside runtime/engine/ but those the allow-list names', () => {
    const writes = sqlWritesOutsideEngine(RUNTIME, RESOURCE_TABLES);
    const unlisted = writes.filter((w) => !allowed(w.file, w.table)).map((w) => `${w.file}:${w.line} ${w.verb} ${w.table}`);
    expect(unlisted, 'write through the record writer (runtime/engine), or add an entry with a reason to .ci/writer-bypass-allow-list.ts').toEqual([]);
    const stale = ALLOWED_WRITER_BYPASSES.filter((a) => !writes.some((w) => w.file === a.file && w.table === a.table));
    expect(stale, 'allow-list entries that match no write any more').toEqual([]);
  });

  it('gives every allow-list entry a reason and a table a resource declares', () => {
    for (const entry of ALLOWED_WRITER_BYPASSES) {
      expect(entry.reason.length, `${entry.file} ${entry.table}`).toBeGreaterThan(20);
      expect(RESOURCE_TABLES.has(entry.table), entry.table).toBe(true);
    }
  });
});
