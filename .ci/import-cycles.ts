/**
 * Folder-level import cycles in runtime/: each folder (runtime/<folder>/) is one node and each
 * top-level file (server.ts, app.ts, worker.ts ...) is one of its own. A cycle between folders
 * means that no feature can be understood, tested or changed apart from the others, so CI fails
 * on any: it prints each strongly connected set of folders with one import that joins each pair.
 *
 * Every import counts, type-only ones included: they are dependencies of the design even when
 * the compiler erases them. Usage: tsx .ci/import-cycles.ts [root, default runtime]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** One import of one file by another, both relative to the root. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** A set of folders that import each other, with an example import for each folder-to-folder edge inside it. */
export interface FolderCycle {
  readonly folders: readonly string[];
  readonly examples: readonly ImportEdge[];
}

/** Every .ts file under `root`, relative to it, sorted. */
function sourceFiles(root: string, folder = ''): string[] {
  return readdirSync(join(root, folder))
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The file a relative specifier names, as NodeNext resolves it ('./x.js' is x.ts); undefined outside the root. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(root, dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, join(target, 'index.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  if (!found) return undefined;
  const path = relative(root, found);
  return path.startsWith('..') ? undefined : path;
}

/** Every import (static, dynamic, re-export, type-only) between files under `root`. */
export function importEdges(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((from) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, from), 'utf8'), true, true);
    return importedFiles.flatMap(({ fileName }) => {
      const to = resolveSpecifier(root, from, fileName);
      return to ? [{ from, to }] : [];
    });
  });
}

/** A file's node: its top-level folder, or the file itself when it sits at the root. */
export function folderOf(path: string): string {
  const [first, ...rest] = path.split(sep);
  return rest.length ? `${first}/` : (first ?? path);
}

/** Tarjan's strongly connected components of a graph given as adjacency sets. */
function stronglyConnected(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The folder graph of `edges`: folder to the folders it imports, self-imports left out. */
export function folderGraph(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [folderOf(from), folderOf(to)];
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    if (a !== b) graph.get(a)!.add(b);
  }
  return graph;
}

/** Every set of folders under `root` that import each other, with one example import per edge. */
export function folderCycles(root: string): FolderCycle[] {
  const edges = importEdges(root);
  return stronglyConnected(folderGraph(edges))
    .filter((folders) => folders.length > 1)
    .map((folders) => {
      const members = new Set(folders);
      const examples = new Map<string, ImportEdge>();
      for (const edge of edges) {
        const [a, b] = [folderOf(edge.from), folderOf(edge.to)];
        if (a !== b && members.has(a) && members.has(b) && !examples.has(`${a} ${b}`)) examples.set(`${a} ${b}`, edge);
      }
      return { folders, examples: [...examples.values()] };
    });
}

/**
 * How many simple cycles the folder graph has (each counted once, from its smallest folder),
 * up to `limit`: the number a reader can compare with madge's list of circular dependencies.
 */
export function countSimpleCycles(graph: ReadonlyMap<string, ReadonlySet<string>>, limit = 100_000): number {
  const nodes = [...graph.keys()].sort();
  let count = 0;
  for (const start of nodes) {
    const walk = (node: string, path: Set<string>): void => {
      for (const next of graph.get(node) ?? []) {
        if (count >= limit) return;
        if (next === start) count += 1;
        else if (next > start && !path.has(next)) walk(next, new Set([...path, next]));
      }
    };
    walk(start, new Set([start]));
  }
  return count;
}

function main(root: string): number {
  const cycles = folderCycles(root);
  if (cycles.length === 0) {
    process.stdout.write(`no folder-level import cycles in ${root}\n`);
    return 0;
  }
  const simple = countSimpleCycles(folderGraph(importEdges(root)));
  process.stderr.write(`${cycles.length} set(s) of folders in ${root} import each other (${simple} simple cycles):\n`);
  for (const { folders, examples } of cycles) {
    process.stderr.write(`\n  ${folders.join(', ')}\n`);
    for (const { from, to } of examples) process.stderr.write(`    ${folderOf(from)} -> ${folderOf(to)}: ${from} imports ${to}\n`);
  }
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2] ?? 'runtime');
