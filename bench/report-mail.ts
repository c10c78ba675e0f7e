// The printed results of the mail part: sending through one worker, and the tracking pixel
// against a bare route. Sending has no target; the pixel's (issue #26): >= 0.3x the bare route,
// spread over the mailings and on one hot mailing, and every hit answered counted once folded.
import type { LoadOptions, LoadResult } from './load.js';
import type { MailResult, SendRun } from './mail.js';
import type { PixelResult } from './mail-pixel.js';
import { number, table } from './report.js';

const seconds = (ms: number) => `${number(ms / 1000, 2)} s`;

function sendRows(run: SendRun): string[][] {
  const states = Object.entries(run.states)
    .map(([state, n]) => `${state} ${number(n)}`)
    .join(', ');
  return [
    [
      'set-up (not timed): bulkUpsert of the mailings `drafted` / of each to `scheduled` at one instant, POST to batches finished',
      `${number(run.createSeconds, 1)} s / ${number(run.scheduleSeconds, 1)} s, done ${number(run.marginSeconds, 1)} s before the instant${run.marginSeconds < 0 ? ' (LATE: the lateness includes the set-up)' : ''}`,
    ],
    ['send_mailing jobs whose run-at is that instant, before it came', `${number(run.jobsAtDue)} of ${number(run.mailings)}`],
    ['**due moment to the last delivery**', `${number(run.seconds, 1)} s for ${number(run.delivered)} delivered, **${number(run.messagesPerSecond)} messages/s**`],
    [
      'lateness (deliveredAt - scheduledAt): p50 / **p99** / max (min)',
      `${seconds(run.lateness.p50Ms)} / **${seconds(run.lateness.p99Ms)}** / ${seconds(run.lateness.maxMs)} (${seconds(run.lateness.minMs)})`,
    ],
    ['mailings of the org by state at the end (SQL)', states],
    [
      'received by the SMTP server / distinct Message-IDs',
      `${number(run.received)} / ${number(run.distinctMessageIds)}${run.received === run.mailings && run.distinctMessageIds === run.mailings ? '' : ` (NOT ${number(run.mailings)} distinct!)`}`,
    ],
    ['worker during the timing: CPU / peak RSS', `${number(run.workerCpuSeconds, 1)} s / ${number(run.workerRssMb)} MB`],
  ];
}

function pixelRows(pixel: PixelResult): string[][] {
  const load = (r: LoadResult, unit: string) =>
    `${number(r.requestsPerSecond)} ${unit}, p50 ${number(r.p50Ms)} ms, p99 ${number(r.p99Ms)} ms, CPU ${number(r.cpuMsPerRequest, 2)} ms/req${r.failures ? `, ${number(r.failures)} failed` : ''}`;
  const { median } = pixel;
  const lost = pixel.answered - pixel.recorded;
  const hotRatio = pixel.hot.requestsPerSecond / median.bare.requestsPerSecond;
  const met = (ok: boolean) => (ok ? 'met' : '**NOT met**');
  return [
    [`**cadence serve**, requests spread over ${number(pixel.mailings)} mailings (median round)`, `**${load(median.cadence, 'hits/s')}**`],
    ['bare Hono route, the same GIF (same round)', load(median.bare, 'req/s')],
    ["**ratio** (median round's; every round's)", `**${number(median.ratio, 3)}x**; ${pixel.rounds.map((r) => `${number(r.ratio, 3)}x`).join(', ')}`],
    ['cadence serve, every request on one hot mailing', `${load(pixel.hot, 'hits/s')}; **${number(hotRatio, 3)}x** the bare route`],
    ['same 200, image/gif and bytes from both', `${pixel.sameBody ? 'yes' : 'NO'} (${number(pixel.bytes)} bytes)`],
    [
      'hits appended during the load / **folded by one `cadence worker` after it** (from its start until none is left)',
      `${number(pixel.appended)} / ${number(pixel.foldSeconds, 1)} s, **${number(pixel.appended / pixel.foldSeconds)} hits/s**`,
    ],
    [
      'opens counted once folded (openCount added up, SQL) / 200s Cadence answered, warm-ups included',
      `${number(pixel.recorded)} / ${number(pixel.answered)}${lost > 0 ? ` (${number(lost)} answered but not counted!)` : ''}`,
    ],
    [
      'targets: pixel >= 0.3x the bare route / one hot mailing >= 0.3x / every hit answered counted',
      `${met(median.ratio >= 0.3)} / ${met(hotRatio >= 0.3)} / ${met(lost <= 0)}`,
    ],
  ];
}

export function mailTable(result: MailResult, options: { readonly mailings: number; readonly rounds: number; readonly load: LoadOptions }): string {
  const rows: string[][] = [];
  if (result.send) rows.push(...sendRows(result.send));
  if (result.pixel) rows.push(...pixelRows(result.pixel));
  for (const error of result.errors) rows.push(['not measured', error]);
  const { load } = options;
  return [
    `\n## E-mail\n\n${number(options.mailings)} mailings made \`scheduled\` at one instant through bulkUpsert, sent by one \`cadence worker\` to an SMTP server on 127.0.0.1 in the benchmark process, timed from that instant to the last \`deliveredAt\`; then \`GET /t/o/<token>.gif\` with the tokens of the messages received, ${load.connections} connections, ${load.seconds} s per server and round, ${options.rounds} rounds alternating which server goes first\n`,
    table([`E-mail, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`, ''], rows),
  ].join('\n');
}
