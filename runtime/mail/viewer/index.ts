import type { Hono } from 'hono';
import type { ApiEnv } from '../../engine/index.js';
import { mailViewerRoutes, type MailViewerOptions } from './routes.js';
import { MAIL_VIEWER_PATH, mailViewerSigningKey } from './viewer-link.js';

/**
 * The sandbox's mail viewer (issue #28): `cadence mail viewer --org ID` prints a signed link,
 * valid an hour, to HTML pages of the messages the local transport stored for the org.
 */

export { mailViewerLink, type MailViewerLink } from './viewer-command.js';
export { MAIL_VIEWER_LINK_LIFETIME_MS, MAIL_VIEWER_PATH } from './viewer-link.js';
export { readMime, type ReadMessage } from './mime-reader.js';

/** The viewer's pages, outside /api/v2: the signed link is their only credential. */
export function mountMailViewer(app: Hono<ApiEnv>, options: Omit<MailViewerOptions, 'signingKey'> & { readonly cursorSecret: string }): void {
  app.route(MAIL_VIEWER_PATH, mailViewerRoutes({ sql: options.sql, clock: options.clock, signingKey: mailViewerSigningKey(options.cursorSecret) }));
}
