import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter, type ResourceCatalog, type WriteEffects, type WriteOperation } from '../engine/index.js';
import { AdminError, requireOrg } from '../operator/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { defineSandboxObjects } from './custom-objects.js';
import { COMPANIES, SampleGenerator, samplePerson, TAGS, TITLES } from './samples.js';
import { idsOf, writeAll } from './writes.js';

/**
 * `cadence sandbox seed`: realistic sample records in an org, all through the record writer:
 * users, accounts, prospects with e-mail addresses, sequences with steps and templates, a
 * mailbox on the local transport, tasks, calls, opportunities, and custom objects' definitions
 * and records. The same seed and starting org give the same records.
 */

export const DEFAULT_PROSPECTS = 1000;
export const MAX_PROSPECTS = 100_000;
/** Prospects (and what hangs off them) are written a transaction per this many. */
const PROSPECTS_PER_TRANSACTION = 1000;
const DAY_MS = 86_400_000;

export interface SeedOptions {
  readonly prospects: number;
  /** Picks names and companies; the same seed gives the same records. */
  readonly seed: number;
}

export interface SeedDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
}

/** How many records of each type the seed wrote. */
export type SeedSummary = Record<string, number>;

/** What the prospects' records hang off: written first, in one transaction. */
interface Foundation {
  readonly users: readonly number[];
  readonly accounts: readonly number[];
  readonly competitors: readonly number[];
}

function count(summary: SeedSummary, type: string, n: number): void {
  summary[type] = (summary[type] ?? 0) + n;
}

async function writeUsers(effects: WriteEffects, generator: SampleGenerator, orgId: number, existing: number): Promise<number[]> {
  const people = [0, 1, 2].map((i) => samplePerson(generator, `sandbox-org${orgId}.example`, existing + i + 1));
  const rows = await writeAll(
    effects,
    people.map((p, i) =>
      effects.create('user', { email: p.email, firstName: p.firstName, lastName: p.lastName, title: i === 0 ? 'Sales Manager' : 'Account Executive' }),
    ),
  );
  return idsOf(rows);
}

async function writeSequences(effects: WriteEffects, owner: number, summary: SeedSummary): Promise<void> {
  const templates = idsOf(
    await writeAll(effects, [
      effects.create('template', {
        name: 'First touch',
        subject: 'Quick question, {{first_name}}',
        bodyHtml: '<p>Hi {{first_name}}, do you have ten minutes this week?</p>',
        owner,
      }),
      effects.create('template', {
        name: 'Follow-up',
        subject: 'Following up',
        bodyHtml: '<p>Hi {{first_name}}, just bringing this to the top of your inbox.</p>',
        owner,
      }),
    ]),
  );
  const sequences = idsOf(
    await writeAll(effects, [
      effects.create('sequence', { name: 'Sandbox outbound', description: 'Two e-mails and a call', sequenceType: 'interval', owner, tags: ['sandbox'] }),
      effects.create('sequence', { name: 'Sandbox re-engagement', description: 'A task, an e-mail, a call', sequenceType: 'interval', owner, tags: ['sandbox'] }),
    ]),
  );
  const plans = [
    ['auto_email', 'auto_email', 'call'],
    ['task', 'manual_email', 'call'],
  ] as const;
  const stepOperations = plans.flatMap((plan, s) =>
    plan.map((stepType, i) =>
      effects.create('sequenceStep', {
        stepType,
        order: i + 1,
        interval: i === 0 ? 0 : 2 * 1440,
        sequence: sequences[s]!,
        ...(stepType === 'task' && { taskNote: 'Research the account' }),
      }),
    ),
  );
  const stepRows = await writeAll(effects, stepOperations);
  const stepTypes = plans.flat();
  const emailSteps = stepRows.flatMap((row, i) => (stepTypes[i]!.endsWith('email') ? [Number(row.id)] : []));
  await writeAll(
    effects,
    emailSteps.map((step, i) => effects.create('sequenceTemplate', { sequenceStep: step, template: templates[i % templates.length]! })),
  );
  count(summary, 'template', templates.length);
  count(summary, 'sequence', sequences.length);
  count(summary, 'sequenceStep', stepRows.length);
  count(summary, 'sequenceTemplate', emailSteps.length);
}

async function writeFoundation(effects: WriteEffects, generator: SampleGenerator, orgId: number, existingUsers: number, summary: SeedSummary): Promise<Foundation> {
  const users = await writeUsers(effects, generator, orgId, existingUsers);
  count(summary, 'user', users.length);
  const accounts = idsOf(
    await writeAll(
      effects,
      COMPANIES.map((c, i) =>
        effects.create('account', {
          name: c.name,
          domain: c.domain,
          industry: c.industry,
          numberOfEmployees: generator.between(20, 5000),
          websiteUrl: `https://${c.domain}`,
          owner: users[i % users.length]!,
        }),
      ),
    ),
  );
  count(summary, 'account', accounts.length);
  const opportunities = await writeAll(
    effects,
    accounts.map((account, i) =>
      effects.create('opportunity', {
        name: `${COMPANIES[i]!.name}: platform deal`,
        amount: generator.between(5, 200) * 1000,
        probability: generator.between(1, 9) * 10,
        closeDate: new Date(effects.now.getTime() + generator.between(7, 120) * DAY_MS).toISOString(),
        account,
        owner: users[i % users.length]!,
      }),
    ),
  );
  count(summary, 'opportunity', opportunities.length);
  await writeAll(effects, [effects.create('mailbox', { email: `sandbox.sender@sandbox-org${orgId}.example`, user: users[0]! })]);
  count(summary, 'mailbox', 1);
  await writeSequences(effects, users[0]!, summary);
  const competitors = idsOf(
    await writeAll(effects, [
      effects.create('sandboxCompetitor', { name: 'Outreach Classic', website: 'https://classic.example', threatLevel: 3 }),
      effects.create('sandboxCompetitor', { name: 'SpreadsheetCRM', website: 'https://spreadsheets.example', threatLevel: 1 }),
    ]),
  );
  count(summary, 'sandboxCompetitor', competitors.length);
  return { users, accounts, competitors };
}

/** A set of prospects, then their tasks (one in ten), calls (one in twenty) and meetings (one in twenty-five). */
async function writeProspects(effects: WriteEffects, generator: SampleGenerator, foundation: Foundation, first: number, n: number, summary: SeedSummary): Promise<void> {
  const picks = Array.from({ length: n }, (_, i) => {
    const company = generator.pick(COMPANIES);
    return {
      index: first + i,
      company,
      account: foundation.accounts[COMPANIES.indexOf(company)]!,
      person: samplePerson(generator, company.domain, first + i),
      owner: generator.pick(foundation.users),
    };
  });
  const prospects = idsOf(
    await writeAll(
      effects,
      picks.map((p) =>
        effects.create('prospect', {
          firstName: p.person.firstName,
          lastName: p.person.lastName,
          emails: [p.person.email],
          title: generator.pick(TITLES),
          company: p.company.name,
          tags: [generator.pick(TAGS)],
          workPhones: [`+1555${String(1_000_000 + p.index).slice(-7)}`],
          account: p.account,
          owner: p.owner,
        }),
      ),
    ),
  );
  count(summary, 'prospect', prospects.length);
  const every = (k: number) => picks.flatMap((p, i) => (p.index % k === 0 ? [{ ...p, prospect: prospects[i]! }] : []));
  const operations: WriteOperation[] = [
    ...every(10).map((p) =>
      effects.create('task', {
        action: generator.pick(['call', 'email', 'action_item'] as const),
        note: `Follow up with ${p.person.firstName} at ${p.company.name}`,
        dueAt: new Date(effects.now.getTime() + generator.between(1, 14) * DAY_MS).toISOString(),
        prospect: p.prospect,
        owner: p.owner,
      }),
    ),
    ...every(20).map((p) =>
      effects.create('call', {
        direction: 'outbound',
        outcome: generator.pick(['completed', 'no_answer'] as const),
        note: `Spoke about ${p.company.industry.toLowerCase()} needs`,
        to: `+1555${String(1_000_000 + p.index).slice(-7)}`,
        prospect: p.prospect,
        user: p.owner,
      }),
    ),
    ...every(25).map((p) =>
      effects.create('sandboxMeeting', {
        title: `Discovery call with ${p.person.firstName} ${p.person.lastName}`,
        startsAt: new Date(effects.now.getTime() + generator.between(1, 30) * DAY_MS).toISOString(),
        booked: true,
        prospect: p.prospect,
        competitor: generator.pick(foundation.competitors),
      }),
    ),
  ];
  await writeAll(effects, operations);
  for (const operation of operations) if (operation.kind === 'create') count(summary, operation.type, 1);
}

/** Writes the sandbox's sample records into an existing org and says how many of each it wrote. */
export async function seedOrg(deps: SeedDependencies, orgId: number, options: SeedOptions): Promise<SeedSummary> {
  if (!Number.isSafeInteger(options.prospects) || options.prospects < 1 || options.prospects > MAX_PROSPECTS) {
    throw new AdminError(`the number of prospects must be between 1 and ${MAX_PROSPECTS}, not ${options.prospects}`);
  }
  await deps.sql.begin((tx) => requireOrg(tx, orgId));
  const catalog: ResourceCatalog = await defineSandboxObjects(deps.sql, orgId);
  const generator = new SampleGenerator(options.seed);
  const summary: SeedSummary = {};
  const scope = (tx: WriteEffects['tx']) => deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR, catalog });
  const foundation = await orgScopedTransaction(deps.sql, orgId, async (tx) => {
    const [users] = await tx<{ n: string }[]>`select count(*) as n from users where org_id = ${orgId}`;
    return writeFoundation(scope(tx), generator, orgId, Number(users!.n), summary);
  });
  for (let first = 0; first < options.prospects; first += PROSPECTS_PER_TRANSACTION) {
    const n = Math.min(PROSPECTS_PER_TRANSACTION, options.prospects - first);
    await orgScopedTransaction(deps.sql, orgId, (tx) => writeProspects(scope(tx), generator, foundation, first, n, summary));
  }
  return summary;
}
