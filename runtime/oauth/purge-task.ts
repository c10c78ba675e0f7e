import type { Task } from 'graphile-worker';
import type postgres from 'postgres';

export const PURGE_EXPIRED_TOKENS_TASK = 'purge_expired_tokens';

/** Daily, at night; graphile-worker makes sure one runner in the cluster runs it. */
export const TOKEN_CRONTAB = `17 3 * * * ${PURGE_EXPIRED_TOKENS_TASK}`;

/**
 * Expired tokens are kept 30 days (to explain a 401 "expired"), then removed; so are OAuth
 * codes, refresh tokens and invitations. A grant goes when its last refresh token has.
 */
export function purgeExpiredTokensTask(deps: { sql: postgres.Sql }): Task {
  return async () => {
    await deps.sql`delete from cadence_system.access_tokens where expires_at < now() - interval '30 days'`;
    await deps.sql`delete from cadence_system.oauth_codes where expires_at < now() - interval '30 days'`;
    await deps.sql`delete from cadence_system.oauth_refresh_tokens where expires_at < now() - interval '30 days'`;
    await deps.sql`delete from cadence_system.user_invitations where expires_at < now() - interval '30 days'`;
    await deps.sql`
      delete from cadence_system.oauth_grants g
       where g.created_at < now() - interval '1 day'
         and not exists (select 1 from cadence_system.oauth_refresh_tokens r where r.grant_id = g.id)
         and not exists (select 1 from cadence_system.oauth_codes c where c.grant_id = g.id)
         and not exists (select 1 from cadence_system.access_tokens t where t.grant_id = g.id)`;
  };
}
