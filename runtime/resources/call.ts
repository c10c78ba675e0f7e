import type { ResourceBehaviour } from '../engine/index.js';

/**
 * A call is linked to its task and leaves it unchanged, unless the task relationship carries
 * `meta.complete: true`: then the task is completed, through the task's own markComplete.
 */
export const callBehaviour: ResourceBehaviour = {
  async afterCreate({ relationshipIds, relationshipMeta, runAction }) {
    const taskId = relationshipIds.task;
    if (relationshipMeta.get('task')?.complete === true && typeof taskId === 'number') {
      await runAction('task', taskId, 'markComplete');
    }
  },
};
