import { expect } from 'vitest';
import type postgres from 'postgres';
import { descriptors } from '../../generated/resources/index.js';
import type { TestApi } from './api.js';
import { create, orgClient, type OrgClient } from './bulk-actions.js';
import { createSampleRecord } from './samples.js';
import { enrol, sequenceWith } from './sequences.js';

/**
 * An org with something in every table a client can fill, for the backup and org-transfer
 * tests: a record of every resource the API creates, a custom object with a record, a webhook
 * (whose deliveries of later changes wait as jobs, no worker running), and a sequence state
 * whose call step is due in an hour.
 */
export interface PopulatedOrg {
  readonly org: OrgClient;
  /** The state whose step is pending, and the step. */
  readonly stateId: number;
  readonly callStep: number;
  readonly customObject: string;
}

export const CUSTOM_OBJECT = 'booking';

export async function populateOrg(api: TestApi): Promise<PopulatedOrg> {
  const org = orgClient(api, api.org);
  for (const d of descriptors.values()) if (d.operations.create) await createSampleRecord(api, d.type, 1);
  const defined = await org.request('POST', '/api/v2/customObjectDefinitions', {
    body: {
      data: {
        type: 'customObjectDefinition',
        attributes: {
          name: CUSTOM_OBJECT,
          displayName: 'Booking',
          displayField: 'title',
          fields: [{ name: 'title', type: 'string', required: true, filterable: true, sortable: true }],
          relationships: [{ name: 'prospect', target: 'prospect' }],
        },
      },
    },
  });
  expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  await create(org, 'webhooks', 'webhook', { url: 'https://hooks.example.test/backup', resource: '*', action: '*' });
  const who = await create(org, 'prospects', 'prospect', { firstName: 'Ada', emails: ['ada@example.test'] });
  await create(org, `customObjects/${CUSTOM_OBJECT}`, CUSTOM_OBJECT, { title: 'Kick-off' }, { prospect: { type: 'prospect', id: who } });
  const fixture = await sequenceWith(org, api.org.userId, 'interval', [{ stepType: 'call', interval: 60 }]);
  const enrolled = await enrol(org, who, fixture);
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
  return { org, stateId: Number(enrolled.body.data.id), callStep: fixture.steps[0]!, customObject: CUSTOM_OBJECT };
}

/** Every list path of an org: each standard collection, the custom object definitions and a custom object's records. */
export function listPaths(customObject: string): string[] {
  const standard = [...descriptors.values()].filter((d) => d.operations.list).map((d) => `/api/v2/${d.collection}`);
  return [...standard, '/api/v2/customObjectDefinitions', `/api/v2/customObjects/${customObject}`].sort();
}

/**
 * What every list path answers with `token`, the whole document of each (every record, in id
 * default order), with the server's own address taken out of the links so two servers compare equal.
 */
export async function listDocuments(api: TestApi, token: string, paths: readonly string[]): Promise<Map<string, unknown>> {
  const documents = new Map<string, unknown>();
  for (const path of paths) {
    const response = await api.request('GET', `${path}?page[size]=1000`, { token });
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    documents.set(path, JSON.parse(JSON.stringify(response.body).replaceAll(api.baseUrl, 'BASE')));
  }
  return documents;
}

/** Rows of each table (`schema.name`) of the database; only the org's where `orgId` is given (tables with an org_id column). */
export async function tableCounts(sql: postgres.Sql, orgId?: number): Promise<Record<string, number>> {
  const tables = await sql<{ schema: string; name: string }[]>`
    select c.table_schema as schema, c.table_name as name from information_schema.tables c
     where c.table_type = 'BASE TABLE' and c.table_schema in ('public', 'cadence_system', 'graphile_worker')
       and (${orgId ?? null}::bigint is null or exists (select 1 from information_schema.columns k
             where k.table_schema = c.table_schema and k.table_name = c.table_name and k.column_name = 'org_id'))
     order by 1, 2`;
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const where = orgId === undefined ? '' : ` where org_id = ${Number(orgId)}`;
    const [row] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from "${t.schema}"."${t.name}"${where}`);
    counts[`${t.schema}.${t.name}`] = row!.n;
  }
  return counts;
}
