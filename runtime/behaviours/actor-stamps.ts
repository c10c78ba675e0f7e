import type { Behaviours, ResourceBehaviour, ResourceDescriptor } from '../engine/index.js';

function hasUserToOne(descriptor: ResourceDescriptor, name: string): boolean {
  return descriptor.relationships.some((r) => r.kind === 'toOne' && r.name === name && r.target === 'user');
}

/**
 * `creator` and `updater`, the read-only relationships many resources have to user, name the
 * user who created a record and the one who changed it last. Writes by an application acting
 * alone or by the service itself have no user: they create with no creator and leave the
 * updater as it was. Every resource with either relationship gets this on top of its own
 * behaviour, whose derived values win.
 */
export function withActorStamps(behaviours: Behaviours, descriptors: Iterable<ResourceDescriptor>): Behaviours {
  const result = new Map(behaviours);
  for (const descriptor of descriptors) {
    const creator = hasUserToOne(descriptor, 'creator');
    const updater = hasUserToOne(descriptor, 'updater');
    if (!creator && !updater) continue;
    const own = behaviours.get(descriptor.type);
    const stamped: ResourceBehaviour = {
      ...own,
      derives: [...(creator ? ['creator'] : []), ...(updater ? ['updater'] : []), ...(own?.derives ?? [])],
      derive(next, previous, write) {
        const userId = write.actor.userId;
        return {
          ...(creator && previous === null && { creator: userId }),
          ...(updater && (previous === null || userId !== null) && { updater: userId }),
          ...own?.derive?.(next, previous, write),
        };
      },
    };
    result.set(descriptor.type, stamped);
  }
  return result;
}
