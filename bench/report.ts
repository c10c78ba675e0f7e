// The printed results: a markdown table per measurement and the targets, each met or not.
// The benchmark reports; it does not fail on a missed target.
import type { CustomPairResult } from './custom-scenarios.js';
import type { LoadResult } from './load.js';
import type { Scenario } from './scenarios.js';
import type { ConfigurationResult, LatencyResult, WebhookResult } from './webhooks.js';
import type { SingleCreateResult } from './writes.js';

export interface ScenarioResult {
  readonly scenario: Scenario;
  /** The round whose ratio is the median: the figures shown for the scenario. */
  readonly cadence: LoadResult;
  readonly ceiling: LoadResult;
  /** Cadence's req/s over the ceiling's, one per round, each measured back to back. */
  readonly ratios: readonly number[];
  /** Whether both servers sent the same body (links aside from their origin). */
  readonly sameBody: boolean;
  /** The size of the document Cadence answers (the first of the scenario's paths). */
  readonly documentBytes: number;
}

export interface VariantRow {
  readonly label: string;
  readonly results: readonly LoadResult[];
}

/**
 * The round whose ratio is the median of a measurement's rounds (the upper one of an even
 * count), undefined when none was measured: every ratio of the benchmark is its median round's.
 */
export function medianRound<T extends { readonly ratio: number }>(rounds: readonly T[]): T | undefined {
  return [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
}

export const number = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** The median round's ratio: one noisy interval cannot decide a target. */
const ratioOf = (r: ScenarioResult) => r.cadence.requestsPerSecond / r.ceiling.requestsPerSecond;

export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function resultsTable(results: readonly ScenarioResult[]): string {
  return table(
    [
      'scenario',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-2xx+errors',
      'CPU ms/req',
      'ceiling req/s',
      'ceiling p50 ms',
      'ceiling CPU ms/req',
      'ratio (median)',
      'each round',
      'same body',
      'document KB',
    ],
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
      r.ratios.map((ratio) => `${number(ratio, 2)}x`).join(', '),
      r.sameBody ? 'yes' : 'NO',
      number(r.documentBytes / 1024, 1),
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

export function verdict(met: boolean, detail: string): string {
  return `${met ? 'met' : 'NOT MET'} (${detail})`;
}

export function targetsLines(results: readonly ScenarioResult[]): string[] {
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
      slowLists.length
        ? `below: ${slowLists.map((r) => `${r.scenario.name} ${number(ratioOf(r), 2)}x`).join('; ')}`
        : `lowest ${number(Math.min(...lists.map(ratioOf)), 2)}x`,
    )}`,
    `- deep cursor page within 20% of first page: ${verdict(deepRatio >= 0.8, `${number(deepRatio, 2)}x the first page's req/s`)}`,
    `- p99 <= 10x p50: ${verdict(spread.length === 0, spread.length ? `above: ${spread.map((r) => r.scenario.name).join('; ')}` : `worst ${number(worstSpread, 1)}x`)}`,
  ];
}

export function rssLine(maxRssMb: number): string {
  return `- RSS < 300 MB: ${verdict(maxRssMb < 300, `max ${number(maxRssMb)} MB`)}`;
}

// ---- custom objects ----

/** Custom objects must reach this share of the same request on a standard resource. */
export const CUSTOM_TARGET = 0.7;

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);
const meanOf = (results: readonly LoadResult[], f: (r: LoadResult) => number) => mean(results.map(f));
const customRatio = (r: CustomPairResult) => meanOf(r.custom, (x) => x.requestsPerSecond) / meanOf(r.standard, (x) => x.requestsPerSecond);
const percent = (share: number) => `${number(share * 100, 1)}%`;

export function customTable(results: readonly CustomPairResult[]): string {
  const side = (list: readonly LoadResult[]) =>
    list.length
      ? [
          number(meanOf(list, (r) => r.requestsPerSecond)),
          number(meanOf(list, (r) => r.p50Ms)),
          number(meanOf(list, (r) => r.p99Ms)),
          number(
            meanOf(list, (r) => r.cpuMsPerRequest),
            2,
          ),
          number(list.reduce((n, r) => n + r.failures, 0)),
        ]
      : ['-', '-', '-', '-', '-'];
  return table(
    [
      'scenario',
      'booking request',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU ms/req',
      'non-2xx+errors',
      'prospects request',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU ms/req',
      'non-2xx+errors',
      'ratio',
      'per round',
    ],
    results.map((r) => [
      r.pair.name,
      `${r.pair.custom.label} (${percent(r.pair.custom.share)} of org; ${r.customBody || 'failed'})`,
      ...side(r.custom),
      `${r.pair.standard.label} (${percent(r.pair.standard.share)} of org; ${r.standardBody || 'failed'})`,
      ...side(r.standard),
      r.error ? 'n/a' : `${number(customRatio(r), 2)}x`,
      r.custom.map((c, i) => `${number(c.requestsPerSecond / r.standard[i]!.requestsPerSecond, 2)}x`).join(', '),
    ]),
  );
}

export function customTargetLines(results: readonly CustomPairResult[]): string[] {
  return results.map((r) => {
    const name = `${r.pair.name}: booking >= ${CUSTOM_TARGET}x prospects`;
    if (r.error) return `- ${name}: NOT MET (not measured: ${r.error})`;
    const ratio = customRatio(r);
    return `- ${name}: ${verdict(ratio >= CUSTOM_TARGET, `${number(ratio, 2)}x`)}`;
  });
}

// ---- webhooks ----

export function webhooksTable(result: WebhookResult): string {
  const configurations = result.configurations;
  const row = (label: string, cell: (c: ConfigurationResult) => string): string[] => [label, ...configurations.map(cell)];
  const ms = (value: number) => `${number(value, 1)} ms`;
  const latency = (f: (l: LatencyResult) => string) => (c: ConfigurationResult) => (c.latency ? f(c.latency) : '-');
  const rows: string[][] = [
    row(
      '(c) backlog: account creations through the API before the worker starts',
      (c) => `${number(c.throughput.events)} (${number(c.throughput.enqueuePerSecond)} writes/s)`,
    ),
    row(
      '(c) delivered',
      (c) => `${number(c.throughput.delivered)}${c.throughput.duplicates ? `, ${c.throughput.duplicates} twice` : ''}${c.workerExited ? ' (the worker exited!)' : ''}`,
    ),
    row('(c) **deliveries/s**, first to last delivery', (c) => number(c.throughput.steadyPerSecond, 1)),
    row(
      `(c) against the ceiling: a bare keep-alive sender, ${number(result.ceiling.perSecond, 1)}/s`,
      (c) => `**${number(c.throughput.steadyPerSecond / result.ceiling.perSecond, 2)}×** (target ≥ 0.3×)`,
    ),
    row('(c) deliveries/s, from spawning the worker', (c) => number(c.throughput.fromSpawnPerSecond, 1)),
    row('(c) worker spawned to first delivery', (c) => `${number(c.throughput.startToFirstSeconds, 1)} s`),
    row('(c) worker CPU per delivery', (c) => ms(c.throughput.workerCpuMsPerDelivery)),
    row(
      '(d) account creations, worker running',
      latency((l) => `${number(l.writes)} at ${number(l.writesPerSecond)}/s`),
    ),
    row(
      '(d) API write response p50 / p99',
      latency((l) => `${ms(l.writeP50Ms)} / ${ms(l.writeP99Ms)}`),
    ),
    row(
      '(d) delivered',
      latency((l) => `${number(l.delivered)}${l.missing ? ` (${l.missing} missing)` : ''}${l.duplicates ? `, ${l.duplicates} twice` : ''}`),
    ),
    row(
      '(d) **write response to delivery, p50**',
      latency((l) => ms(l.p50Ms)),
    ),
    row(
      '(d) **write response to delivery, p99**',
      latency((l) => ms(l.p99Ms)),
    ),
    row(
      '(d) min / max',
      latency((l) => `${ms(l.minMs)} / ${ms(l.maxMs)}`),
    ),
    row(
      '(d) worker CPU per delivery',
      latency((l) => ms(l.workerCpuMsPerDelivery)),
    ),
  ];
  const header = ['one `cadence worker`, WORKER_CONCURRENCY=' + result.concurrency, ...configurations.map((c) => `receiver trusted via ${c.label}`)];
  const footer = `attempts recorded: ${number(result.attempts.total)} (${number(result.attempts.acknowledged)} with a 2xx); the workers' ${number(result.received - result.ceiling.deliveries)} requests reached the receiver on ${number(result.connections - result.ceiling.connections)} TLS connections (the ceiling's ${number(result.ceiling.deliveries)} on ${number(result.ceiling.connections)})${result.malformed ? `, ${result.malformed} unreadable` : ''}`;
  return `${table(header, rows)}\n\n${footer}`;
}

// ---- writes ----

/**
 * (b) POST /api/v2/prospects against the ceiling's create, with the GET-one row of the same run
 * (when the prospects part ran) next to it.
 */
export function singleCreateTable(result: SingleCreateResult, getOne: ScenarioResult | undefined): string {
  const { cadence, ceiling } = result.median;
  const rows = [
    [
      'POST /api/v2/prospects (create, with its event)',
      number(cadence.requestsPerSecond),
      number(cadence.p50Ms),
      number(cadence.p99Ms),
      number(cadence.failures),
      number(cadence.cpuMsPerRequest, 2),
      number(ceiling.requestsPerSecond),
      number(ceiling.p50Ms),
      number(ceiling.cpuMsPerRequest, 2),
      `${number(result.median.ratio, 2)}x`,
      result.rounds.map((r) => `${number(r.ratio, 2)}x`).join(', '),
      `${number(result.cadenceBytes / 1024, 1)} / ${number(result.ceilingBytes / 1024, 1)}`,
    ],
  ];
  if (getOne) {
    rows.push([
      'GET one prospect (prospects part, same run)',
      number(getOne.cadence.requestsPerSecond),
      number(getOne.cadence.p50Ms),
      number(getOne.cadence.p99Ms),
      number(getOne.cadence.failures),
      number(getOne.cadence.cpuMsPerRequest, 2),
      number(getOne.ceiling.requestsPerSecond),
      number(getOne.ceiling.p50Ms),
      number(getOne.ceiling.cpuMsPerRequest, 2),
      `${number(ratioOf(getOne), 2)}x`,
      getOne.ratios.map((ratio) => `${number(ratio, 2)}x`).join(', '),
      `${number(getOne.documentBytes / 1024, 1)} / same`,
    ]);
  }
  return table(
    [
      'request',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-2xx+errors',
      'CPU ms/req',
      'ceiling req/s',
      'ceiling p50 ms',
      'ceiling CPU ms/req',
      'ratio (median)',
      'each round',
      'answer KB (Cadence / ceiling)',
    ],
    rows,
  );
}

export function singleCreateTargetLine(result: SingleCreateResult, getOne: ScenarioResult | undefined): string {
  const beside = getOne ? `; GET one prospect ${number(ratioOf(getOne), 2)}x in the same run` : '; GET one prospect not measured (prospects part not run)';
  return `- single create: no fixed target, reported (POST ${number(result.median.ratio, 2)}x the ceiling${beside})`;
}
