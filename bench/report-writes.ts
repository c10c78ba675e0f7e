// The printed results of the write parts (bulk upsert, bulk actions, CSV imports, sequences):
// a markdown table per measurement and the targets, each met or not.
import type { ActionRun, BulkActionsResult, CeilingRun, ModifyMeasurement } from './bulk-actions.js';
import type { CopyRun, ImportRun, ImportsResult } from './imports.js';
import type { SequencesResult } from './sequences.js';
import type { BulkUpsertResult } from './writes.js';
import { number, table, verdict } from './report.js';

/** Bulk upsert must reach this share of the ceiling's rows/s. */
export const BULK_UPSERT_TARGET = 0.5;

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
export const BULK_ACTION_TARGET = 0.5;

const actionComplete = (run: ActionRun) => run.final.state === 'finished' && run.final.failures === 0 && run.applied === run.records;

export function bulkActionsTable(result: BulkActionsResult): string {
  const actionRow = (label: string, run: ActionRun, ratio: string): string[] => [
    label,
    `${number(run.answerMs / 1000, 1)} s / ${number(run.seconds, 1)} s`,
    `**${number(run.recordsPerSecond)}**`,
    ratio,
    `${run.final.state}, ${number(run.final.failures)} failures, ${number(run.final.pending)} pending; ${number(run.applied)} of ${number(run.records)} applied`,
    `${number(run.events)} / ${run.webhook ? `${number(run.webhookJobs)} / ${number(run.deliveries)}` : '- / -'}`,
    `${number(run.workerCpuSeconds, 1)} s / ${number(run.serverCpuSeconds, 1)} s`,
  ];
  const ceilingRow = (label: string, run: CeilingRun): string[] => [label, `${number(run.seconds, 1)} s`, number(run.recordsPerSecond), '', '', '', ''];
  const rows: string[][] = [];
  for (const measurement of result.modify) {
    const name = `prospectsBulkModify (title), ${measurement.webhook ? 'webhook on prospect.*' : 'no webhook'}`;
    for (const round of measurement.rounds) {
      const left = round.deliveriesLeft > 0 ? `; ${number(round.deliveriesLeft)} delivery jobs still queued after it` : '';
      const pair = [
        actionRow(`${name}, round ${round.round}${left}`, round.run, `${number(round.ratio, 2)}x`),
        ceilingRow(`ceiling, round ${round.round}: UPDATE prospects SET title ... id = ANY (1,000 ids) x ${number(round.ceiling.statements)}`, round.ceiling),
      ];
      rows.push(...(round.cadenceFirst ? pair : pair.reverse()));
    }
    if (measurement.ratio !== undefined) rows.push([`**${name}: the median round**`, '', '', `**${number(measurement.ratio, 2)}x**`, '', '', '']);
  }
  if (result.destroy && result.destroyCeiling) {
    rows.push(
      actionRow('prospectsDestroyAll, no webhook', result.destroy, `**${number(result.destroy.recordsPerSecond / result.destroyCeiling.recordsPerSecond, 2)}x**`),
    );
  }
  if (result.destroyCeiling) {
    rows.push(ceilingRow(`ceiling: DELETE FROM prospects ... id = ANY (1,000 ids) x ${number(result.destroyCeiling.statements)}`, result.destroyCeiling));
  }
  return table(
    [
      `${number(result.records)} prospects per action, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency}); in the order they ran`,
      'POST answered / POST to finished',
      'records/s',
      "ratio to the ceiling (modify: its round's UPDATE)",
      'batch at the end',
      'events / webhook jobs / deliveries during the timing',
      'CPU worker / cadence serve',
    ],
    rows,
  );
}

export function bulkActionsTargetLines(result: BulkActionsResult): string[] {
  const modifyLine = (label: string, measurement: ModifyMeasurement | undefined) => {
    if (!measurement || measurement.ratio === undefined) return `- ${label}: NOT MET (not measured)`;
    const incomplete = measurement.rounds.filter((r) => !actionComplete(r.run));
    const detail = `median of ${measurement.rounds.length} rounds ${number(measurement.ratio, 2)}x (rounds ${measurement.rounds.map((r) => `${number(r.ratio, 2)}x`).join(', ')})${incomplete.length ? `; ${incomplete.length} rounds not complete` : ''}`;
    return `- ${label} >= ${BULK_ACTION_TARGET}x ceiling records/s: ${verdict(measurement.ratio >= BULK_ACTION_TARGET && incomplete.length === 0, detail)}`;
  };
  const destroyLine = () => {
    const run = result.destroy;
    if (!run || !result.destroyCeiling) return '- prospectsDestroyAll against DELETE: not measured';
    const detail = `${number(run.recordsPerSecond / result.destroyCeiling.recordsPerSecond, 2)}x${actionComplete(run) ? '' : `; batch ${run.final.state}, ${run.final.failures} failures, ${run.applied} of ${run.records} applied`}`;
    return `- prospectsDestroyAll against DELETE: no fixed target, reported (${detail})`;
  };
  const modify = (webhook: boolean) => result.modify.find((m) => m.webhook === webhook);
  return [
    modifyLine('prospectsBulkModify, no webhook', modify(false)),
    modifyLine('prospectsBulkModify, webhook on prospect.*', modify(true)),
    destroyLine(),
    ...result.errors.map((e) => `- not measured: ${e}`),
  ];
}

/** The CSV import against COPY of the same rows (issue #14). */
export const IMPORT_TARGET = 0.4;
/** The worker's RSS growth over the import: it streams the file, so it should not hold it. */
export const IMPORT_RSS_GROWTH_TARGET_MB = 150;

export function importsTable(result: ImportsResult): string {
  const rows: string[][] = [['file', `${number(result.records)} rows, 10 columns, ${number(result.fileBytes / 1024 / 1024, 1)} MB`]];
  const copyRow = (copy: CopyRun) => [
    `ceiling COPY prospects FROM STDIN, ${copy.label} (org ${copy.orgId})`,
    `${number(copy.seconds, 1)} s, ${number(copy.rowsPerSecond)} rows/s`,
  ];
  if (result.ceiling[0]) rows.push(copyRow(result.ceiling[0]));
  for (const { round, run, ratio } of result.rounds) {
    rows.push(
      [
        `round ${round}, steps 1-3 (not timed): generateUploadLink / PUT of the file / validateUpload`,
        `${number(run.linkMs)} ms / ${number(run.uploadMs / 1000, 1)} s / ${number(run.validateMs / 1000, 1)} s (recordCount ${number(run.recordCount)})`,
      ],
      [
        `round ${round}, **Cadence**, prospectsImport POST (answered) to \`finished\` (org ${run.orgId})`,
        `${number(run.answerMs / 1000, 1)} s / ${number(run.seconds, 1)} s, **${number(run.rowsPerSecond)} rows/s**`,
      ],
      [
        `round ${round}, import at the end: state, total, dupes, failures; prospects / prospect_created events (SQL)`,
        `${run.final.state}, ${number(run.final.total)}, ${number(run.final.dupes)}, ${number(run.final.failures)}${run.final.errorReason ? `; ${run.final.errorReason}` : ''}; ${number(run.prospects)} / ${number(run.events)}`,
      ],
      [
        `round ${round}, worker RSS: before the POST / peak / growth`,
        `${number(run.rssBaselineMb)} MB / ${number(run.rssPeakMb)} MB / **${number(run.rssPeakMb - run.rssBaselineMb)} MB**`,
      ],
      [`round ${round}, CPU during the timing: worker / cadence serve`, `${number(run.workerCpuSeconds, 1)} s / ${number(run.serverCpuSeconds, 1)} s`],
    );
    const after = result.ceiling[round];
    if (after) rows.push(copyRow(after));
    rows.push([`round ${round}, ratio (Cadence rows/s over the faster of the COPYs before and after it)`, `${number(ratio, 2)}x`]);
  }
  // A COPY after a failed import, if any.
  for (const copy of result.ceiling.slice(result.rounds.length + 1)) rows.push(copyRow(copy));
  if (result.ratio !== undefined) rows.push([`**ratio**, the median of ${result.rounds.length} rounds`, `**${number(result.ratio, 2)}x**`]);
  for (const error of result.errors) rows.push(['not measured', error]);
  return table([`CSV import of prospects, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency}); in the order they ran`, ''], rows);
}

const importComplete = (run: ImportRun) => run.final.state === 'finished' && run.final.failures === 0 && run.prospects === run.records;

export function importsTargetLines(result: ImportsResult): string[] {
  if (result.ratio === undefined) {
    return [
      `- CSV import >= ${IMPORT_TARGET}x COPY rows/s: NOT MET (not measured)`,
      `- worker RSS growth during import < ${IMPORT_RSS_GROWTH_TARGET_MB} MB: NOT MET (not measured)`,
    ];
  }
  const incomplete = result.rounds.filter((r) => !importComplete(r.run));
  const incompleteText = incomplete.length ? `; ${incomplete.length} imports not complete` : '';
  // From the first import's start: what the worker keeps after one import counts in the next one's growth.
  const baseline = result.rounds[0]!.run.rssBaselineMb;
  const peak = Math.max(...result.rounds.map((r) => r.run.rssPeakMb));
  const growth = peak - baseline;
  return [
    `- CSV import >= ${IMPORT_TARGET}x COPY rows/s: ${verdict(result.ratio >= IMPORT_TARGET && incomplete.length === 0, `median of ${result.rounds.length} rounds ${number(result.ratio, 2)}x (rounds ${result.rounds.map((r) => `${number(r.ratio, 2)}x`).join(', ')})${incompleteText}`)}`,
    `- worker RSS growth during import < ${IMPORT_RSS_GROWTH_TARGET_MB} MB: ${verdict(growth < IMPORT_RSS_GROWTH_TARGET_MB && incomplete.length === 0, `${number(growth)} MB, from ${number(baseline)} MB before the first of ${result.rounds.length} imports to the peak of any, ${number(peak)} MB${incompleteText}`)}`,
  ];
}

/** Sequence steps due at the same moment (issue #26): the p99 lateness and rate they must reach. */
export const SEQUENCE_P99_TARGET_MS = 5_000;
export const SEQUENCE_STEPS_PER_SECOND_TARGET = 2_000;

/** Sequence steps due at the same moment (issue #15, #26). */
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
      ["the org's first-step sends still queued at the due instant (the backlog the steps share the worker with)", number(run.sendsQueuedAtDue)],
      ['states finished / mailings of the org (SQL)', `${number(run.finished)} / ${number(run.mailings)}`],
      ['worker during the timing: CPU / peak RSS', `${number(run.workerCpuSeconds, 1)} s / ${number(run.workerRssMb)} MB`],
    );
  }
  for (const error of result.errors) rows.push(['not measured', error]);
  return table([`Sequence steps, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`, ''], rows);
}

export function sequencesTargetLines(result: SequencesResult): string[] {
  const { run } = result;
  const p99Label = `- sequence steps due at one instant, p99 lateness <= ${number(SEQUENCE_P99_TARGET_MS / 1000)} s`;
  const rateLabel = `- sequence steps due at one instant >= ${number(SEQUENCE_STEPS_PER_SECOND_TARGET)} steps/s`;
  if (!run) return [`${p99Label}: NOT MET (not measured)`, `${rateLabel}: NOT MET (not measured)`];
  const complete = run.ran === run.states;
  const incomplete = complete ? '' : `; ${number(run.ran)} of ${number(run.states)} ran`;
  return [
    `${p99Label}: ${verdict(run.lateness.p99Ms <= SEQUENCE_P99_TARGET_MS && complete, `${number(run.lateness.p99Ms / 1000, 2)} s${incomplete}`)}`,
    `${rateLabel}: ${verdict(run.stepsPerSecond >= SEQUENCE_STEPS_PER_SECOND_TARGET && complete, `${number(run.stepsPerSecond)} steps/s${incomplete}`)}`,
  ];
}
