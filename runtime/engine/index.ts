import type postgres from 'postgres';
import type { Behaviours } from './behaviour.js';
import { checkBehaviours } from './behaviour-check.js';
import type { EngineDependencies } from './context.js';
import type { ResourceDescriptor, ResourceModule } from '../model/descriptor.js';
import { bindHandlers, type ResourceHandlers } from './handlers.js';
import type { Reference, ResourceCatalog } from './records.js';
import type { RecordWriter } from './write-operations.js';
import { buildStatements, type ResourceStatements } from './statements.js';

export type { ApiEnv } from './context.js';
export type * from '../model/descriptor.js';
export type {
  ResourceBehaviour,
  ActionHandler,
  Actor,
  Behaviours,
  AfterCreate,
  RecordLookup,
  RecordPresence,
  RecordReader,
  Review,
  ReviewedWrite,
  Viewer,
  WriteContext,
  WriteEffects,
  WrittenRecord,
} from './behaviour.js';
export { SERVICE_ACTOR } from './behaviour.js';
export type { ResourceHandlers } from './handlers.js';
export type { DynamicRecords, DynamicReferences, DynamicReferenceSet, Reference, ResourceCatalog } from './records.js';
export type * from './write-operations.js';
export { createRecordWriter, actionOperation, type RecordWriterOptions } from './record-writer/index.js';
export type { EventSink, RecordedEvent } from './event-log.js';
export { restoredPayload } from './event-payload.js';
export { changesByName, changesOfAttributes, type Snapshot } from './record-rules.js';

/** The one engine: every resource, standard or (later) custom, is served by binding a module. */
export interface ResourceEngine {
  bind(module: ResourceModule): ResourceHandlers;
}

export interface EngineOptions {
  readonly sql: postgres.Sql;
  readonly descriptors: ReadonlyMap<string, ResourceDescriptor>;
  readonly behaviours: Behaviours;
  readonly publicBaseUrl?: string | undefined;
  readonly cursorSecret: string;
  readonly clock?: () => Date;
  /** The one write path, shared by every engine (standard resources and each org's custom objects). */
  readonly writer: RecordWriter;
  /** COUNT_TIME_BUDGET_MS: a count taking longer is answered with count 0 and count_truncated; unset or 0: no limit. */
  readonly countTimeBudgetMs?: number | undefined;
}

/** Every to-one column in any resource that points at `type`, by type. */
export function referencesIndex(descriptors: Iterable<ResourceDescriptor>): (type: string) => readonly Reference[] {
  const index = referencesByType(descriptors);
  return (type) => index.get(type) ?? [];
}

function referencesByType(descriptors: Iterable<ResourceDescriptor>): Map<string, Reference[]> {
  const index = new Map<string, Reference[]>();
  for (const d of descriptors) {
    for (const rel of d.relationships) {
      if (rel.kind === 'toMany') continue;
      for (const target of rel.kind === 'toOne' ? [rel.target] : rel.targets) {
        const list = index.get(target) ?? [];
        list.push({ descriptor: d, relationship: rel });
        index.set(target, list);
      }
    }
  }
  return index;
}

/** Statements are built once per resource and shared by every handler that needs them. */
export function createCatalog(descriptors: ReadonlyMap<string, ResourceDescriptor>): ResourceCatalog {
  const entries = new Map<string, { descriptor: ResourceDescriptor; statements: ResourceStatements }>();
  return {
    has: (type) => descriptors.has(type),
    entry(type) {
      let entry = entries.get(type);
      if (!entry) {
        const descriptor = descriptors.get(type);
        if (!descriptor) throw new Error(`unknown resource type ${type}`);
        entry = { descriptor, statements: buildStatements(descriptor) };
        entries.set(type, entry);
      }
      return entry;
    },
  };
}

export function createResourceEngine(options: EngineOptions): ResourceEngine {
  checkBehaviours(options.descriptors, options.behaviours);
  const deps: EngineDependencies = {
    sql: options.sql,
    behaviours: options.behaviours,
    collections: new Map([...options.descriptors].map(([type, d]) => [type, d.collection])),
    publicBaseUrl: options.publicBaseUrl?.replace(/\/+$/, ''),
    catalog: createCatalog(options.descriptors),
    descriptorOf: (type) => options.descriptors.get(type),
    cursorSecret: options.cursorSecret,
    clock: options.clock ?? (() => new Date()),
    writer: options.writer,
    countTimeBudgetMs: options.countTimeBudgetMs || undefined,
  };
  return { bind: (module) => bindHandlers(module, deps) };
}
