import type { Context, Handler } from 'hono';
import { ApiError } from '../jsonapi/index.js';
import type { AuthContext } from './authenticate.js';

/** The SQLSTATE that cadence_system.recheck_access_token (migration 0009) raises. */
const STALE_TOKEN_SQLSTATE = 'CDA01';

/** Hono variables of an authenticated request. */
export interface AuthEnv {
  Variables: {
    auth: AuthContext;
    /** Set when `auth` came from the token cache: what must confirm it before it is relied on. */
    tokenRecheck: TokenRecheck | undefined;
  };
}

/**
 * A request answered from the token cache: who the cache says the token acts for, not yet
 * confirmed. The org-scoped transaction confirms it in the statement that opens it (no round
 * trip of its own); anything that acts on `auth` outside such a transaction calls
 * `confirmedAuth` first, which looks the token up afresh.
 */
export class TokenRecheck {
  #confirmed = false;
  private lookedUp: Promise<AuthContext> | undefined;

  constructor(
    readonly tokenHash: string,
    readonly cached: AuthContext,
    /** Looks the token up afresh, refreshing or dropping its cache entry; throws a 401 if it is refused. */
    private readonly lookUp: () => Promise<AuthContext>,
  ) {
    if (!/^[0-9a-f]{64}$/.test(tokenHash)) throw new TypeError('a token hash is 64 hex digits');
  }

  /**
   * A SQL expression that raises unless the token still exists, is unexpired, its org is usable
   * and the admin flag is as cached. Only a hex hash, integers and a boolean are inlined.
   */
  expression(): string {
    const { orgId, userId, admin } = this.cached;
    if (!Number.isSafeInteger(orgId) || (userId !== null && !Number.isSafeInteger(userId))) throw new TypeError('ids must be integers');
    return `cadence_system.recheck_access_token('${this.tokenHash}', ${orgId}, ${userId ?? 'null'}, ${admin ? 'true' : 'false'})`;
  }

  /** Whether this request has confirmed the token: a transaction carried the recheck, or a fresh lookup. */
  get confirmed(): boolean {
    return this.#confirmed;
  }

  /** Called by the transaction that carried the recheck, once it passed. */
  passed(): void {
    this.#confirmed = true;
  }

  /** Looks the token up afresh, once per request: a refusal is not looked up a second time. */
  confirm(): Promise<AuthContext> {
    this.lookedUp ??= this.lookUp().then((auth) => {
      this.#confirmed = true;
      return auth;
    });
    return this.lookedUp;
  }
}

/**
 * Thrown when the transaction's recheck finds the cached token changed. `retryingWhenTokenStale`
 * turns it into a fresh lookup and a second run; should it escape, it still renders as a 401.
 */
export class StaleToken extends ApiError {
  constructor() {
    super(401, [{ id: 'unauthorized', status: '401', title: 'Unauthorized', detail: 'The access token changed while this request was served; send it again' }], {
      'WWW-Authenticate': 'Bearer realm="cadence"',
    });
  }
}

/** Whether a database error is the recheck's refusal. */
export function isStaleTokenError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STALE_TOKEN_SQLSTATE;
}

/** The caller, looked up afresh first if it came from the cache and nothing has confirmed it yet. */
export async function confirmedAuth<E extends AuthEnv>(c: Context<E>): Promise<AuthContext> {
  const context = c as unknown as Context<AuthEnv>;
  const recheck = context.get('tokenRecheck');
  if (recheck && !recheck.confirmed) context.set('auth', await recheck.confirm());
  return context.get('auth');
}

/**
 * Runs `handler`, and if its transaction refused the cached token, runs it once more with the
 * token looked up afresh (a 401 if it is no longer valid; otherwise, say, with the user's new
 * admin flag). The first run left nothing behind: its transaction was rolled back.
 */
export function retryingWhenTokenStale<E extends AuthEnv>(handler: Handler<E>): Handler<E> {
  // Hono types a handler's result as any; unknown is all this wrapper can promise about it.
  return async function servedWithCurrentToken(c, next): Promise<unknown> {
    try {
      return await handler(c, next);
    } catch (error) {
      if (!(error instanceof StaleToken)) throw error;
      await confirmedAuth(c);
      return handler(c, next);
    }
  };
}
