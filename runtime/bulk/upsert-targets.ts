import { modules } from '../../generated/routes/index.js';
import type { Definition } from '../custom-objects/definition.js';
import { compileValidators } from '../custom-objects/validators.js';
import { createCatalog, type BodyValidator, type ResourceDescriptor } from '../engine/index.js';
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
  forOrg(
    orgId: number,
  ): Promise<{ readonly signature: string; readonly definitions: readonly Definition[]; readonly descriptors: ReadonlyMap<string, ResourceDescriptor> }>;
}

/** A type that cannot be upserted, and why, in a sentence for the client. */
export interface NotUpsertable {
  readonly refused: string;
}

/** Compiled custom-object targets are kept for this many orgs; the least recently built go first. */
const MAX_CACHED_ORGS = 200;

/**
 * Finds the target of a bulk upsert: a standard resource with both create and update for
 * `bulkUpsert`, one of the org's custom objects for `customObjectBulkUpsert` (SPEC.md "Bulk
 * upsert" rule 3). Custom objects' validators are compiled once per version of the org's
 * definitions, as the registry builds their descriptors.
 */
export class UpsertTargets {
  private readonly customByOrg = new Map<number, { signature: string; targets: Map<string, UpsertTarget> }>();

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
    const target = (await this.customTargets(orgId)).get(type);
    if (!target) {
      const hint = standard ? '; standard resources go to bulkUpsert' : '';
      return { refused: `This organisation has no custom object named "${type}"${hint}` };
    }
    return target;
  }

  private async customTargets(orgId: number): Promise<Map<string, UpsertTarget>> {
    const org = await this.customObjects.forOrg(orgId);
    const cached = this.customByOrg.get(orgId);
    if (cached && cached.signature === org.signature) return cached.targets;
    const catalog = createCatalog(org.descriptors);
    const targets = new Map(
      org.definitions.map((definition) => [definition.name, { descriptor: org.descriptors.get(definition.name)!, ...compileValidators(definition), catalog }] as const),
    );
    this.customByOrg.delete(orgId);
    this.customByOrg.set(orgId, { signature: org.signature, targets });
    if (this.customByOrg.size > MAX_CACHED_ORGS) this.customByOrg.delete(this.customByOrg.keys().next().value!);
    return targets;
  }
}
