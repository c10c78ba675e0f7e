// The printed results of the mail part: sending through one worker against the ceiling of a bare
// pooled nodemailer transport, and the tracking pixel against a bare route. Issue #26's targets:
// sending at least 0.3x the ceiling's messages/s with p99 lateness at most 30 s; the pixel >= 0.3x
// the bare route, spread over the mailings and on one hot mailing, and every hit answered counted.
import type { LoadOptions, LoadResult } from './load.js';
import type { CeilingRun, Ceilings } from './mail-ceiling.js';
import type { MailResult, SendRun } from './mail.js';
import type { PixelResult } from './mail-pixel.js';
import { number, table } from './report.js';

const seconds = (ms: number) => `${number(ms / 1000, 2)} s`;

/** Issue #26: Cadence's messages/s at least this share of the ceiling's. */
export const SEND_RATIO_TARGET = 0.3;
/** Issue #26: p99 lateness at most this. */
export const SEND_P99_TARGET_MS = 30_000;

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

function sendRows(run: SendRun): string[][] {
  const states = Object.entries(run.states)
    .map(([state, n]) => `${state} ${number(n)}`)
    .join(', ');
  return [
    [
      'set-up (not timed): bulkUpsert of the mailings `drafted` / of each to `scheduled` at one instant, POST to batches finished',
      `${number(run.createSeconds, 1)} s / ${number(run.scheduleSeconds, 1)} s, done ${number(run.marginSeconds, 1)} s before the instant${run.marginSeconds < 0 ? ' (LATE: the lateness includes the set-up)' : ''}`,
    ],
    [
      'sends due at that instant / pending `send_mailings` jobs of the org, before it came',
      `${number(run.sendsAtDue)} of ${number(run.mailings)} / ${number(run.jobsAtDue)}`,
    ],
    ['**due moment to the last delivery**', `${number(run.seconds, 1)} s for ${number(run.delivered)} delivered, **${number(run.messagesPerSecond)} messages/s**`],
    [
      'lateness (deliveredAt - scheduledAt): p50 / **p99** / max (min)',
      `${seconds(run.lateness.p50Ms)} / **${seconds(run.lateness.p99Ms)}** / ${seconds(run.lateness.maxMs)} (${seconds(run.lateness.minMs)}); target p99 ≤ ${seconds(SEND_P99_TARGET_MS)}: ${met(run.lateness.p99Ms <= SEND_P99_TARGET_MS)}`,
    ],
    ['mailings of the org by state at the end (SQL)', states],
    [
      'received by the SMTP server / distinct Message-IDs',
      `${number(run.received)} / ${number(run.distinctMessageIds)}${run.received === run.mailings && run.distinctMessageIds === run.mailings ? '' : ` (NOT ${number(run.mailings)} distinct!)`}`,
    ],
    ['new TCP connections the SMTP server saw during the timing (pooled: few)', number(run.connections)],
    ['worker during the timing: CPU / peak RSS', `${number(run.workerCpuSeconds, 1)} s / ${number(run.workerRssMb)} MB`],
  ];
}

function ceilingRows(run: SendRun | undefined, { raw, composed }: Ceilings): string[][] {
  const figures = (c: CeilingRun) =>
    `${number(c.seconds, 1)} s for ${number(c.messages)}, ${number(c.messagesPerSecond)} messages/s over ${number(c.connections)} connections`;
  const rows = [
    [
      "ceiling (raw, the target's): the same messages, their bytes as received, sent again to the same server by a bare pooled nodemailer transport in the benchmark process",
      figures(raw),
    ],
    ['ceiling (composed, for reference): the same messages from their parts (headers, text, HTML), composed and sent by the same bare transport', figures(composed)],
  ];
  if (run) {
    const ratio = run.messagesPerSecond / raw.messagesPerSecond;
    rows.push([`**ratio** Cadence / raw ceiling (target ≥ ${SEND_RATIO_TARGET}x)`, `**${number(ratio, 3)}x**: ${met(ratio >= SEND_RATIO_TARGET)}`]);
    rows.push(['ratio Cadence / composed ceiling (no target)', `${number(run.messagesPerSecond / composed.messagesPerSecond, 3)}x`]);
  }
  return rows;
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
  if (result.ceilings) rows.push(...ceilingRows(result.send, result.ceilings));
  if (result.pixel) rows.push(...pixelRows(result.pixel));
  for (const error of result.errors) rows.push(['not measured', error]);
  const { load } = options;
  return [
    `\n## E-mail\n\n${number(options.mailings)} mailings made \`scheduled\` at one instant through bulkUpsert, sent by one \`cadence worker\` to an SMTP server on 127.0.0.1 in the benchmark process, timed from that instant to the last \`deliveredAt\`, against the same messages sent by a bare pooled nodemailer transport (their bytes as received, the target's ceiling; and from their parts, composed by nodemailer); then \`GET /t/o/<token>.gif\` with the tokens of the messages received, ${load.connections} connections, ${load.seconds} s per server and round, ${options.rounds} rounds alternating which server goes first\n`,
    table([`E-mail, one \`cadence worker\` (WORKER_CONCURRENCY=${result.concurrency})`, ''], rows),
  ].join('\n');
}
