import { createToken, listTokens, revokeToken, TOKEN_ID_LENGTH } from '../admin/index.js';
import { ORG_OPTION, positiveInteger, requiredString, scopeList } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { print, withDatabase } from './operator-io.js';

/** Access tokens: made for a user, listed without their secret, revoked by their id. */

export const tokenCommands = [
  defineCommand({
    name: 'token create',
    synopsis: '--org ID --user ID --scopes a.read,b.write [--ttl SECONDS]',
    summary: 'an access token acting for the user, printed once (only its hash is stored)',
    options: {
      org: ORG_OPTION,
      user: { type: 'string', value: 'ID', help: 'the user it acts for' },
      scopes: { type: 'string', value: 'LIST', help: 'comma-separated scopes, e.g. prospects.read,accounts.write' },
      ttl: { type: 'string', value: 'SECONDS', help: 'how long it lasts (30 days if not given)' },
    },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const userId = positiveInteger('user', values.user);
      const scopes = scopeList(values.scopes);
      if (scopes.length === 0) throw new UsageError('--scopes is required (comma-separated, e.g. prospects.read)');
      const ttlSeconds = values.ttl === undefined ? undefined : positiveInteger('ttl', values.ttl);
      return withDatabase(config, async (sql) => print(await createToken(sql, { orgId, userId, scopes, ...(ttlSeconds !== undefined && { ttlSeconds }) })));
    },
  }),
  defineCommand({
    name: 'token list',
    synopsis: '--org ID',
    summary: "the org's access tokens, newest first: id, user or app, scopes, expiry (never the token)",
    notes: [`A token's id is the first ${TOKEN_ID_LENGTH} hex digits of its SHA-256, which is all that is stored of it.`],
    options: { org: ORG_OPTION },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      return withDatabase(config, async (sql) => print(await listTokens(sql, orgId)));
    },
  }),
  defineCommand({
    name: 'token revoke',
    synopsis: '--org ID --token-id ID',
    summary: 'delete an access token: its next request is answered 401',
    notes: ["Revoking an OAuth token revokes its grant too, so that the grant's refresh token issues no other."],
    options: { org: ORG_OPTION, 'token-id': { type: 'string', value: 'ID', help: 'the id cadence token list shows' } },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const tokenId = requiredString('token-id', values['token-id']);
      if (!new RegExp(`^[0-9a-f]{${TOKEN_ID_LENGTH}}$`).test(tokenId))
        throw new UsageError(`--token-id is ${TOKEN_ID_LENGTH} hex digits, as cadence token list shows it`);
      return withDatabase(config, async (sql) => print(await revokeToken(sql, orgId, tokenId)));
    },
  }),
];
