import type { Context, Handler } from 'hono';
import type postgres from 'postgres';
import { parametersOf, parseAuthorizationRequest, clientRedirect, type AuthorizationRequest, type Parameters } from './authorization-request.js';
import { signIn } from './credentials.js';
import { grantAuthorizationCode } from './grants.js';
import { renderConsent, renderMessage } from './pages.js';

export interface AuthorizeDependencies {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
}

/** The authorization request's own parameters, carried through the consent form as hidden fields. */
const CARRIED = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'];

function consentFields(parameters: Parameters): { name: string; value: string }[] {
  return CARRIED.flatMap((name) => (parameters.get(name) ?? []).map((value) => ({ name, value })));
}

function consentPage(c: Context, request: AuthorizationRequest, parameters: Parameters, status: 200 | 401, extra: { login?: string; problem?: string } = {}): Response {
  return c.html(
    renderConsent({
      appName: request.client.name,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      fields: consentFields(parameters),
      action: '/oauth/authorize',
      ...extra,
    }),
    status,
  );
}

function errorPage(c: Context, detail: string): Response {
  return c.html(renderMessage({ title: 'This sign-in link is not valid', detail, problem: true }), 400);
}

/** GET /oauth/authorize: the sign-in and consent page, or an error. */
export function authorizationPage(deps: AuthorizeDependencies): Handler {
  return async function authorize(c) {
    const parameters = parametersOf(new URL(c.req.url).searchParams);
    const parsed = await parseAuthorizationRequest(deps.sql, parameters);
    if (parsed.kind === 'page-error') return errorPage(c, parsed.detail);
    if (parsed.kind === 'redirect-error') return c.redirect(parsed.location, 303);
    return consentPage(c, parsed.request, parameters, 200);
  };
}

/**
 * POST /oauth/authorize: the decision from the consent page. The request is validated again
 * from the posted fields; "deny" goes back with access_denied, "allow" needs a valid sign-in
 * and goes back with a code.
 */
export function authorizationDecision(deps: AuthorizeDependencies): Handler {
  return async function decide(c) {
    const form = await c.req.formData().catch(() => new FormData());
    const fields = [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    const parameters = parametersOf(fields.filter(([name]) => CARRIED.includes(name)));
    const parsed = await parseAuthorizationRequest(deps.sql, parameters);
    if (parsed.kind === 'page-error') return errorPage(c, parsed.detail);
    if (parsed.kind === 'redirect-error') return c.redirect(parsed.location, 303);
    const { request } = parsed;
    const value = (name: string) => fields.find(([n]) => n === name)?.[1] ?? '';
    if (value('decision') !== 'allow') {
      return c.redirect(clientRedirect(request.redirectUri, { error: 'access_denied', error_description: 'The user denied the request' }, request.state), 303);
    }
    const now = deps.clock();
    const login = value('login');
    const outcome = await signIn(deps.sql, login, value('password'), now);
    if ('refused' in outcome) return consentPage(c, request, parameters, 401, { login, problem: outcome.refused });
    const code = await grantAuthorizationCode(deps.sql, {
      appId: request.client.appId,
      ...outcome,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      now,
    });
    return c.redirect(clientRedirect(request.redirectUri, { code }, request.state), 303);
  };
}
