import type { WriteEffects, WriteOperation } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { stepAfter, stepsOf } from './steps.js';

/**
 * Moving sequence states on once their current step is done: to the next step (event
 * `advanced`; the state's afterWrite schedules it), or `finished` after the last one (event
 * `finished`). A move names the step it completes: a state already past it (a late task of an
 * earlier step, a job run twice) or no longer active is left as it is.
 */

export type MoveKind = 'advance' | 'finish' | 'finishReplied';

export interface Move {
  readonly stateId: number;
  /** The step whose completion moves the state on. */
  readonly fromStepId: number;
  readonly kind: MoveKind;
}

/**
 * `locked`: the states as the caller read them while holding their locks in this transaction
 * (the step runner), so that they need not be read again; read here when absent.
 */
export async function moveOn(effects: WriteEffects, moves: readonly Move[], locked?: ReadonlyMap<number, Row>): Promise<void> {
  if (moves.length === 0) return;
  const states =
    locked ??
    (await effects.records.rows(
      'sequenceState',
      moves.map((m) => m.stateId),
    ));
  const steps = await stepsOf(
    effects.records,
    [...states.values()].map((s) => Number(s.sequence)),
  );
  const now = effects.now.toISOString();
  const operations: WriteOperation[] = [];
  const moved = new Set<number>();
  for (const move of moves) {
    const state = states.get(move.stateId);
    if (!state || state.state !== 'active' || Number(state.sequenceStep) !== move.fromStepId || moved.has(move.stateId)) continue;
    moved.add(move.stateId);
    const next = move.kind === 'advance' ? stepAfter(steps.get(Number(state.sequence)) ?? [], move.fromStepId) : undefined;
    if (next) {
      operations.push(effects.update('sequenceState', move.stateId, { sequenceStep: Number(next.id), activeAt: now }, 'advanced'));
    } else {
      const replied = move.kind === 'finishReplied' ? { repliedAt: now } : {};
      operations.push(effects.update('sequenceState', move.stateId, { state: 'finished', ...replied }, 'finished'));
    }
  }
  await effects.write(operations);
}
