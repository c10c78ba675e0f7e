import type postgres from 'postgres';
import { AdminError } from '../operator/index.js';

export interface OrgRateLimit {
  orgId: number;
  /** The org's own requests per hour per holder; null: the deployment's RATE_LIMIT_PER_HOUR. */
  requestLimitPerHour: number | null;
}

/**
 * Sets an org's own request rate limit, or with null goes back to the deployment's
 * (`cadence org set-rate-limit`). API processes pick it up at their next settle or read of the
 * org's holders, within about two seconds.
 */
export async function setOrgRateLimit(sql: postgres.Sql, orgId: number, perHour: number | null): Promise<OrgRateLimit> {
  if (perHour !== null && (!Number.isSafeInteger(perHour) || perHour <= 0 || perHour > 2 ** 31 - 1)) {
    throw new AdminError('a rate limit is a positive number of requests per hour, at most 2147483647');
  }
  const [row] = await sql<{ id: number; request_limit_per_hour: number | null }[]>`
    update cadence_system.orgs set request_limit_per_hour = ${perHour} where id = ${orgId} and deleted_at is null
    returning id, request_limit_per_hour`;
  if (!row) throw new AdminError(`org ${orgId} does not exist`);
  return { orgId: row.id, requestLimitPerHour: row.request_limit_per_hour };
}
