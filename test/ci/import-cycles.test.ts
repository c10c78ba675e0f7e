import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countSimpleCycles, folderCycles, folderGraph, importEdges } from '../../.ci/import-cycles.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/import-cycles', import.meta.url));

describe('.ci/import-cycles.ts', () => {
  it('finds the folders that import each other, type-only imports included, with an import for each edge', () => {
    expect(folderCycles(FIXTURE)).toEqual([
      {
        folders: ['a/', 'b/'],
        examples: [
          { from: 'a/index.ts', to: 'b/index.ts' },
          { from: 'b/index.ts', to: 'a/types.ts' },
        ],
      },
    ]);
  });

  it('counts simple cycles of the folder graph', () => {
    expect(countSimpleCycles(folderGraph(importEdges(FIXTURE)))).toBe(1);
    const graph = new Map([
      ['a/', new Set(['b/', 'c/'])],
      ['b/', new Set(['a/', 'c/'])],
      ['c/', new Set(['a/'])],
    ]);
    // a-b, a-c, a-b-c: three simple cycles.
    expect(countSimpleCycles(graph)).toBe(3);
  });

  it('finds none in runtime/', () => {
    expect(folderCycles(fileURLToPath(new URL('../../runtime', import.meta.url)))).toEqual([]);
  });
});
