import { ApiError } from '../jsonapi/index.js';
import type { ResourceBehaviour } from '../engine/index.js';

/**
 * A call is linked to its task and leaves it unchanged, unless the task relationship carries
 * `meta.complete: true`: then the task is completed, through the task's own markComplete. A
 * call logged against a task already completed is still stored; the task stays as it was.
 */
export const callBehaviour: ResourceBehaviour = {
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
