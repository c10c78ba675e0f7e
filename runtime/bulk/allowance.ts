import { ApiError } from '../jsonapi/index.js';
import type { Transaction } from '../tenancy/index.js';

/** SPEC.md's limits: bulk items per org per day, refilled continuously. Configurable for tests. */
export interface AllowanceOptions {
  /** The most items an org can have in hand: a full bucket. */
  readonly capacity: number;
  /** Items refilled per day, a little every moment. */
  readonly perDay: number;
}

export const DAILY_ALLOWANCE: AllowanceOptions = { capacity: 5_000_000, perDay: 5_000_000 };

const SECONDS_PER_DAY = 86_400;

/** The allowance's row: one per org, shared by every kind of bulk request. */
const BULK_ITEMS = 'bulkItems';

/** What taking items from the allowance came to. */
export interface AllowanceTake {
  readonly granted: boolean;
  /** Items left in hand after the take (before it, when refused), rounded down. */
  readonly remaining: number;
  /** Seconds until the request's items are in hand (0 when granted); undefined when they never can be. */
  readonly retryAfterSeconds: number | undefined;
  /** Seconds until the bucket is full again. */
  readonly fullInSeconds: number;
}

/**
 * Takes `items` from the org's allowance, or nothing when fewer are in hand. A token bucket in
 * one row per org: the level is what was left at `refilled_at` plus what the time since has
 * refilled, up to the capacity. One statement locks the row, computes the level and stores it
 * less the take, so any number of API processes share the allowance exactly; it runs in the
 * request's transaction, so a request that fails later gives its items back. `now` is the
 * service's clock, never the database's, so tests can move time.
 */
export async function takeFromAllowance(tx: Transaction, orgId: number, items: number, now: Date, options: AllowanceOptions): Promise<AllowanceTake> {
  const perSecond = options.perDay / SECONDS_PER_DAY;
  const at = now.toISOString();
  await tx`
    insert into bulk_allowances (org_id, allowance, tokens, refilled_at) values (${orgId}, ${BULK_ITEMS}, ${options.capacity}, ${at})
    on conflict (org_id, allowance) do nothing`;
  const [row] = await tx<{ level: number; granted: boolean; tokens: number }[]>`
    with current as (
      select org_id,
             least(${options.capacity}::float8,
                   tokens + greatest(0, extract(epoch from (${at}::timestamptz - refilled_at)))::float8 * ${perSecond}::float8) as level
        from bulk_allowances where org_id = ${orgId} and allowance = ${BULK_ITEMS}
         for no key update
    )
    update bulk_allowances a
       set tokens = case when c.level >= ${items} then c.level - ${items} else c.level end,
           refilled_at = greatest(a.refilled_at, ${at}::timestamptz)
      from current c
     where a.org_id = c.org_id and a.allowance = ${BULK_ITEMS}
    returning c.level, c.level >= ${items} as granted, a.tokens`;
  const { level, granted, tokens } = row!;
  const fullInSeconds = Math.ceil((options.capacity - tokens) / perSecond);
  if (granted) return { granted, remaining: Math.floor(tokens), retryAfterSeconds: 0, fullInSeconds };
  const retryAfterSeconds = items > options.capacity ? undefined : Math.max(1, Math.ceil((items - level) / perSecond));
  return { granted, remaining: Math.floor(tokens), retryAfterSeconds, fullInSeconds };
}

/**
 * What the org's allowance holds now, taking nothing: for the answer to a request that charges
 * no items (an idempotent replay), which still reports the allowance rather than the hourly
 * request limit. Reads without locking, so the figure may be a moment old under concurrent takes.
 */
export async function allowanceInHand(tx: Transaction, orgId: number, now: Date, options: AllowanceOptions): Promise<AllowanceTake> {
  const perSecond = options.perDay / SECONDS_PER_DAY;
  const [row] = await tx<{ level: number }[]>`
    select least(${options.capacity}::float8,
                 tokens + greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - refilled_at)))::float8 * ${perSecond}::float8) as level
      from bulk_allowances where org_id = ${orgId} and allowance = ${BULK_ITEMS}`;
  // An org that never made a bulk request has a full bucket.
  const level = row?.level ?? options.capacity;
  return { granted: true, remaining: Math.floor(level), retryAfterSeconds: 0, fullInSeconds: Math.ceil((options.capacity - level) / perSecond) };
}

/**
 * X-RateLimit-Limit (the capacity), X-RateLimit-Remaining (items in hand) and X-RateLimit-Reset
 * (epoch seconds when the bucket is full again; on a refusal, when this request's items are).
 */
export function allowanceHeaders(take: AllowanceTake, now: Date, options: AllowanceOptions): Record<string, string> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const resetIn = take.granted ? take.fullInSeconds : (take.retryAfterSeconds ?? take.fullInSeconds);
  return {
    'X-RateLimit-Limit': String(options.capacity),
    'X-RateLimit-Remaining': String(take.remaining),
    'X-RateLimit-Reset': String(nowSeconds + resetIn),
  };
}

/** The 429 of SPEC.md's errors table, saying when to come back (or that splitting is needed). */
export function allowanceExceeded(take: AllowanceTake, items: number, now: Date, options: AllowanceOptions): ApiError {
  const headers = allowanceHeaders(take, now, options);
  const detail =
    take.retryAfterSeconds === undefined
      ? `This request has ${items} items, more than the daily bulk allowance of ${options.capacity} can ever hold; split it into smaller requests`
      : `This request has ${items} items and the organisation's daily bulk allowance has ${take.remaining} left; enough is back in ${take.retryAfterSeconds} s`;
  return new ApiError(429, [{ id: 'bulkAllowanceExceeded', status: '429', title: 'Too Many Requests', detail }], {
    ...headers,
    ...(take.retryAfterSeconds !== undefined && { 'Retry-After': String(take.retryAfterSeconds) }),
  });
}

/**
 * Charges a bulk request's items to the org's allowance in its transaction: the rate-limit
 * headers to answer with, or the 429 that refuses the request whole (and rolls it back).
 */
export async function chargeAllowance(tx: Transaction, orgId: number, items: number, now: Date, options: AllowanceOptions): Promise<Record<string, string>> {
  const take = await takeFromAllowance(tx, orgId, items, now, options);
  if (!take.granted) throw allowanceExceeded(take, items, now, options);
  return allowanceHeaders(take, now, options);
}
