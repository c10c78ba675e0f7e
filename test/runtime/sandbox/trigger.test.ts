import type postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { createOrg } from '../../../runtime/admin/index.js';
import { standardRecordWriter } from '../../../runtime/behaviours/standard-writer.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import { triggerEvent, triggerRecipes } from '../../../runtime/sandbox/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * Every event `cadence trigger` lists is made for real: in a fresh org, the records it reports
 * exist and the event log holds an event of that name about the last of them. A resource whose
 * sample the writer refuses, or a recipe that records some other event, fails here, so the list
 * cannot promise what the command does not do.
 */

let database: TestDatabase;
let sql: postgres.Sql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 2 });
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
});

const deps = () => ({ sql, writer: standardRecordWriter(() => new Date()), descriptors });

it('lists the webhook events it can make, from the descriptors and its recipes, sorted', () => {
  const names = [...triggerRecipes(descriptors).keys()];
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  expect(names).toEqual(
    expect.arrayContaining([
      'account.created',
      'prospect.created',
      'prospect.updated',
      'prospect.destroyed',
      'task.completed',
      'sequenceState.finished',
      'mailing.delivered',
    ]),
  );
  for (const name of names) {
    const [type, action] = name.split('.');
    expect(descriptors.get(type!)?.webhookActions, name).toContain(action);
  }
});

it('makes each listed event for real', async () => {
  const failures: string[] = [];
  const { orgId } = await createOrg(sql, { name: 'Trigger every event' });
  for (const name of triggerRecipes(descriptors).keys()) {
    try {
      const result = await triggerEvent(deps(), orgId, name);
      const last = result.records.at(-1)!;
      const [type, action] = name.split('.') as [string, string];
      expect(last.type, name).toBe(type);
      // A mailing is delivered by the worker's send job (test/api/sandbox-cli.test.ts runs one): here it waits to be sent.
      const expected = name === 'mailing.delivered' ? 'created' : action;
      const events = await sql`select 1 from events where org_id = ${orgId} and resource_type = ${type} and action = ${expected} and resource_id = ${last.id}`;
      if (events.length !== 1) failures.push(`${name}: no ${type}.${expected} event about ${type} ${last.id}`);
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }
  expect(failures).toEqual([]);
}, 600_000);

it('names the events it can make when asked for one it cannot', async () => {
  const { orgId } = await createOrg(sql, { name: 'Trigger unknown' });
  await expect(triggerEvent(deps(), orgId, 'prospect.exploded')).rejects.toThrow(/cannot trigger "prospect.exploded".*prospect\.created/);
  await expect(triggerEvent(deps(), 999_999, 'prospect.created')).rejects.toThrow('org 999999 does not exist');
});
