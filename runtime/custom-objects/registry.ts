import type { Context, Handler, Hono, Next } from 'hono';
import type postgres from 'postgres';
import {
  createCatalog,
  createResourceEngine,
  type ApiEnv,
  type EngineOptions,
  type RecordPresence,
  type ResourceCatalog,
  type ResourceDescriptor,
  type ResourceHandlers,
  type ResourceModule,
} from '../engine/index.js';
import { mountRoutes, resourceRoutes } from '../engine/routes.js';
import { resourceNotFound } from '../jsonapi/index.js';
import type { Transaction } from '../tenancy/index.js';
import type { Definition } from './definition.js';
import { definitionOf } from './definitions.js';
import { CUSTOM_OBJECT_OPERATIONS, CUSTOM_OBJECT_TABLE } from './descriptor.js';
import { orgDescriptors, withoutDanglingInverses } from './org-descriptors.js';
import { compileValidators } from './validators.js';

/** One org's custom objects as the engine serves them, built from its definitions. */
export interface OrgCustomObjects {
  /** `id:version` of every definition: when it changes, the org's objects are rebuilt. */
  readonly signature: string;
  readonly definitions: readonly Definition[];
  /** Standard resources plus this org's custom objects. */
  readonly descriptors: ReadonlyMap<string, ResourceDescriptor>;
  /** Each custom object's descriptor and body validators (compiled once per definitions' version), by name. */
  readonly modules: ReadonlyMap<string, ResourceModule>;
  /** Standard resources plus this org's custom objects, as the record writer resolves types. */
  readonly catalog: ResourceCatalog;
  readonly handlers: ReadonlyMap<string, ResourceHandlers>;
}

/** Orgs kept built in one process; the least recently built go first. */
const MAX_CACHED_ORGS = 1000;

/**
 * Serves custom objects through the same engine as standard resources, with descriptors and
 * validators built from the database. Each request reads the org's definitions' versions (one
 * statement) so a definition changed by any process is served at once by every process.
 */
export class CustomObjectRegistry {
  private readonly cache = new Map<number, OrgCustomObjects>();

  constructor(
    private readonly sql: postgres.Sql,
    private readonly standardDescriptors: ReadonlyMap<string, ResourceDescriptor>,
    private readonly engineOptions: Omit<EngineOptions, 'descriptors'>,
  ) {}

  async forOrg(orgId: number): Promise<OrgCustomObjects> {
    const rows = await this.sql`select * from cadence_system.custom_object_definitions_of(${orgId})`;
    const definitions = rows.map((row) => definitionOf(row as never));
    const signature = definitions.map((d) => `${d.id}:${d.version}`).join(',');
    const cached = this.cache.get(orgId);
    if (cached && cached.signature === signature) return cached;
    const built = this.build(definitions, signature);
    this.cache.delete(orgId);
    this.cache.set(orgId, built);
    if (this.cache.size > MAX_CACHED_ORGS) this.cache.delete(this.cache.keys().next().value!);
    return built;
  }

  private build(given: readonly Definition[], signature: string): OrgCustomObjects {
    const definitions = withoutDanglingInverses(given);
    const descriptors = orgDescriptors(this.standardDescriptors, definitions);
    const engine = createResourceEngine({ ...this.engineOptions, descriptors });
    const modules = new Map(definitions.map((d) => [d.name, { descriptor: descriptors.get(d.name)!, ...compileValidators(d) }] as const));
    const handlers = new Map([...modules].map(([name, module]) => [name, engine.bind(module)] as const));
    return { signature, definitions, descriptors, modules, catalog: createCatalog(descriptors), handlers };
  }

  /** A Hono handler running `operation` of the custom object named in the path. */
  handler(operation: keyof ResourceHandlers): Handler<ApiEnv> {
    // Hono types a handler's result as any; unknown is all this one can promise about it.
    return async (c: Context<ApiEnv>, next: Next): Promise<unknown> => {
      const name = c.req.param('name') ?? '';
      const objects = await this.forOrg(c.get('auth').orgId);
      const handlers = objects.handlers.get(name);
      if (!handlers) throw resourceNotFound(`This organisation has no custom object named ${name}`);
      return handlers[operation](c, next);
    };
  }
}

/**
 * Every custom object's routes, under /customObjects/:name by the same rule as standard
 * resources: any object may have relationships, and none has actions.
 */
export function mountCustomObjectRoutes(api: Hono<ApiEnv>, registry: CustomObjectRegistry): void {
  const routes = resourceRoutes({ operations: CUSTOM_OBJECT_OPERATIONS, actions: false, collectionActions: false, relationships: true }, '/customObjects/:name');
  mountRoutes(api, routes, (name) => registry.handler(name));
}

/** Whether the org has a custom object `type` with a record `id` (a favorite's target, say). */
export async function customObjectRecordPresence(tx: Transaction, orgId: number, type: string, id: number): Promise<RecordPresence> {
  const [definition] = await tx<{ found: boolean }[]>`
    select exists (select 1 from ${tx(CUSTOM_OBJECT_TABLE)} r where r.org_id = ${orgId} and r.definition_id = d.id and r.id = ${id}) as found
      from custom_object_definitions d where d.org_id = ${orgId} and d.name = ${type}`;
  if (!definition) return 'unknownType';
  return definition.found ? 'found' : 'missing';
}
