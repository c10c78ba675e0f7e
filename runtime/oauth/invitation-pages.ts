import type { Context, Handler } from 'hono';
import type postgres from 'postgres';
import { CredentialProblem } from './credentials.js';
import { acceptInvitation, openInvitation } from './invitations.js';
import { MIN_PASSWORD_LENGTH } from './passwords.js';
import { renderInvitation, renderMessage } from './pages.js';

export interface InvitationPageDependencies {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
}

function refusedPage(c: Context, detail: string): Response {
  return c.html(renderMessage({ title: 'This invitation cannot be used', detail, problem: true }), 404);
}

/** GET /account/invitations/:token: the form to set a password. */
export function invitationForm(deps: InvitationPageDependencies): Handler {
  return async function showInvitation(c) {
    const invitation = await deps.sql.begin((tx) => openInvitation(tx, c.req.param('token') ?? '', deps.clock()));
    if ('refused' in invitation) return refusedPage(c, invitation.refused);
    return c.html(renderInvitation({ login: invitation.login, minLength: MIN_PASSWORD_LENGTH }));
  };
}

/** POST /account/invitations/:token: sets the password and uses the invitation up. */
export function invitationAcceptance(deps: InvitationPageDependencies): Handler {
  return async function acceptInvitationForm(c) {
    const token = c.req.param('token') ?? '';
    const form = await c.req.formData().catch(() => new FormData());
    const password = form.get('password');
    try {
      const { login } = await acceptInvitation(deps.sql, token, typeof password === 'string' ? password : '', deps.clock());
      return c.html(renderMessage({ title: 'Your password is set', detail: `You can now sign in as ${login}.`, problem: false }));
    } catch (error) {
      if (!(error instanceof CredentialProblem)) throw error;
      const invitation = await deps.sql.begin((tx) => openInvitation(tx, token, deps.clock()));
      if ('refused' in invitation) return refusedPage(c, invitation.refused);
      return c.html(renderInvitation({ login: invitation.login, minLength: MIN_PASSWORD_LENGTH, problem: error.message }), 422);
    }
  };
}
