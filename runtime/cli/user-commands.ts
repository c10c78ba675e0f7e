import { createUser, listUsers } from '../admin/index.js';
import { inviteUser, setPassword } from '../oauth/index.js';
import { emailAddress, ORG_OPTION, positiveInteger } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { print, readStandardInput, withDatabase } from './operator-io.js';

/** Users of an org: making them, listing them, and how they sign in. */

const USER_OPTION = { type: 'string', value: 'ID', help: 'the user, by id (cadence user list names them)' } as const;

export const userCommands = [
  defineCommand({
    name: 'user create',
    synopsis: '--org ID --email EMAIL [--admin]',
    summary: 'a user of the org',
    options: {
      org: ORG_OPTION,
      email: { type: 'string', value: 'EMAIL', help: "the user's address, unique in the org" },
      admin: { type: 'boolean', help: 'an admin of the org (sees every webhook secret, for one)' },
    },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const email = emailAddress('email', values.email);
      return withDatabase(config, async (sql) => print(await createUser(sql, { orgId, email, admin: values.admin ?? false })));
    },
  }),
  defineCommand({
    name: 'user list',
    synopsis: '--org ID',
    summary: "the org's users: id, address, name, whether admin or locked",
    options: { org: ORG_OPTION },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      return withDatabase(config, async (sql) => print(await listUsers(sql, orgId)));
    },
  }),
  defineCommand({
    name: 'user set-password',
    synopsis: '--org ID --user ID [--login EMAIL]',
    summary: 'the password the user signs in with (OAuth), read from standard input',
    notes: ['The password is read from standard input, never an argument: arguments show up in process lists and shell history.'],
    options: { org: ORG_OPTION, user: USER_OPTION, login: { type: 'string', value: 'EMAIL', help: 'the name to sign in with' } },
    run: async ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const userId = positiveInteger('user', values.user);
      const login = values.login;
      const password = (await readStandardInput()).replace(/\r?\n$/, '');
      if (password === '') throw new UsageError('the password is read from standard input, which was empty');
      return withDatabase(config, async (sql) => print(await setPassword(sql, { orgId, userId, password, ...(login && { login }) })));
    },
  }),
  defineCommand({
    name: 'user invite',
    synopsis: '--org ID --user ID',
    summary: 'prints a link (7 days) where the user sets a password',
    notes: ['The link is at PUBLIC_BASE_URL, or at http://HOST:PORT when that is not set.'],
    options: { org: ORG_OPTION, user: USER_OPTION },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const userId = positiveInteger('user', values.user);
      const base = config.publicBaseUrl ?? `http://${config.host}:${config.port}`;
      return withDatabase(config, async (sql) => {
        const invitation = await inviteUser(sql, { orgId, userId });
        print({ invitationUrl: new URL(`/account/invitations/${invitation.token}`, base).toString(), login: invitation.login, expiresAt: invitation.expiresAt });
      });
    },
  }),
];
