import { ApiError } from '../jsonapi/index.js';
import type { ResourceBehaviour } from '../engine/index.js';
import { touchPoints } from '../mail/tracking/touch-points.js';

/**
 * A call is linked to its task and leaves it unchanged, unless the task relationship carries
 * `meta.complete: true`: then the task is completed, through the task's own markComplete. A
 * call logged against a task already completed is still stored; the task stays as it was.
 *
 * A call logged to a prospect, other than one they made to us (`direction: inbound`), is a
 * touch point of theirs (touch-points.ts), as a mailing delivered to them is.
 */
export const callBehaviour: ResourceBehaviour = {
  async afterWrite(written, effects) {
    const touched = written.filter((w) => w.kind === 'create' && w.row.direction !== 'inbound' && w.row.prospect != null).map((w) => Number(w.row.prospect));
    await effects.writeInChunks(touchPoints(effects, touched));
  },
  async afterCreate({ relationshipIds, relationshipMeta, runAction }) {
    const taskId = relationshipIds.task;
    if (relationshipMeta.get('task')?.complete !== true || typeof taskId !== 'number') return;
    try {
      await runAction('task', taskId, 'markComplete');
    } catch (error) {
      if (error instanceof ApiError && error.errors[0]?.id === 'taskAlreadyCompleted') return;
      throw error;
    }
  },
};
