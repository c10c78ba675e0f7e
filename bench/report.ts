// The printed results: a markdown table per measurement and the targets, each met or not.
// The benchmark reports; it does not fail on a missed target.
import type { ActionRun, BulkActionsResult, CeilingRun } from './bulk-actions.js';
import type { CustomPairResult } from './custom-scenarios.js';
import type { ImportsResult } from './imports.js';
import type { LoadResult } from './load.js';
import type { Scenario } from './scenarios.js';
import type { SequencesResult } from './sequences.js';
import type { ConfigurationResult, LatencyResult, WebhookResult } from './webhooks.js';
import type { BulkUpsertResult, SingleCreateResult } from './writes.js';

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

const number = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** The median round's ratio: one noisy interval cannot decide a target. */
const ratioOf = (r: ScenarioResult) => r.cadence.requestsPerSecond / r.ceiling.requestsPerSecond;

function table(header: string[], rows: string[][]): string {
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

function verdict(met: boolean, detail: string): string {
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
  const footer = `attempts recorded: ${number(result.attempts.total)} (${number(result.attempts.acknowledged)} with a 2xx); the receiver got ${number(result.received)} requests on ${number(result.connections)} TLS connections${result.malformed ? `, ${result.malformed} unreadable` : ''}`;
  return `${table(header, rows)}\n\n${footer}`;
}

// ---- writes ----

/** Bulk upsert must reach this share of the ceiling's rows/s. */
export const BULK_UPSERT_TARGET = 0.3;

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

export function bulkUpsertTable(result: BulkUpsertResult): string {
  const kb = (bytes: number) => `${number(bytes / 1024)} KB`;
  const sizes = result.requests.map((r) => r.bytes).sort((a, b) => a - b);
  const counts = result.requests.map((r) => r.records).sort((a, b) => a - b);
  const median = <T>(values: readonly T[]) => values[Math.floor(values.length / 2)]!;
  const rows: string[][] = [
    ['records', `${number(result.records)} (${number(result.creates)} creates, ${number(result.updates)} updates; dupeMethod overwrite)`],
    [
      'requests (POST /api/v2/imports/actions/bulkUpsert, one after another)',
      `${number(result.requests.length)}; ${number(counts[0]!)}..${number(counts[counts.length - 1]!)} records, ${kb(sizes[0]!)}..${kb(sizes[sizes.length - 1]!)} (median ${kb(median(sizes))}); answered in ${number(result.sendSeconds, 1)} s in all`,
    ],
    ['**Cadence**, first request to every batch finished', `${number(result.seconds, 1)} s, **${number(result.rowsPerSecond)} rows/s**`],
    ['batches not finished / items in error', `${number(result.unfinished)} / ${number(result.failures)}`],
    ['prospects created (rows of the org, after - before)', number(result.rowsCreated)],
    ['events written', number(result.events)],
    [result.webhook ? 'webhook jobs written (1 webhook on prospect.*)' : 'webhook jobs written (no webhook: BENCH_UPSERT_WEBHOOK=0)', number(result.webhookJobs)],
    ['webhook deliveries made during the timing', number(result.deliveriesDuringTiming)],
    ['CPU during the timing: worker / cadence serve', `${number(result.workerCpuSeconds, 1)} s / ${number(result.serverCpuSeconds, 1)} s`],
    ...result.ceiling.map((c, i) => [
      `ceiling run ${i + 1} (org ${c.orgId}; ${c.statements} INSERT ... unnest ... ON CONFLICT DO UPDATE of 1,000 rows)`,
      `${number(c.seconds, 1)} s, ${number(c.rowsPerSecond)} rows/s`,
    ]),
    ["**ratio** (Cadence rows/s over the ceiling runs' mean)", `**${number(result.ratio, 2)}x**`],
  ];
  return table([`bulk upsert, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`, ''], rows);
}

export function bulkUpsertTargetLine(result: BulkUpsertResult): string {
  const complete = result.unfinished === 0 && result.failures === 0;
  return `- bulk upsert >= ${BULK_UPSERT_TARGET}x ceiling rows/s: ${verdict(result.ratio >= BULK_UPSERT_TARGET && complete, `${number(result.ratio, 2)}x${complete ? '' : `; ${result.unfinished} batches not finished, ${result.failures} items in error`}`)}`;
}

/** Bulk actions against plain SQL over the same number of records, as the bulk upsert. */
export const BULK_ACTION_TARGET = 0.3;

const actionComplete = (run: ActionRun) => run.final.state === 'finished' && run.final.failures === 0 && run.applied === run.records;

export function bulkActionsTable(result: BulkActionsResult): string {
  const actionRow = (label: string, run: ActionRun, ceiling: number): string[] => [
    label,
    `${number(run.answerMs / 1000, 1)} s / ${number(run.seconds, 1)} s`,
    `**${number(run.recordsPerSecond)}**`,
    `**${number(run.recordsPerSecond / ceiling, 2)}x**`,
    `${run.final.state}, ${number(run.final.failures)} failures, ${number(run.final.pending)} pending; ${number(run.applied)} of ${number(run.records)} applied`,
    `${number(run.events)} / ${run.webhook ? `${number(run.webhookJobs)} / ${number(run.deliveries)}` : '- / -'}`,
    `${number(run.workerCpuSeconds, 1)} s / ${number(run.serverCpuSeconds, 1)} s`,
  ];
  const ceilingRow = (label: string, run: CeilingRun): string[] => [label, `${number(run.seconds, 1)} s`, number(run.recordsPerSecond), '', '', '', ''];
  const rows: string[][] = [];
  for (const run of result.modify) {
    rows.push(actionRow(`prospectsBulkModify (title), ${run.webhook ? 'webhook on prospect.*' : 'no webhook'}`, run, result.modifyCeilingPerSecond));
  }
  result.modifyCeiling.forEach((c, i) =>
    rows.push(ceilingRow(`ceiling ${i === 0 ? 'before' : 'after'}: UPDATE prospects SET title ... id = ANY (1,000 ids) x ${number(c.statements)}`, c)),
  );
  if (result.destroy && result.destroyCeiling) rows.push(actionRow('prospectsDestroyAll, no webhook', result.destroy, result.destroyCeiling.recordsPerSecond));
  if (result.destroyCeiling) {
    rows.push(ceilingRow(`ceiling: DELETE FROM prospects ... id = ANY (1,000 ids) x ${number(result.destroyCeiling.statements)}`, result.destroyCeiling));
  }
  return table(
    [
      `${number(result.records)} prospects per action, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`,
      'POST answered / POST to finished',
      'records/s',
      'ratio to the ceiling (UPDATE: mean of its two runs)',
      'batch at the end',
      'events / webhook jobs / deliveries during the timing',
      'CPU worker / cadence serve',
    ],
    rows,
  );
}

export function bulkActionsTargetLines(result: BulkActionsResult): string[] {
  const line = (label: string, run: ActionRun | undefined, ceiling: number | undefined, target: number | undefined) => {
    if (!run || ceiling === undefined) return `- ${label}: NOT MET (not measured)`;
    const ratio = run.recordsPerSecond / ceiling;
    const detail = `${number(ratio, 2)}x${actionComplete(run) ? '' : `; batch ${run.final.state}, ${run.final.failures} failures, ${run.applied} of ${run.records} applied`}`;
    if (target === undefined) return `- ${label}: no fixed target, reported (${detail})`;
    return `- ${label} >= ${target}x ceiling records/s: ${verdict(ratio >= target && actionComplete(run), detail)}`;
  };
  const modify = (webhook: boolean) => result.modify.find((r) => r.webhook === webhook);
  return [
    line('prospectsBulkModify, no webhook', modify(false), result.modifyCeilingPerSecond, BULK_ACTION_TARGET),
    line('prospectsBulkModify, webhook on prospect.*', modify(true), result.modifyCeilingPerSecond, BULK_ACTION_TARGET),
    line('prospectsDestroyAll against DELETE', result.destroy, result.destroyCeiling?.recordsPerSecond, undefined),
    ...result.errors.map((e) => `- not measured: ${e}`),
  ];
}

/** The CSV import against COPY of the same rows (issue #14). */
export const IMPORT_TARGET = 0.2;
/** The worker's RSS growth over the import: it streams the file, so it should not hold it. */
export const IMPORT_RSS_GROWTH_TARGET_MB = 150;

export function importsTable(result: ImportsResult): string {
  const { run } = result;
  const rows: string[][] = [['file', `${number(result.records)} rows, 10 columns, ${number(result.fileBytes / 1024 / 1024, 1)} MB`]];
  if (run) {
    rows.push(
      [
        'steps 1-3 (not timed): generateUploadLink / PUT of the file / validateUpload',
        `${number(run.linkMs)} ms / ${number(run.uploadMs / 1000, 1)} s / ${number(run.validateMs / 1000, 1)} s (recordCount ${number(run.recordCount)})`,
      ],
      [
        '**Cadence**, prospectsImport POST (answered) to `finished`',
        `${number(run.answerMs / 1000, 1)} s / ${number(run.seconds, 1)} s, **${number(run.rowsPerSecond)} rows/s**`,
      ],
      [
        'import at the end: state, total, dupes, failures',
        `${run.final.state}, ${number(run.final.total)}, ${number(run.final.dupes)}, ${number(run.final.failures)}${run.final.errorReason ? `; ${run.final.errorReason}` : ''}`,
      ],
      ['prospects of the org / prospect_created events (SQL)', `${number(run.prospects)} / ${number(run.events)}`],
      [
        'worker RSS: before the POST / peak / growth',
        `${number(run.rssBaselineMb)} MB / ${number(run.rssPeakMb)} MB / **${number(run.rssPeakMb - run.rssBaselineMb)} MB**`,
      ],
      ['CPU during the timing: worker / cadence serve', `${number(run.workerCpuSeconds, 1)} s / ${number(run.serverCpuSeconds, 1)} s`],
    );
  }
  result.ceiling.forEach((c, i) =>
    rows.push([`ceiling ${i === 0 ? 'before' : 'after'}: COPY prospects FROM STDIN (org ${c.orgId})`, `${number(c.seconds, 1)} s, ${number(c.rowsPerSecond)} rows/s`]),
  );
  if (run) rows.push(["**ratio** (Cadence rows/s over the faster ceiling's)", `**${number(run.rowsPerSecond / result.ceilingPerSecond, 2)}x**`]);
  for (const error of result.errors) rows.push(['not measured', error]);
  return table([`CSV import of prospects, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`, ''], rows);
}

export function importsTargetLines(result: ImportsResult): string[] {
  const { run } = result;
  if (!run) {
    return [
      `- CSV import >= ${IMPORT_TARGET}x COPY rows/s: NOT MET (not measured)`,
      `- worker RSS growth during import < ${IMPORT_RSS_GROWTH_TARGET_MB} MB: NOT MET (not measured)`,
    ];
  }
  const complete = run.final.state === 'finished' && run.final.failures === 0 && run.prospects === run.records;
  const ratio = run.rowsPerSecond / result.ceilingPerSecond;
  const growth = run.rssPeakMb - run.rssBaselineMb;
  const incomplete = complete ? '' : `; import ${run.final.state}, ${run.final.failures} failures, ${run.prospects} of ${run.records} prospects`;
  return [
    `- CSV import >= ${IMPORT_TARGET}x COPY rows/s: ${verdict(ratio >= IMPORT_TARGET && complete, `${number(ratio, 2)}x${incomplete}`)}`,
    `- worker RSS growth during import < ${IMPORT_RSS_GROWTH_TARGET_MB} MB: ${verdict(growth < IMPORT_RSS_GROWTH_TARGET_MB && complete, `${number(growth)} MB, ${number(run.rssBaselineMb)} -> ${number(run.rssPeakMb)} MB${incomplete}`)}`,
  ];
}

/** Sequence steps due at the same moment (issue #15): no fixed target, the figures are reported. */
export function sequencesTable(result: SequencesResult): string {
  const { run } = result;
  const rows: string[][] = [];
  const seconds = (ms: number) => `${number(ms / 1000, 2)} s`;
  if (run) {
    rows.push(
      [
        'enrolment (not timed): prospectsAddToSequence POST to batch finished / to every first step run',
        `${number(run.enrolmentSeconds, 1)} s / ${number(run.firstStepsSeconds, 1)} s`,
      ],
      ['second steps due at the same moment (distinct due_at among them)', `${number(run.states)} (${number(run.distinctDueAt)})`],
      ['**run-at to every step run**', `${number(run.seconds, 1)} s for ${number(run.ran)} steps, **${number(run.stepsPerSecond)} steps/s**`],
      [
        'lateness (ran_at - due_at): p50 / **p99** / max (min)',
        `${seconds(run.lateness.p50Ms)} / **${seconds(run.lateness.p99Ms)}** / ${seconds(run.lateness.maxMs)} (${seconds(run.lateness.minMs)})`,
      ],
      ['states finished / mailings of the org (SQL)', `${number(run.finished)} / ${number(run.mailings)}`],
      ['worker during the timing: CPU / peak RSS', `${number(run.workerCpuSeconds, 1)} s / ${number(run.workerRssMb)} MB`],
    );
  }
  for (const error of result.errors) rows.push(['not measured', error]);
  return table([`Sequence steps, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`, ''], rows);
}
