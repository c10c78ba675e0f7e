import type { FieldError } from '../jsonapi/index.js';
import type { ResourceBehaviour } from '../engine/index.js';

/**
 * A favorite names its record by targetType and targetId, which no foreign key can check (the
 * target's table depends on the type): the record must exist in the org when either is written.
 */
export const favoriteBehaviour: ResourceBehaviour = {
  async check(next, previous, records): Promise<FieldError[]> {
    const { targetType: type, targetId: id } = next;
    if (previous && type === previous.targetType && id === previous.targetId) return [];
    // Missing or mistyped values are the body validator's to report.
    if (typeof type !== 'string' || typeof id !== 'number') return [];
    const presence = await records.presence(type, id);
    if (presence === 'unknownType') return [{ pointer: '/data/attributes/targetType', detail: `${JSON.stringify(type)} is not a resource type` }];
    if (presence === 'missing') return [{ pointer: '/data/attributes/targetId', detail: `No ${type} with id ${id} exists` }];
    return [];
  },
};
