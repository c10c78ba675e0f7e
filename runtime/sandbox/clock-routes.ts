import type { Context, Hono, MiddlewareHandler } from 'hono';
import type postgres from 'postgres';
import type { ApiEnv } from '../engine/index.js';
import { actionParams, queryParams } from '../engine/query-params.js';
import { forbidden, jsonApi } from '../jsonapi/index.js';
import { runInOrgTime } from '../tenancy/org-time.js';
import { advanceSandboxClock, MAX_ADVANCE_SECONDS, orgTimeOf, readSandboxClock, type SandboxClockState } from './clock.js';

export interface SandboxClockRouteOptions {
  readonly sql: postgres.Sql;
  /** Real time (the service's clock before any org's offset). */
  readonly clock: () => Date;
}

/**
 * Every authenticated request of sandbox mode runs in its org's time (tenancy/org-time.ts): one
 * indexed read of the org's offset, after authentication. Outside sandbox mode it is not mounted.
 */
export function orgTimeOfRequest(sql: postgres.Sql): MiddlewareHandler<ApiEnv> {
  return async function inOrgTime(c, next) {
    const time = await orgTimeOf(sql, c.get('auth').orgId);
    await runInOrgTime(time, next);
  };
}

function clockDocument(state: SandboxClockState): object {
  return { data: { type: 'sandboxClock', id: String(state.orgId), attributes: { now: state.now.toISOString(), offsetSeconds: state.offsetSeconds } } };
}

/**
 * The test clock's routes (mounted in sandbox mode only, so outside it they are unknown routes):
 * - GET /api/v2/sandbox/clock: the caller's org's time and how far it is ahead of real time;
 * - POST /api/v2/sandbox/clock/actions/advance?actionParams[seconds]=N: moves it N seconds
 *   forward (admins only), and answers the same document.
 */
export function mountSandboxClockRoutes(api: Hono<ApiEnv>, options: SandboxClockRouteOptions): void {
  api.get('/sandbox/clock', async (c: Context<ApiEnv>) => {
    actionParams(queryParams(c.req.url), { requiredParams: [], optionalParams: [] });
    return jsonApi(c, 200, clockDocument(await readSandboxClock(options.sql, c.get('auth').orgId, options.clock())));
  });
  api.post('/sandbox/clock/actions/advance', async (c: Context<ApiEnv>) => {
    const { orgId, admin } = c.get('auth');
    const params = actionParams(queryParams(c.req.url), {
      requiredParams: ['seconds'],
      optionalParams: [],
      paramSchemas: { seconds: { type: 'integer', minimum: 1, maximum: MAX_ADVANCE_SECONDS } },
    });
    if (!admin) throw forbidden('adminOnly', "Only an administrator of the organisation can move its sandbox's clock");
    return jsonApi(c, 200, clockDocument(await advanceSandboxClock(options.sql, orgId, Number(params.get('seconds')), options.clock())));
  });
}
