import type postgres from 'postgres';
import { loadCursorSecret } from '../../db/settings.js';
import { requireOrg } from '../../operator/index.js';
import { trackingBaseUrl } from '../tracking/index.js';
import { MAIL_VIEWER_LINK_LIFETIME_MS, MAIL_VIEWER_PATH, mailViewerQuery, mailViewerSigningKey } from './viewer-link.js';

export interface MailViewerLink {
  readonly orgId: number;
  readonly viewerUrl: string;
  readonly expiresAt: string;
}

/** Where the server is reached: PUBLIC_BASE_URL, else its HOST and PORT (the configuration's). */
export interface ServerAddress {
  readonly publicBaseUrl: string | undefined;
  readonly host: string;
  readonly port: number;
}

/**
 * `cadence mail viewer --org ID`: a link to the org's stored messages, valid for an hour. It is
 * signed here with the key the API server derives from the same cursor secret (kept in the
 * database), so the server verifies it without being asked. It points where tracking links do.
 */
export async function mailViewerLink(sql: postgres.Sql, options: { orgId: number; server: ServerAddress; now: Date }): Promise<MailViewerLink> {
  await sql.begin((tx) => requireOrg(tx, options.orgId));
  const key = mailViewerSigningKey(await loadCursorSecret(sql));
  const expires = Math.floor((options.now.getTime() + MAIL_VIEWER_LINK_LIFETIME_MS) / 1000);
  const viewerUrl = `${trackingBaseUrl(options.server)}${MAIL_VIEWER_PATH}?${mailViewerQuery(key, { orgId: options.orgId, expires })}`;
  return { orgId: options.orgId, viewerUrl, expiresAt: new Date(expires * 1000).toISOString() };
}
