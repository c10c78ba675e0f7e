import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter, type WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { enqueueJobs } from '../../jobs/enqueue.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { lockedRows, written, writtenRows } from './service-writes.js';

export const RESUME_OOTO_TASK = 'resume_ooto_sequence_state';

/** The pause reason an out-of-office answer gives, and the resume job looks for. */
export const OOTO_PAUSE_REASON = 'ooto';

/** Days before an out-of-office prospect's state resumes when the ruleset says to but not when. */
export const DEFAULT_OOTO_RESUME_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

interface ResumePayload {
  readonly orgId: number;
  readonly stateId: number;
  /** The pause's stateChangedAt: a state changed since (resumed, finished, paused again) is left alone. */
  readonly pausedAt: string;
}

/**
 * An out-of-office answer pauses the sequence state of the mailing it answers (when running),
 * with pause reason `ooto`. When the sequence's ruleset has autoResumeOotoProspects, a job at
 * the resume time (autoResumeOotoProspectsIn days, by the service's clock) resumes it.
 */
export async function pauseOutOfOffice(effects: WriteEffects, mailings: readonly Row[]): Promise<void> {
  const stateIds = [...new Set(mailings.flatMap((m) => (m.sequenceState == null ? [] : [Number(m.sequenceState)])))];
  const states = [...(await lockedRows(effects, 'sequenceState', stateIds)).values()].filter((s) => s.state === 'active' || s.state === 'pending');
  if (states.length === 0) return;
  // The pause's time as written (its stateChangedAt), which the resume compares with.
  const paused = await writtenRows(
    effects,
    states.map((s) => effects.update('sequenceState', Number(s.id), { state: 'paused', pauseReason: OOTO_PAUSE_REASON })),
  );
  const sequences = await effects.records.rows(
    'sequence',
    states.map((s) => Number(s.sequence)),
  );
  const rulesetIds = [...sequences.values()].flatMap((s) => (s.ruleset == null ? [] : [Number(s.ruleset)]));
  const rulesets = await effects.records.rows('ruleset', rulesetIds);
  const resumes = states.flatMap((state) => {
    const ruleset = rulesets.get(Number(sequences.get(Number(state.sequence))?.ruleset));
    if (ruleset?.autoResumeOotoProspects !== true) return [];
    const days =
      typeof ruleset.autoResumeOotoProspectsIn === 'number' && ruleset.autoResumeOotoProspectsIn > 0 ? ruleset.autoResumeOotoProspectsIn : DEFAULT_OOTO_RESUME_DAYS;
    const stateChangedAt = paused.get(Number(state.id))?.stateChangedAt;
    if (stateChangedAt == null) return [];
    const payload: ResumePayload = { orgId: effects.orgId, stateId: Number(state.id), pausedAt: new Date(stateChangedAt as string).toISOString() };
    return [
      {
        task: RESUME_OOTO_TASK,
        payload: { ...payload },
        runAt: new Date(effects.now.getTime() + days * DAY_MS),
        jobKey: `${RESUME_OOTO_TASK}:${effects.orgId}:${state.id}`,
      },
    ];
  });
  await enqueueJobs(effects.tx, resumes);
}

/** Resumes a state paused out of office, unless it changed since the pause. Runs twice harmlessly. */
export function resumeOutOfOfficeTask(deps: { sql: postgres.Sql; writer: RecordWriter; log: Logger }): Task {
  return async (payload) => {
    const job = payload as ResumePayload;
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      const state = (await lockedRows(effects, 'sequenceState', [job.stateId])).get(job.stateId);
      const unchanged = state?.state === 'paused' && state.pauseReason === OOTO_PAUSE_REASON && sameInstant(state.stateChangedAt, job.pausedAt);
      if (!unchanged) return;
      await written(effects, [effects.update('sequenceState', job.stateId, { state: 'active', pauseReason: null })]);
      deps.log.info({ orgId: job.orgId, stateId: job.stateId }, 'out-of-office sequence state resumed');
    });
  };
}

function sameInstant(a: unknown, b: string): boolean {
  return a != null && new Date(a as string).getTime() === new Date(b).getTime();
}
