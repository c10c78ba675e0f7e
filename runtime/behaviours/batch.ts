import { actionFailed, invalidQueryParameter } from '../jsonapi/index.js';
import type { ActionHandler, ResourceBehaviour } from '../engine/index.js';

function invalidState(action: string, state: unknown): never {
  throw actionFailed('invalidBatchState', `A batch in state "${String(state)}" cannot be ${action === 'confirm' ? 'confirmed' : 'canceled'}`);
}

/**
 * confirm (SPEC.md "Batch" states): from `confirming` to `pending`. When the batch requires it,
 * `confirmedCount` must be given and equal `confirmCount`: the client confirms what it was
 * shown. Starting the batch's chunk jobs and charging the daily allowance are done in the same
 * transaction by the bulk module's route (runtime/bulk/actions/lifecycle-route.ts).
 */
const confirm: ActionHandler = {
  changes: ['state', 'confirmedAt', 'startedAt'],
  handle({ record, params, now }) {
    if (record.state !== 'confirming') invalidState('confirm', record.state);
    const given = params.get('confirmedCount');
    if (given !== undefined && !/^\d{1,9}$/.test(given)) {
      throw invalidQueryParameter('actionParams[confirmedCount]', 'actionParams[confirmedCount] must be a non-negative integer');
    }
    const expected = Number(record.confirmCount);
    if (record.confirmedCountRequired === true && given === undefined) {
      throw actionFailed('confirmedCountMismatch', `This batch must be confirmed with actionParams[confirmedCount]=${expected}, the number of records it applies to`);
    }
    if (given !== undefined && Number(given) !== expected) {
      throw actionFailed('confirmedCountMismatch', `actionParams[confirmedCount] is ${given}, but the batch applies to ${expected} records`);
    }
    const at = now.toISOString();
    return { changes: { state: 'pending', confirmedAt: at, startedAt: at } };
  },
};

/**
 * cancel: from `confirming` or `pending` to `canceled`; records already changed stay changed. An
 * unconfirmed batch has nothing left pending: its items are skipped in the same transaction
 * (runtime/bulk/actions/action-batch.ts), while a processing batch's chunks count theirs down.
 */
const cancel: ActionHandler = {
  changes: ['state', 'canceledAt', 'pending'],
  handle({ record, now }) {
    if (record.state !== 'confirming' && record.state !== 'pending') invalidState('cancel', record.state);
    return { changes: { state: 'canceled', canceledAt: now.toISOString(), ...(record.state === 'confirming' && { pending: 0 }) } };
  },
};

/** Its epoch-second createdAt and updatedAt are the schema's (`x-renderedAs`), rendered by the engine. */
export const batchBehaviour: ResourceBehaviour = {
  actions: { confirm, cancel },
};
