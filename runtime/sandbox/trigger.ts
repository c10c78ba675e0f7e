import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter, type ResourceDescriptor, type WriteEffects } from '../engine/index.js';
import { AdminError, requireOrg } from '../operator/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { canSample, sampleValues, updatableText, writeSampleRecord } from './sample-records.js';
import { writeOne, type MadeRecord } from './writes.js';

/**
 * `cadence trigger <resource>.<action>`: makes real records through the record writer so that
 * the event of that name is recorded, and webhooks subscribed to it are delivered, as if a
 * client had made them. The names come from the descriptors' webhook actions: every
 * created/updated/destroyed of a resource a sample record can be built for, plus the recipes
 * below for events that arise from an action or from the worker.
 */

export interface TriggerContext {
  readonly effects: WriteEffects;
  readonly descriptors: ReadonlyMap<string, ResourceDescriptor>;
  /** The org's first user: owner of what needs one (a task, a mailbox). */
  readonly userId: number;
}

export interface TriggerRecipe {
  /** `<resource>.<action>`, as webhooks and events name it. */
  readonly event: string;
  /** What else must happen for the event to fire, when the command alone does not make it. */
  readonly note?: string;
  make(context: TriggerContext): Promise<MadeRecord[]>;
}

export interface TriggerResult {
  readonly event: string;
  readonly records: readonly MadeRecord[];
  readonly note?: string;
}

const made = (type: string, id: number): MadeRecord => ({ type, id });

function genericRecipes(descriptors: ReadonlyMap<string, ResourceDescriptor>, descriptor: ResourceDescriptor): TriggerRecipe[] {
  if (!canSample(descriptors, descriptor)) return [];
  const { type, webhookActions, operations } = descriptor;
  const recipes: TriggerRecipe[] = [];
  const sample = (context: TriggerContext) => writeSampleRecord(context.effects, context.descriptors, descriptor);
  if (webhookActions.includes('created')) recipes.push({ event: `${type}.created`, make: sample });
  const text = updatableText(descriptor);
  if (webhookActions.includes('updated') && operations.update && text) {
    recipes.push({
      event: `${type}.updated`,
      async make(context) {
        const records = await sample(context);
        const id = records.at(-1)!.id;
        await writeOne(context.effects, context.effects.update(type, id, { [text.name]: `Updated sample ${type} ${context.effects.now.toISOString()}` }));
        return records;
      },
    });
  }
  if (webhookActions.includes('destroyed') && operations.delete) {
    recipes.push({
      event: `${type}.destroyed`,
      async make(context) {
        const records = await sample(context);
        await writeOne(context.effects, { kind: 'delete', type, id: records.at(-1)!.id });
        return records;
      },
    });
  }
  return recipes;
}

/** A prospect with an e-mail address at an account: whom tasks, mailings and sequences are for. */
async function sampleProspect(context: TriggerContext): Promise<MadeRecord[]> {
  const { effects, descriptors } = context;
  const account = await writeOne(
    effects,
    effects.create('account', sampleValues(descriptors.get('account')!, effects.now, { name: 'Acme Rockets', domain: 'acme-rockets.example' })),
  );
  const prospect = await writeOne(
    effects,
    effects.create('prospect', sampleValues(descriptors.get('prospect')!, effects.now, { emails: ['ada.lovelace@acme-rockets.example'], account: Number(account.id) })),
  );
  return [made('account', Number(account.id)), made('prospect', Number(prospect.id))];
}

/** A mailbox of the org's first user with no mail server of its own: the local transport sends its mail. */
async function localMailbox(context: TriggerContext, sendDisabled: boolean): Promise<MadeRecord> {
  const { effects } = context;
  const mailbox = await writeOne(effects, effects.create('mailbox', { email: 'sandbox.sender@example.test', user: context.userId, sendDisabled }));
  return made('mailbox', Number(mailbox.id));
}

/** A prospect enrolled in a one-step sequence (a task step), through a mailbox that sends nothing. */
async function enrolment(context: TriggerContext): Promise<MadeRecord[]> {
  const { effects } = context;
  const prospect = await sampleProspect(context);
  const sequence = await writeOne(effects, effects.create('sequence', { name: 'Sandbox sequence', sequenceType: 'interval', owner: context.userId }));
  const step = await writeOne(effects, effects.create('sequenceStep', { stepType: 'task', order: 1, interval: 1440, sequence: Number(sequence.id) }));
  const mailbox = await localMailbox(context, true);
  const state = await writeOne(effects, effects.create('sequenceState', { prospect: prospect.at(-1)!.id, sequence: Number(sequence.id), mailbox: mailbox.id }));
  return [...prospect, made('sequence', Number(sequence.id)), made('sequenceStep', Number(step.id)), mailbox, made('sequenceState', Number(state.id))];
}

/** A favorite of a prospect: its target must be a record of the org. */
async function favoriteProspect(context: TriggerContext): Promise<MadeRecord[]> {
  const { effects } = context;
  const prospect = await sampleProspect(context);
  const favorite = await writeOne(effects, effects.create('favorite', { targetType: 'prospect', targetId: prospect.at(-1)!.id, user: context.userId }));
  return [...prospect, made('favorite', Number(favorite.id))];
}

/** Runs an action of the last record made, after making them. */
function thenAction(records: (context: TriggerContext) => Promise<MadeRecord[]>, action: string): TriggerRecipe['make'] {
  return async (context) => {
    const list = await records(context);
    const last = list.at(-1)!;
    await writeOne(context.effects, context.effects.action(last.type, last.id, action));
    return list;
  };
}

/** Events that arise from an action, a relationship or the worker rather than a bare create. */
const RECIPES: readonly TriggerRecipe[] = [
  {
    event: 'task.completed',
    make: thenAction(async (context) => {
      const prospect = await sampleProspect(context);
      const { effects } = context;
      const task = await writeOne(
        effects,
        effects.create('task', {
          action: 'action_item',
          note: 'Follow up with Ada',
          dueAt: effects.now.toISOString(),
          prospect: prospect.at(-1)!.id,
          owner: context.userId,
        }),
      );
      return [...prospect, made('task', Number(task.id))];
    }, 'markComplete'),
  },
  { event: 'favorite.created', make: favoriteProspect },
  {
    event: 'favorite.destroyed',
    async make(context) {
      const records = await favoriteProspect(context);
      await writeOne(context.effects, { kind: 'delete', type: 'favorite', id: records.at(-1)!.id });
      return records;
    },
  },
  { event: 'sequenceState.created', make: enrolment },
  { event: 'sequenceState.updated', make: thenAction(enrolment, 'pause') },
  { event: 'sequenceState.finished', make: thenAction(enrolment, 'finish') },
  {
    event: 'mailing.delivered',
    note: 'the mailing is scheduled now; a worker (cadence worker, or the one cadence serve runs) sends it through the local transport and records mailing.delivered',
    async make(context) {
      const { effects } = context;
      const prospect = await sampleProspect(context);
      const mailbox = await localMailbox(context, false);
      const mailing = await writeOne(
        effects,
        effects.create('mailing', {
          state: 'scheduled',
          subject: 'Hello from the Cadence sandbox',
          bodyHtml: '<p>Hi Ada, this mailing was made by cadence trigger.</p>',
          mailbox: mailbox.id,
          prospect: prospect.at(-1)!.id,
        }),
      );
      return [...prospect, mailbox, made('mailing', Number(mailing.id))];
    },
  },
];

/**
 * Every event `cadence trigger` can make, by name: the recipes above, then the generic ones of
 * each resource. A recipe only counts when its resource declares the event as a webhook action.
 */
export function triggerRecipes(descriptors: ReadonlyMap<string, ResourceDescriptor>): Map<string, TriggerRecipe> {
  const declared = new Set([...descriptors.values()].flatMap((d) => d.webhookActions.map((action) => `${d.type}.${action}`)));
  const recipes = new Map<string, TriggerRecipe>();
  for (const recipe of RECIPES) if (declared.has(recipe.event)) recipes.set(recipe.event, recipe);
  for (const descriptor of descriptors.values()) {
    for (const recipe of genericRecipes(descriptors, descriptor)) if (!recipes.has(recipe.event)) recipes.set(recipe.event, recipe);
  }
  return new Map([...recipes].sort(([a], [b]) => a.localeCompare(b)));
}

export interface TriggerDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly descriptors: ReadonlyMap<string, ResourceDescriptor>;
}

/** Makes the records of `event` in the org, in one transaction, and says what it made. */
export async function triggerEvent(deps: TriggerDependencies, orgId: number, event: string): Promise<TriggerResult> {
  const recipes = triggerRecipes(deps.descriptors);
  const recipe = recipes.get(event);
  if (!recipe) throw new AdminError(`cannot trigger "${event}"; the events cadence trigger makes are: ${[...recipes.keys()].join(', ')}`);
  await deps.sql.begin((tx) => requireOrg(tx, orgId));
  const records = await orgScopedTransaction(deps.sql, orgId, async (tx) => {
    const [user] = await tx<{ id: string }[]>`select id from users where org_id = ${orgId} order by id limit 1`;
    if (!user) throw new AdminError(`org ${orgId} has no user (cadence user create makes one)`);
    const effects = deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR });
    return recipe.make({ effects, descriptors: deps.descriptors, userId: Number(user.id) });
  });
  return { event, records, ...(recipe.note && { note: recipe.note }) };
}
