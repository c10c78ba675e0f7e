/**
 * App tokens: JWTs an app signs with RS256 using the private half of one of its registered
 * keys, with claims `iss` (the app GUID), `iat` and `exp`. jose checks the algorithm and the
 * signature; the claims are checked here against the caller's clock.
 */
import { compactVerify, decodeJwt, decodeProtectedHeader, errors } from 'jose';
import type postgres from 'postgres';
import { unauthorized, type ApiError } from '../jsonapi/index.js';
import { isGuid } from './guids.js';
import { activeKeys } from './keys.js';

/** SPEC.md: an app token lives at most 3600 seconds. */
export const MAX_APP_TOKEN_LIFETIME_SECONDS = 3600;
/** How far the app's clock may be off ours, either way. */
export const CLOCK_SKEW_SECONDS = 30;

export interface VerifiedApp {
  readonly appId: string;
  readonly s2sScopes: readonly string[];
}

function refused(detail: string): ApiError {
  return unauthorized(`Invalid app token: ${detail}`);
}

/** Claims of a JWT whose signature was verified: the time window and lifetime rules. */
export function checkAppTokenClaims(claims: Record<string, unknown>, now: Date): void {
  const { iat, exp, nbf } = claims;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw refused('the iat claim (issued at, epoch seconds) is required');
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw refused('the exp claim (expires at, epoch seconds) is required');
  const nowSeconds = now.getTime() / 1000;
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) throw refused('it was issued in the future (iat is later than now)');
  if (typeof nbf === 'number' && nbf > nowSeconds + CLOCK_SKEW_SECONDS) throw refused('it is not valid yet (nbf is later than now)');
  if (exp <= iat) throw refused('exp must be later than iat');
  if (exp - iat > MAX_APP_TOKEN_LIFETIME_SECONDS) {
    throw refused(`it lives ${exp - iat} seconds (exp - iat); at most ${MAX_APP_TOKEN_LIFETIME_SECONDS} are allowed`);
  }
  if (exp <= nowSeconds - CLOCK_SKEW_SECONDS) throw refused('it has expired (exp is past)');
}

/** The claimed issuer, read before the signature is checked only to find the keys to check it with. */
function claimedIssuer(token: string): string {
  let alg: unknown;
  let iss: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
    iss = decodeJwt(token).iss;
  } catch {
    throw refused('it is not a JWT in compact serialization');
  }
  if (typeof alg !== 'string') throw refused('its header must name the algorithm: alg RS256');
  if (alg !== 'RS256') throw refused(`it must be signed with RS256, not ${alg}`);
  if (typeof iss !== 'string' || iss === '') throw refused('the iss claim must name the app GUID');
  return iss;
}

/** The payload signed by one of `keys`, or undefined when none of them signed it. */
async function verifiedPayload(token: string, keys: Awaited<ReturnType<typeof activeKeys>>): Promise<Uint8Array | undefined> {
  for (const key of keys) {
    try {
      return (await compactVerify(token, key, { algorithms: ['RS256'] })).payload;
    } catch (error) {
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      throw refused((error as Error).message);
    }
  }
  return undefined;
}

/**
 * Verifies an app token: RS256 only, `iss` a registered app, signed by one of its keys that is
 * not revoked, inside its time window. Any failure is a 401 saying what was wrong.
 */
export async function verifyAppToken(sql: postgres.Sql, token: string, now: Date): Promise<VerifiedApp> {
  const iss = claimedIssuer(token);
  if (!isGuid(iss)) throw refused('no app has the GUID in iss');
  const [app] = await sql<{ guid: string; s2s_scopes: string[] }[]>`
    select guid, s2s_scopes from cadence_system.apps where guid = ${iss}`;
  if (!app) throw refused('no app has the GUID in iss');
  const payload = await verifiedPayload(token, await activeKeys(sql, app.guid));
  if (!payload) throw refused("the signature matches none of the app's registered keys");
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw refused('the payload is not a JSON object');
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw refused('the payload is not a JSON object');
  checkAppTokenClaims(claims as Record<string, unknown>, now);
  return { appId: app.guid, s2sScopes: app.s2s_scopes };
}
