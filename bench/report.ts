// The printed results: a markdown table per measurement and the targets, each met or not.
// The benchmark reports; it does not fail on a missed target.
import type { LoadResult } from './load.js';
import type { Scenario } from './scenarios.js';

export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly cadence: LoadResult;
  readonly ceiling: LoadResult;
  /** Whether both servers sent the same body (links aside from their origin). */
  readonly sameBody: boolean;
}

export interface VariantRow {
  readonly label: string;
  readonly results: readonly LoadResult[];
}

const number = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratioOf = (r: ScenarioResult) => r.cadence.requestsPerSecond / r.ceiling.requestsPerSecond;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function resultsTable(results: readonly ScenarioResult[]): string {
  return table(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx+errors', 'CPU ms/req', 'ceiling req/s', 'ceiling p50 ms', 'ceiling CPU ms/req', 'ratio', 'same body'],
    results.map((r) => [
      r.scenario.name,
      number(r.cadence.requestsPerSecond),
      number(r.cadence.p50Ms),
      number(r.cadence.p99Ms),
      number(r.cadence.failures),
      number(r.cadence.cpuMsPerRequest, 2),
      number(r.ceiling.requestsPerSecond),
      number(r.ceiling.p50Ms),
      number(r.ceiling.cpuMsPerRequest, 2),
      `${number(ratioOf(r), 2)}x`,
      r.sameBody ? 'yes' : 'NO',
    ]),
  );
}

/** Per-request database work added back one piece at a time, for the named scenarios. */
export function variantsTable(scenarioNames: readonly string[], rows: readonly VariantRow[]): string {
  return table(
    ['server', ...scenarioNames.flatMap((name) => [`${name}: req/s`, 'p50 ms', 'CPU ms/req'])],
    rows.map((row) => [row.label, ...row.results.flatMap((r) => [number(r.requestsPerSecond), number(r.p50Ms), number(r.cpuMsPerRequest, 2)])]),
  );
}

function verdict(met: boolean, detail: string): string {
  return `${met ? 'met' : 'NOT MET'} (${detail})`;
}

export function targetsLines(results: readonly ScenarioResult[], maxRssMb: number): string[] {
  const lists = results.filter((r) => r.scenario.list);
  const slowLists = lists.filter((r) => ratioOf(r) < 0.6);
  const firstPage = results.find((r) => r.scenario.name.startsWith('list, page of 50'))!;
  const deepPage = results.find((r) => r.scenario.name.startsWith('deep cursor'))!;
  const deepRatio = deepPage.cadence.requestsPerSecond / firstPage.cadence.requestsPerSecond;
  const spread = results.filter((r) => r.cadence.p99Ms > 10 * Math.max(r.cadence.p50Ms, 1));
  const worstSpread = Math.max(...results.map((r) => r.cadence.p99Ms / Math.max(r.cadence.p50Ms, 1)));
  return [
    `- every list scenario >= 0.6x ceiling: ${verdict(
      slowLists.length === 0,
      slowLists.length ? `below: ${slowLists.map((r) => `${r.scenario.name} ${number(ratioOf(r), 2)}x`).join('; ')}` : `lowest ${number(Math.min(...lists.map(ratioOf)), 2)}x`,
    )}`,
    `- deep cursor page within 20% of first page: ${verdict(deepRatio >= 0.8, `${number(deepRatio, 2)}x the first page's req/s`)}`,
    `- p99 <= 10x p50: ${verdict(spread.length === 0, spread.length ? `above: ${spread.map((r) => r.scenario.name).join('; ')}` : `worst ${number(worstSpread, 1)}x`)}`,
    `- RSS < 300 MB: ${verdict(maxRssMb < 300, `max ${number(maxRssMb)} MB`)}`,
  ];
}
