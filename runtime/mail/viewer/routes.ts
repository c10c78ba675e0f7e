import { Hono, type Context } from 'hono';
import type postgres from 'postgres';
import type { ApiEnv } from '../../engine/index.js';
import { listMailMessages, showMailMessage } from '../messages.js';
import { readMime } from './mime-reader.js';
import { errorPage, listPage, messagePage } from './pages.js';
import { MAIL_VIEWER_PATH, mailViewerQuery, verifyMailViewerQuery, type MailViewerGrant } from './viewer-link.js';

/**
 * Nothing but inline styles and data: images; the message frame inherits it, so a message's
 * scripts, remote images (tracking pixels) and fonts are never loaded, and neither it nor the
 * pages can be framed elsewhere, submit forms or send their signed URL as a referrer.
 */
export const MAIL_VIEWER_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The newest messages the list shows. */
export const MAIL_VIEWER_LIST_LIMIT = 200;

const MESSAGE_ID = /^[1-9][0-9]{0,15}$/;

export interface MailViewerOptions {
  readonly sql: postgres.Sql;
  readonly signingKey: Buffer;
  readonly clock: () => Date;
}

function html(c: Context<ApiEnv>, status: 200 | 403 | 404 | 500, body: string): Response {
  return c.body(body, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': MAIL_VIEWER_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // The URL is a credential and the pages show mail: no cache keeps them.
    'Cache-Control': 'no-store',
  });
}

/** The grant of the request's signed query, or the 403 page that refuses it. */
function grantOf(c: Context<ApiEnv>, options: MailViewerOptions): MailViewerGrant | Response {
  const grant = verifyMailViewerQuery(options.signingKey, new URL(c.req.url).searchParams);
  if (!grant) return html(c, 403, errorPage('Not a valid link', 'This mail viewer link is not one Cadence signed, or it was altered.'));
  if (options.clock().getTime() >= grant.expires * 1000) {
    return html(c, 403, errorPage('This link has expired', 'Mail viewer links work for an hour. Run cadence mail viewer --org ID for a new one.'));
  }
  return grant;
}

/**
 * GET /mail-viewer (the org's stored messages, newest first) and /mail-viewer/messages/:id
 * (one of them: its header fields, its HTML in a sandboxed frame, its text): no token, the
 * signed query is the credential, and every link between the pages carries it on. A message
 * is looked up in the signed org only, so another org's is a 404 whatever its id.
 */
export function mailViewerRoutes(options: MailViewerOptions): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const listHref = (grant: MailViewerGrant) => `${MAIL_VIEWER_PATH}?${mailViewerQuery(options.signingKey, grant)}`;
  const messageHref = (grant: MailViewerGrant, id: number) => `${MAIL_VIEWER_PATH}/messages/${id}?${mailViewerQuery(options.signingKey, grant)}`;

  routes.get('/', async (c) => {
    const grant = grantOf(c, options);
    if (grant instanceof Response) return grant;
    const messages = await listMailMessages(options.sql, grant.orgId, MAIL_VIEWER_LIST_LIMIT);
    const view = {
      orgId: grant.orgId,
      messages,
      messageHref: (id: number) => messageHref(grant, id),
      expiresAt: new Date(grant.expires * 1000),
      limit: MAIL_VIEWER_LIST_LIMIT,
    };
    return html(c, 200, listPage(view));
  });

  routes.get('/messages/:id', async (c) => {
    const grant = grantOf(c, options);
    if (grant instanceof Response) return grant;
    const id = c.req.param('id');
    const message = MESSAGE_ID.test(id) ? await showMailMessage(options.sql, grant.orgId, Number(id)) : undefined;
    if (!message) return html(c, 404, errorPage('No such message', `Org ${grant.orgId} has no stored mail message ${id}.`));
    return html(c, 200, messagePage({ message, read: readMime(message.raw), raw: message.raw, listHref: listHref(grant) }));
  });

  // A page, not a JSON:API document, for whatever fails here too; the cause goes to the log only.
  routes.onError((error, c) => {
    (c.get('log') ?? console).error({ err: error }, 'mail viewer failed');
    return html(c, 500, errorPage('Something went wrong', 'The message could not be shown; the server log says why.'));
  });
  return routes;
}
