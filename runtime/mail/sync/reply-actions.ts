import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter, type WriteEffects, type WriteOperation } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { enqueueJobs, type JobSpec } from '../../jobs/enqueue.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { lockedRows, written, writtenRows } from './service-writes.js';

/**
 * What a reply does to the sequence state of the mailing it answers, as its sequence says
 * (schema/sequence.json): `primaryReplyAction` `finish`, `pause` or `continue`; unset, the
 * deprecated `finishOnReply` (true: finish, false: continue); both unset, finish, which is what
 * a reply did before sequences could say otherwise. Every reply sets the state's `repliedAt` and
 * adds to its `replyCount`; a state that is no longer live (finished, failed, opted out...) is
 * left as it is.
 *
 * - finish: the state is `finished` (event `finished`; its step job goes).
 * - pause: a running state (active, pending) is `paused` with pause reason `reply`, its step job
 *   gone; after `primaryReplyPauseDuration` seconds (when set and positive) a job finishes it,
 *   unless it changed meanwhile (resumed, finished, paused again). A state already paused (out
 *   of office, by hand) takes the reply's reason and timer. A disabled one (its sequence
 *   deactivated) stays disabled, marked replied.
 * - continue: the state stays as it is, marked replied (event `updated`); its steps run on.
 */

export type ReplyAction = 'finish' | 'pause' | 'continue';

export const FINISH_PAUSED_REPLY_TASK = 'finish_paused_reply_sequence_state';

/** The pause reason a reply gives, and the finishing job looks for. */
export const REPLY_PAUSE_REASON = 'reply';

const LIVE_STATES = new Set(['pending', 'active', 'paused', 'disabled']);
const RUNNING_STATES = new Set(['pending', 'active']);

interface FinishPayload {
  readonly orgId: number;
  readonly stateId: number;
  /** The pause's stateChangedAt: a state changed since is left alone. */
  readonly pausedAt: string;
}

export function replyActionOf(sequence: Row | undefined): ReplyAction {
  const action = sequence?.primaryReplyAction;
  if (action === 'finish' || action === 'pause' || action === 'continue') return action;
  return sequence?.finishOnReply === false ? 'continue' : 'finish';
}

/** Applies replies to sequence states (locked by the caller): `replies` counts them per state id. */
export async function answerReplies(effects: WriteEffects, states: readonly Row[], replies: ReadonlyMap<number, number>): Promise<void> {
  const live = states.filter((s) => LIVE_STATES.has(String(s.state)));
  if (live.length === 0) return;
  const sequences = await effects.records.rows(
    'sequence',
    live.map((s) => Number(s.sequence)),
  );
  const now = effects.now.toISOString();
  const operations: WriteOperation[] = [];
  /** States paused for a while, and for how many seconds. */
  const pauses: { stateId: number; seconds: number }[] = [];
  for (const state of live) {
    const id = Number(state.id);
    const sequence = sequences.get(Number(state.sequence));
    const replied = { repliedAt: now, replyCount: Number(state.replyCount ?? 0) + (replies.get(id) ?? 0) };
    const action = replyActionOf(sequence);
    if (action === 'finish') {
      operations.push(effects.update('sequenceState', id, { ...replied, state: 'finished' }, 'finished'));
    } else if (action === 'pause' && (RUNNING_STATES.has(String(state.state)) || state.state === 'paused')) {
      operations.push(effects.update('sequenceState', id, { ...replied, state: 'paused', pauseReason: REPLY_PAUSE_REASON }));
      const seconds = Number(sequence?.primaryReplyPauseDuration ?? 0);
      if (seconds > 0) pauses.push({ stateId: id, seconds });
    } else {
      operations.push(effects.update('sequenceState', id, replied));
    }
  }
  const rows = await writtenRows(effects, operations);
  // The pause's time as written: a state paused already keeps its stateChangedAt (it changes with
  // the state only), and a new pause's is the write's own clock reading, not effects.now.
  const timers = pauses.flatMap(({ stateId, seconds }): JobSpec[] => {
    const stateChangedAt = rows.get(stateId)?.stateChangedAt;
    if (stateChangedAt == null) return [];
    const pausedAt = new Date(stateChangedAt as string).toISOString();
    return [finishJob({ orgId: effects.orgId, stateId, pausedAt }, new Date(effects.now.getTime() + seconds * 1000))];
  });
  await enqueueJobs(effects.tx, timers);
}

function finishJob(payload: FinishPayload, runAt: Date): JobSpec {
  // Keyed per state: a later reply's pause replaces the earlier timer.
  return { task: FINISH_PAUSED_REPLY_TASK, payload: { ...payload }, runAt, jobKey: `${FINISH_PAUSED_REPLY_TASK}:${payload.orgId}:${payload.stateId}` };
}

/** Finishes a state paused by a reply once its pause is over, unless it changed since. Runs twice harmlessly. */
export function finishPausedReplyTask(deps: { sql: postgres.Sql; writer: RecordWriter; log: Logger }): Task {
  return async (payload) => {
    const job = payload as FinishPayload;
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      const state = (await lockedRows(effects, 'sequenceState', [job.stateId])).get(job.stateId);
      const unchanged =
        state?.state === 'paused' &&
        state.pauseReason === REPLY_PAUSE_REASON &&
        state.stateChangedAt != null &&
        new Date(state.stateChangedAt as string).getTime() === new Date(job.pausedAt).getTime();
      if (!unchanged) return;
      await written(effects, [effects.update('sequenceState', job.stateId, { state: 'finished' }, 'finished')]);
      deps.log.info({ orgId: job.orgId, stateId: job.stateId }, 'sequence state paused by a reply finished');
    });
  };
}
