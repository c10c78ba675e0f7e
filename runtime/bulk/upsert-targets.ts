import { modules } from '../../generated/resources/index.js';
import type { OrgCustomObjects } from '../custom-objects/registry.js';
import type { BodyValidator, ResourceDescriptor } from '../engine/index.js';
import type { ResourceCatalog } from '../engine/records.js';
import type { UpsertAction } from './upsert-request.js';

/** The resource the records of one bulk upsert are written to, and how each body is checked. */
export interface UpsertTarget {
  readonly descriptor: ResourceDescriptor;
  readonly validateCreate: BodyValidator;
  readonly validateUpdate: BodyValidator;
  /** The org's resources, custom objects included, for a custom object; absent for a standard resource. */
  readonly catalog?: ResourceCatalog;
}

/** What the custom-object registry (runtime/custom-objects/registry.ts) tells about one org. */
export interface OrgCustomObjectsSource {
  forOrg(orgId: number): Promise<Pick<OrgCustomObjects, 'modules' | 'catalog'>>;
}

/** A type that cannot be upserted, and why, in a sentence for the client. */
export interface NotUpsertable {
  readonly refused: string;
}

/**
 * Finds the target of a bulk upsert: a standard resource with both create and update for
 * `bulkUpsert`, one of the org's custom objects for `customObjectBulkUpsert` (SPEC.md "Bulk
 * upsert" rule 3). Custom objects' descriptors and validators are the registry's, built once
 * per version of the org's definitions.
 */
export class UpsertTargets {
  constructor(private readonly customObjects: OrgCustomObjectsSource) {}

  async resolve(action: UpsertAction, orgId: number, type: string): Promise<UpsertTarget | NotUpsertable> {
    const standard = modules.get(type);
    if (action === 'bulkUpsert') {
      if (!standard) return { refused: `"${type}" is not a standard resource type; custom object records go to customObjectBulkUpsert` };
      const { descriptor, validateCreate, validateUpdate } = standard;
      if (!descriptor.operations.create || !descriptor.operations.update || !validateCreate || !validateUpdate) {
        return { refused: `${type} cannot be upserted: only resources with both create and update can` };
      }
      return { descriptor, validateCreate, validateUpdate };
    }
    const objects = await this.customObjects.forOrg(orgId);
    const module = objects.modules.get(type);
    if (!module?.validateCreate || !module.validateUpdate) {
      const hint = standard ? '; standard resources go to bulkUpsert' : '';
      return { refused: `This organisation has no custom object named "${type}"${hint}` };
    }
    return { descriptor: module.descriptor, validateCreate: module.validateCreate, validateUpdate: module.validateUpdate, catalog: objects.catalog };
  }
}
