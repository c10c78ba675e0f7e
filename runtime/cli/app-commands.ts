import { readFile } from 'node:fs/promises';
import { addKey, createApp, installApp, listApps, revokeKey, uninstallApp } from '../apps/index.js';
import { ORG_OPTION, positiveInteger, requiredString, scopeList } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { print, withDatabase } from './operator-io.js';

/** Applications: registering them, their keys, and installing them in orgs. */

const APP_OPTION = { type: 'string', value: 'GUID', help: 'the app, by GUID (cadence app list names them)' } as const;

const installChanges = [
  { name: 'app install', summary: 'install the app in the org; prints the install id and a setup token (15 minutes)', change: installApp },
  { name: 'app uninstall', summary: 'uninstall the app from the org: its tokens in the org stop working', change: uninstallApp },
].map(({ name, summary, change }) =>
  defineCommand({
    name,
    synopsis: '--app GUID --org ID',
    summary,
    options: { app: APP_OPTION, org: ORG_OPTION },
    run: ({ config, values }) => {
      const appId = requiredString('app', values.app);
      const orgId = positiveInteger('org', values.org);
      return withDatabase(config, async (sql) => print(await change(sql, { appId, orgId })));
    },
  }),
);

export const appCommands = [
  defineCommand({
    name: 'app create',
    synopsis: '--name NAME [--redirect-uri URI]... [--scopes a.read,b.write] [--s2s-scopes prospects.all,accounts.read] [--lifecycle-url HTTPS-URL]',
    summary: 'register an app; prints its GUID and client credentials once',
    notes: ['With --lifecycle-url it also prints lifecycleWebhookSecret, the key its lifecycle deliveries are signed with.'],
    options: {
      name: { type: 'string', value: 'NAME', help: "the app's name" },
      'redirect-uri': { type: 'string', multiple: true, value: 'URI', help: 'an OAuth redirect URI: https, or http on localhost (repeat for more)' },
      scopes: { type: 'string', value: 'LIST', help: 'comma-separated scopes OAuth may grant it' },
      's2s-scopes': { type: 'string', value: 'LIST', help: "comma-separated scopes of its server-to-server tokens (SPEC.md's S2S table)" },
      'lifecycle-url': { type: 'string', value: 'HTTPS-URL', help: 'where install, uninstall and org deletion are announced' },
    },
    run: ({ config, values }) => {
      const registration = {
        name: requiredString('name', values.name),
        redirectUris: values['redirect-uri'] ?? [],
        oauthScopes: scopeList(values.scopes),
        s2sScopes: scopeList(values['s2s-scopes']),
        ...(values['lifecycle-url'] !== undefined && { lifecycleWebhookUrl: values['lifecycle-url'] }),
      };
      return withDatabase(config, async (sql) => print(await createApp(sql, registration)));
    },
  }),
  defineCommand({
    name: 'app list',
    synopsis: '',
    summary: 'every registered app: GUID, name, client id, scopes, keys, the orgs it is installed in (never a secret)',
    options: {},
    run: ({ config }) => withDatabase(config, async (sql) => print(await listApps(sql))),
  }),
  defineCommand({
    name: 'app key add',
    synopsis: '--app GUID --public-key-file FILE.pem',
    summary: "an RSA public key the app's server-to-server app tokens may be signed with",
    options: { app: APP_OPTION, 'public-key-file': { type: 'string', value: 'FILE.pem', help: 'the public key, PEM-encoded' } },
    run: async ({ config, values }) => {
      const appId = requiredString('app', values.app);
      const file = requiredString('public-key-file', values['public-key-file']);
      let publicKeyPem: string;
      try {
        publicKeyPem = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read the public key from ${file}: ${(error as Error).message}`);
      }
      return withDatabase(config, async (sql) => print(await addKey(sql, { appId, publicKeyPem })));
    },
  }),
  defineCommand({
    name: 'app key revoke',
    synopsis: '--app GUID --key ID',
    summary: 'app tokens signed with this key are refused from now on',
    options: { app: APP_OPTION, key: { type: 'string', value: 'ID', help: 'the key, by id (cadence app list shows them)' } },
    run: ({ config, values }) => {
      const appId = requiredString('app', values.app);
      const keyId = positiveInteger('key', values.key);
      return withDatabase(config, async (sql) => print(await revokeKey(sql, { appId, keyId })));
    },
  }),
  ...installChanges,
];
