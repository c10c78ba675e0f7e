import { actionOperation, type Behaviours, type BodyValidator, type ResourceCatalog, type ResourceDescriptor, type WriteOperation } from '../../engine/index.js';
import { changesByName } from '../../engine/record-rules.js';
import type { Row } from '../../engine/render.js';
import { existingTargets } from '../../engine/set-statements.js';
import { readWriteBody } from '../../engine/write-input.js';
import { validationError } from '../../jsonapi/index.js';
import { quoteIdent } from '../../model/sql-text.js';
import type { Transaction } from '../../tenancy/index.js';

/**
 * The bulk actions of SPEC.md "Bulk actions (batches)", as the reference OpenAPI names them
 * (`/batches/actions/<name>`): what each selects, what its body says, and the write operations
 * it makes of each selected record. Every operation goes through the record writer, so a bulk
 * change is validated, derived, recorded and delivered exactly as the same single write.
 */

/** The collection a bulk action selects from: a standard resource, or the custom object `actionParams[objectName]` names. */
export type Subject = 'prospect' | 'account' | 'customObject';

/** The parameters an action keeps on its batch (`payload.parameters`), read back by each chunk. */
export type ActionParameters = Readonly<Record<string, unknown>>;

/** What reading a body may look at: the subject's resource and the org's records. */
export interface BodyContext {
  readonly tx: Transaction;
  readonly orgId: number;
  readonly descriptor: ResourceDescriptor;
  readonly validateUpdate: BodyValidator | undefined;
  readonly catalog: ResourceCatalog;
}

/** What planning a chunk may look at. */
export interface PlanContext extends BodyContext {
  readonly behaviours: Behaviours;
}

export interface BulkActionDefinition {
  readonly subject: Subject;
  /** The scope right the caller needs on the subject's resource besides batches.read and .write. */
  readonly access: 'write' | 'delete';
  /** Deletes: confirming them always needs `confirmedCount`. */
  readonly destructive: boolean;
  /**
   * Checks the body's attributes (`ids` taken out) before any batch exists; a problem is a 422
   * pointing at `/data/attributes/<name>`. Answers what the chunks need, as JSON.
   */
  readonly readBody: (attributes: Readonly<Record<string, unknown>>, context: BodyContext) => Promise<ActionParameters>;
  /** The operations for each record of a chunk, in their order; none makes the item `skipped`. */
  readonly plan: (recordIds: readonly number[], parameters: ActionParameters, context: PlanContext) => Promise<WriteOperation[][]>;
}

// ---- reading bodies ----

function refuse(name: string, detail: string): never {
  throw validationError([{ pointer: `/data/attributes/${name}`, detail }]);
}

/** Refuses every attribute but `allowed`: a body the action does not read is a mistake, not a no-op. */
function onlyAttributes(attributes: Readonly<Record<string, unknown>>, allowed: readonly string[]): void {
  for (const name of Object.keys(attributes)) {
    if (!allowed.includes(name))
      refuse(name, allowed.length ? `This action takes ${allowed.join(', ')} (and ids), not ${name}` : `This action takes no attributes but ids, not ${name}`);
  }
}

/** An id given as a number or a numeric string (the reference shows both), or undefined when it is neither. */
function idOf(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

/**
 * The ids `values` give, each a record of `type` in the org: checked with the record writer's
 * own existence query (existingTargets), one statement for the whole list.
 */
async function existingRecordIds(name: string, values: readonly unknown[], type: string, context: BodyContext): Promise<number[]> {
  const ids = values.map((value) => idOf(value) ?? refuse(name, `${name} must be the id of a ${type}`));
  const descriptor = context.catalog.entry(type).descriptor;
  const found = await existingTargets(context.tx, context.orgId, new Map([[descriptor, new Set(ids)]]));
  const missing = ids.find((id) => !found.has(`${type}:${id}`));
  if (missing !== undefined) refuse(name, `${name} ${missing} is no ${type} of this organisation`);
  return [...new Set(ids)];
}

/** One id of a record of `type` in the org, named by `value`. */
async function existingId(name: string, value: unknown, type: string, context: BodyContext, required = true): Promise<number | undefined> {
  if (value === undefined || value === null) {
    if (required) refuse(name, `${name} is required`);
    return undefined;
  }
  return (await existingRecordIds(name, [value], type, context))[0];
}

async function existingIds(name: string, value: unknown, type: string, context: BodyContext): Promise<number[]> {
  if (!Array.isArray(value) || value.length === 0) refuse(name, `${name} must be a non-empty list of ${type} ids`);
  return existingRecordIds(name, value as unknown[], type, context);
}

function tagList(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 255)) {
    refuse('tags', 'tags must be a non-empty list of strings of at most 255 characters');
  }
  return [...new Set(value as string[])];
}

// ---- planning chunks ----

/** The same changes for every record. */
function updateEach(type: string, values: Readonly<Record<string, unknown>>, descriptor: ResourceDescriptor) {
  const changes = changesByName(descriptor, values);
  return (ids: readonly number[]) => ids.map((id): WriteOperation[] => [{ kind: 'update', type, id, changes }]);
}

/** Changes computed from each record as it is, locked by the write (tags, assignments). */
function updateEachFrom(descriptor: ResourceDescriptor, values: (current: Row) => Record<string, unknown>) {
  return (ids: readonly number[]) =>
    ids.map((id): WriteOperation[] => [{ kind: 'update', type: descriptor.type, id, changes: (current) => changesByName(descriptor, values(current)) }]);
}

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

// ---- the actions ----

function modify(subject: Subject): BulkActionDefinition {
  return {
    subject,
    access: 'write',
    destructive: false,
    async readBody(attributes, context) {
      // The single-field form of the reference: {fieldName, fieldValue}.
      const values = Object.hasOwn(attributes, 'fieldName') ? singleField(attributes) : { ...attributes };
      if (Object.keys(values).length === 0) refuse('attributes', 'Name at least one field to modify');
      if (!context.validateUpdate) throw new Error(`${context.descriptor.type} has no update validator`);
      // The body a PATCH of one record would have: the same checks, the same pointers.
      readWriteBody(context.descriptor, { data: { type: context.descriptor.type, id: '1', attributes: values } }, 'update', context.validateUpdate, 1);
      return { attributes: values };
    },
    plan(ids, parameters, context) {
      const input = readWriteBody(
        context.descriptor,
        { data: { type: context.descriptor.type, id: '1', attributes: parameters.attributes } },
        'update',
        context.validateUpdate!,
        1,
      );
      const changes = { attributes: input.attributes, relationships: input.relationships };
      return Promise.resolve(ids.map((id): WriteOperation[] => [{ kind: 'update', type: context.descriptor.type, id, changes }]));
    },
  };
}

function singleField(attributes: Readonly<Record<string, unknown>>): Record<string, unknown> {
  onlyAttributes(attributes, ['fieldName', 'fieldValue']);
  const name = attributes.fieldName;
  if (typeof name !== 'string' || name === '') refuse('fieldName', 'fieldName must name the field to modify');
  if (!Object.hasOwn(attributes, 'fieldValue')) refuse('fieldValue', 'fieldValue is required with fieldName');
  return { [name]: attributes.fieldValue };
}

function destroy(subject: Subject): BulkActionDefinition {
  return {
    subject,
    access: 'delete',
    destructive: true,
    readBody(attributes) {
      onlyAttributes(attributes, []);
      return Promise.resolve({});
    },
    plan: (ids, _parameters, context) => Promise.resolve(ids.map((id): WriteOperation[] => [{ kind: 'delete', type: context.descriptor.type, id }])),
  };
}

function tags(subject: Subject, change: 'add' | 'remove'): BulkActionDefinition {
  return {
    subject,
    access: 'write',
    destructive: false,
    readBody(attributes) {
      onlyAttributes(attributes, ['tags']);
      return Promise.resolve({ tags: tagList(attributes.tags) });
    },
    plan(ids, parameters, context) {
      const given = listOf<string>(parameters.tags);
      return Promise.resolve(
        updateEachFrom(context.descriptor, (current) => {
          const now = listOf<string>(current.tags);
          return { tags: change === 'add' ? [...now, ...given.filter((t) => !now.includes(t))] : now.filter((t) => !given.includes(t)) };
        })(ids),
      );
    },
  };
}

/** Sets a to-one relationship of every record to one record named in the body (`ownerId`, `accountId`). */
function assign(subject: Subject, field: string, relationship: string, target: string): BulkActionDefinition {
  return {
    subject,
    access: 'write',
    destructive: false,
    async readBody(attributes, context) {
      onlyAttributes(attributes, [field]);
      return { [relationship]: await existingId(field, attributes[field], target, context) };
    },
    plan: (ids, parameters, context) => Promise.resolve(updateEach(context.descriptor.type, parameters, context.descriptor)(ids)),
  };
}

function assignments(subject: Subject, change: 'add' | 'remove' | 'removeAll'): BulkActionDefinition {
  const fields = change === 'removeAll' ? [] : ['userIds'];
  return {
    subject,
    access: 'write',
    destructive: false,
    async readBody(attributes, context) {
      onlyAttributes(attributes, fields);
      return change === 'removeAll' ? {} : { userIds: await existingIds('userIds', attributes.userIds, 'user', context) };
    },
    plan(ids, parameters, context) {
      const given = listOf<number>(parameters.userIds);
      return Promise.resolve(
        updateEachFrom(context.descriptor, (current) => {
          const now = listOf<number>(current.assignedUserIds);
          if (change === 'removeAll') return { assignedUserIds: [] };
          return { assignedUserIds: change === 'add' ? [...now, ...given.filter((u) => !now.includes(u))] : now.filter((u) => !given.includes(u)) };
        })(ids),
      );
    },
  };
}

/** prospectsAssignOpportunity: each prospect gets a role on the opportunity, unless it has one. */
const assignOpportunity: BulkActionDefinition = {
  subject: 'prospect',
  access: 'write',
  destructive: false,
  async readBody(attributes, context) {
    onlyAttributes(attributes, ['opportunityId']);
    return { opportunityId: await existingId('opportunityId', attributes.opportunityId, 'opportunity', context) };
  },
  async plan(ids, parameters, context) {
    const opportunityId = Number(parameters.opportunityId);
    const roles = context.catalog.entry('opportunityProspectRole').descriptor;
    const existing = await context.tx.unsafe<{ prospectId: number }[]>(
      `select prospect_id as "prospectId" from ${quoteIdent(roles.table)} where org_id = $1 and opportunity_id = $2 and prospect_id = any($3::bigint[])`,
      [context.orgId, opportunityId, ids as number[]],
    );
    const has = new Set(existing.map((r) => Number(r.prospectId)));
    return ids.map((id): WriteOperation[] =>
      has.has(id) ? [] : [{ kind: 'create', type: roles.type, changes: changesByName(roles, { prospect: id, opportunity: opportunityId }) }],
    );
  },
};

/** prospectsAddToSequence: one sequence state per prospect, made as POST /sequenceStates makes it. */
const addToSequence: BulkActionDefinition = {
  subject: 'prospect',
  access: 'write',
  destructive: false,
  async readBody(attributes, context) {
    onlyAttributes(attributes, ['sequenceId', 'mailboxId', 'stepOverrides']);
    if (
      attributes.stepOverrides !== undefined &&
      (!Array.isArray(attributes.stepOverrides) || !attributes.stepOverrides.every((o) => typeof o === 'object' && o !== null))
    ) {
      refuse('stepOverrides', 'stepOverrides must be a list of objects');
    }
    // The reference gives no shape for an override; applying none of what a client asked for
    // would run steps it meant to change, so any override is refused rather than ignored.
    if (Array.isArray(attributes.stepOverrides) && attributes.stepOverrides.length > 0) {
      refuse('stepOverrides', 'Step overrides are not supported: send an empty list, or change the sequence steps themselves');
    }
    return {
      sequence: await existingId('sequenceId', attributes.sequenceId, 'sequence', context),
      mailbox: await existingId('mailboxId', attributes.mailboxId, 'mailbox', context),
    };
  },
  plan(ids, parameters, context) {
    const states = context.catalog.entry('sequenceState').descriptor;
    return Promise.resolve(
      ids.map((id): WriteOperation[] => [
        { kind: 'create', type: states.type, changes: changesByName(states, { prospect: id, sequence: parameters.sequence, mailbox: parameters.mailbox }) },
      ]),
    );
  },
};

/** prospectsFinishAll / prospectsPauseAll: the sequence-state action on each prospect's states it applies to. */
function sequenceStates(action: 'finish' | 'pause'): BulkActionDefinition {
  const from = action === 'finish' ? ['pending', 'active', 'paused'] : ['pending', 'active'];
  return {
    subject: 'prospect',
    access: 'write',
    destructive: false,
    readBody(attributes) {
      onlyAttributes(attributes, []);
      return Promise.resolve({});
    },
    async plan(ids, _parameters, context) {
      const states = context.catalog.entry('sequenceState').descriptor;
      const rows = await context.tx.unsafe<{ id: number; prospectId: number }[]>(
        `select id, prospect_id as "prospectId" from ${quoteIdent(states.table)}
          where org_id = $1 and prospect_id = any($2::bigint[]) and state = any($3::text[]) order by id`,
        [context.orgId, ids as number[], from],
      );
      const byProspect = new Map<number, WriteOperation[]>();
      for (const row of rows) {
        const operations = byProspect.get(Number(row.prospectId)) ?? [];
        operations.push(actionOperation(context.behaviours, states, Number(row.id), action));
        byProspect.set(Number(row.prospectId), operations);
      }
      return ids.map((id) => byProspect.get(id) ?? []);
    },
  };
}

/** Every bulk action by its name in the URL (the reference OpenAPI's 23). */
export const BULK_ACTIONS: ReadonlyMap<string, BulkActionDefinition> = new Map([
  ['accountsBulkModify', modify('account')],
  ['prospectsBulkModify', modify('prospect')],
  ['customObjectBulkModify', modify('customObject')],
  ['accountsDestroyAll', destroy('account')],
  ['prospectsDestroyAll', destroy('prospect')],
  ['customObjectBulkDelete', destroy('customObject')],
  ['accountAddTags', tags('account', 'add')],
  ['accountsRemoveTags', tags('account', 'remove')],
  ['prospectsAddTags', tags('prospect', 'add')],
  ['prospectsRemoveTags', tags('prospect', 'remove')],
  ['accountsAssignOwner', assign('account', 'ownerId', 'owner', 'user')],
  ['prospectsAssignOwner', assign('prospect', 'ownerId', 'owner', 'user')],
  ['prospectsAssignAccount', assign('prospect', 'accountId', 'account', 'account')],
  ['prospectsAssignOpportunity', assignOpportunity],
  ['accountsAddAssignments', assignments('account', 'add')],
  ['accountsRemoveAssignments', assignments('account', 'remove')],
  ['accountsRemoveAllAssignments', assignments('account', 'removeAll')],
  ['prospectsAddAssignments', assignments('prospect', 'add')],
  ['prospectsRemoveAssignments', assignments('prospect', 'remove')],
  ['prospectsRemoveAllAssignments', assignments('prospect', 'removeAll')],
  ['prospectsAddToSequence', addToSequence],
  ['prospectsFinishAll', sequenceStates('finish')],
  ['prospectsPauseAll', sequenceStates('pause')],
]);
