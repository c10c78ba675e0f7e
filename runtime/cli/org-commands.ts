import { createOrg, listOrgs } from '../admin/index.js';
import { deleteOrg, lockOrg, unlockOrg } from '../apps/index.js';
import { standardRecordWriter } from '../behaviours/standard-writer.js';
import { MIGRATIONS_DIR } from '../db/migrate.js';
import { orgExportCommand, orgImportCommand } from '../org-transfer/index.js';
import { setOrgRateLimit } from '../ratelimit/index.js';
import { resetOrg } from '../sandbox/index.js';
import { emailAddress, ORG_OPTION, positiveInteger, requiredString } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { cadenceVersion, databaseEnv, print, withDatabase } from './operator-io.js';

/** Orgs: making, listing, locking, emptying, limiting, and moving one between databases. */

const statusChanges = [
  { name: 'org lock', summary: "lock the org: its tokens and apps' requests fail until it is unlocked", change: lockOrg },
  { name: 'org unlock', summary: 'unlock a locked org', change: unlockOrg },
  { name: 'org delete', summary: 'delete the org: its tokens fail for good (its rows are kept); its apps are told', change: deleteOrg },
].map(({ name, summary, change }) =>
  defineCommand({
    name,
    synopsis: '--org ID',
    summary,
    options: { org: ORG_OPTION },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      return withDatabase(config, async (sql) => print(await change(sql, orgId)));
    },
  }),
);

const WITH_TOKENS = { type: 'boolean', help: 'carry the access tokens made by the CLI along' } as const;

export const orgCommands = [
  defineCommand({
    name: 'org create',
    synopsis: '--name NAME [--admin-email EMAIL]',
    summary: 'a new org with its admin user and a token holding every scope (printed once)',
    options: {
      name: { type: 'string', value: 'NAME', help: "the org's name" },
      'admin-email': { type: 'string', value: 'EMAIL', help: "the admin user's address (admin@org<ID>.invalid if not given)" },
    },
    run: ({ config, values }) => {
      const name = requiredString('name', values.name);
      const adminEmail = values['admin-email'] === undefined ? undefined : emailAddress('admin-email', values['admin-email']);
      return withDatabase(config, async (sql) => print(await createOrg(sql, { name, ...(adminEmail && { adminEmail }) })));
    },
  }),
  defineCommand({
    name: 'org list',
    synopsis: '',
    summary: 'every org: id, name, whether it is locked or deleted, when it was made',
    options: {},
    run: ({ config }) => withDatabase(config, async (sql) => print(await listOrgs(sql))),
  }),
  ...statusChanges,
  defineCommand({
    name: 'org reset',
    synopsis: '--org ID --yes',
    summary: 'delete every record of the org but its users (tokens and settings stay)',
    notes: ['The records are deleted through the record writer: webhooks hear of each deletion.'],
    options: { org: ORG_OPTION, yes: { type: 'boolean', help: 'do it (without it, nothing is deleted)' } },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      if (!values.yes) throw new UsageError(`org reset deletes every record of org ${orgId} but its users; add --yes to do it`);
      return withDatabase(config, async (sql) => print({ orgId, deleted: await resetOrg({ sql, writer: standardRecordWriter(() => new Date()) }, orgId) }));
    },
  }),
  defineCommand({
    name: 'org set-rate-limit',
    synopsis: '--org ID --per-hour N|--default',
    summary: "requests per hour per token holder in the org, or back to the deployment's RATE_LIMIT_PER_HOUR",
    options: {
      org: ORG_OPTION,
      'per-hour': { type: 'string', value: 'N', help: 'requests per hour per token holder' },
      default: { type: 'boolean', help: "the deployment's RATE_LIMIT_PER_HOUR again" },
    },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      if ((values['per-hour'] === undefined) === !values.default) throw new UsageError('org set-rate-limit takes either --per-hour N or --default');
      const perHour = values.default ? null : positiveInteger('per-hour', values['per-hour']);
      return withDatabase(config, async (sql) => print(await setOrgRateLimit(sql, orgId, perHour)));
    },
  }),
  defineCommand({
    name: 'org export',
    synopsis: '--org ID --out FILE [--with-tokens]',
    summary: "one org's records, as gzip NDJSON",
    options: { org: ORG_OPTION, out: { type: 'string', value: 'FILE', help: 'where to write it' }, 'with-tokens': WITH_TOKENS },
    run: async ({ config, values }) => {
      const options = {
        orgId: positiveInteger('org', values.org),
        out: requiredString('out', values.out),
        withTokens: values['with-tokens'] ?? false,
        cadenceVersion: await cadenceVersion(),
        migrationsFolder: MIGRATIONS_DIR,
      };
      print(await orgExportCommand(databaseEnv(config), options));
    },
  }),
  defineCommand({
    name: 'org import',
    synopsis: '--in FILE [--with-tokens]',
    summary: 'an exported org, as a new org',
    options: { in: { type: 'string', value: 'FILE', help: 'an export of cadence org export' }, 'with-tokens': WITH_TOKENS },
    run: async ({ config, values }) => {
      const options = { in: requiredString('in', values.in), withTokens: values['with-tokens'] ?? false, migrationsFolder: MIGRATIONS_DIR };
      print(await orgImportCommand(databaseEnv(config), options));
    },
  }),
];
