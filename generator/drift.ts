import type { GeneratedFiles } from './emit/index.js';

/** One labelled entry per drifted, missing or stale file, with the first differing lines. */
export function describeDrift(want: GeneratedFiles, have: ReadonlyMap<string, string>): string[] {
  const report: string[] = [];
  for (const [path, contents] of want) {
    const current = have.get(path);
    if (current === undefined) report.push(`missing: ${path}`);
    else if (current !== contents) report.push(`drifted: ${path}\n${firstDifference(current, contents)}`);
  }
  for (const path of have.keys()) if (!want.has(path)) report.push(`stale: ${path} (no schema produces it)`);
  return report;
}

function firstDifference(current: string, wanted: string): string {
  const a = current.split('\n');
  const b = wanted.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const show = (lines: string[]) => lines.slice(line, line + 3).join('\n         ');
  return `  line ${line + 1}:\n    on disk: ${show(a)}\n    wanted:  ${show(b)}`;
}
