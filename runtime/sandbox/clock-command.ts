import type postgres from 'postgres';
import { AdminError, requireOrg } from '../operator/index.js';
import { advanceSandboxClock, MAX_ADVANCE_SECONDS, readSandboxClock, type SandboxClockState } from './clock.js';

/**
 * `cadence clock show|advance --org ID [--by 1d]`: the test clock (clock.ts) from the command
 * line, as GET /api/v2/sandbox/clock and its advance action do over HTTP. Sandbox mode only.
 */

export interface ClockRequest {
  readonly orgId: number;
  /** Seconds to move the clock forward; absent: only show it. */
  readonly advanceSeconds?: number;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 60 * 60, d: 24 * 60 * 60 };

/** `--by`: a whole number of seconds, minutes, hours or days (90s, 15m, 2h, 1d), at most ten years. */
export function parseDuration(text: string | undefined): number {
  const match = text?.match(/^([1-9][0-9]*)([smhd])$/);
  if (!match) throw new AdminError(`--by must be a duration such as 90s, 15m, 2h or 1d, not ${text === undefined ? 'missing' : `"${text}"`}`);
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  if (seconds > MAX_ADVANCE_SECONDS) throw new AdminError(`--by must be at most ten years (${MAX_ADVANCE_SECONDS}s), not "${text}"`);
  return seconds;
}

/** What `cadence clock show|advance` asks for, checked before the database is opened. */
export function clockRequest(command: 'clock show' | 'clock advance', options: { org: string | undefined; by: string | undefined }, sandbox: boolean): ClockRequest {
  if (!sandbox) throw new AdminError('the test clock exists only in a sandbox: set CADENCE_SANDBOX=true, for the server and worker too');
  if (options.org === undefined || !/^[1-9][0-9]*$/.test(options.org)) throw new AdminError('--org must be a positive integer');
  const orgId = Number(options.org);
  return command === 'clock show' ? { orgId } : { orgId, advanceSeconds: parseDuration(options.by) };
}

/** Shows or advances the org's clock; what it prints. */
export async function runClockCommand(sql: postgres.Sql, request: ClockRequest, realNow = new Date()): Promise<Record<string, unknown>> {
  await sql.begin((tx) => requireOrg(tx, request.orgId));
  const state =
    request.advanceSeconds === undefined
      ? await readSandboxClock(sql, request.orgId, realNow)
      : await advanceSandboxClock(sql, request.orgId, request.advanceSeconds, realNow);
  return printed(state);
}

function printed(state: SandboxClockState): Record<string, unknown> {
  return { orgId: state.orgId, now: state.now.toISOString(), offsetSeconds: state.offsetSeconds };
}
