import { descriptors, modules } from '../../../generated/resources/index.js';
import { createCatalog, type BodyValidator, type ResourceCatalog, type ResourceDescriptor } from '../../engine/index.js';
import type { OrgCustomObjectsSource } from '../upsert-targets.js';
import type { Subject } from './definitions.js';

/** The resource a bulk action's records belong to, with what its chunks need to write them. */
export interface ResolvedSubject {
  readonly descriptor: ResourceDescriptor;
  readonly validateUpdate: BodyValidator | undefined;
  /** The org's resources: the standard ones, with its custom objects for a custom object. */
  readonly catalog: ResourceCatalog;
  readonly descriptorOf: (type: string) => ResourceDescriptor | undefined;
}

const standardCatalog = createCatalog(descriptors);

function resolved(descriptor: ResourceDescriptor, validateUpdate: BodyValidator | undefined, catalog: ResourceCatalog): ResolvedSubject {
  return { descriptor, validateUpdate, catalog, descriptorOf: (type) => (catalog.has(type) ? catalog.entry(type).descriptor : undefined) };
}

/**
 * Finds a bulk action's subject: prospects or accounts, or the org's custom object named by
 * `actionParams[objectName]` (its descriptor and validators are the custom-object registry's).
 * Undefined when the org has no such custom object.
 */
export async function resolveSubject(
  subject: Subject,
  objectName: string | undefined,
  orgId: number,
  customObjects: OrgCustomObjectsSource,
): Promise<ResolvedSubject | undefined> {
  if (subject !== 'customObject') {
    const module = modules.get(subject)!;
    return resolved(module.descriptor, module.validateUpdate, standardCatalog);
  }
  if (objectName === undefined) return undefined;
  const objects = await customObjects.forOrg(orgId);
  const module = objects.modules.get(objectName);
  return module ? resolved(module.descriptor, module.validateUpdate, objects.catalog) : undefined;
}
