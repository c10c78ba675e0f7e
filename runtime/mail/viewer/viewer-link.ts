import { linkInteger, linkSignature, linkSignatureHolds, linkSigningKey } from '../../http/signed-links.js';

/**
 * The mail viewer's signed links: one signature over the org and the expiry covers every page
 * of the viewer for that org (its list and each of its messages), and no other org's, until
 * then. Their key is their own, so it never signs an upload URL or a page cursor.
 */

/** How long a link `cadence mail viewer` prints can be used. */
export const MAIL_VIEWER_LINK_LIFETIME_MS = 60 * 60 * 1000;

/** Where the viewer is served. */
export const MAIL_VIEWER_PATH = '/mail-viewer';

export interface MailViewerGrant {
  readonly orgId: number;
  /** Epoch seconds. */
  readonly expires: number;
}

export function mailViewerSigningKey(cursorSecret: string): Buffer {
  return linkSigningKey(cursorSecret, 'cadence mail viewer links');
}

function payloadOf(grant: MailViewerGrant): string {
  return `${grant.orgId}.${grant.expires}`;
}

/** `org=…&expires=…&signature=…`, which every viewer page's URL carries. */
export function mailViewerQuery(key: Buffer, grant: MailViewerGrant): string {
  return new URLSearchParams({ org: String(grant.orgId), expires: String(grant.expires), signature: linkSignature(key, payloadOf(grant)) }).toString();
}

/** The grant a URL's query carries when its signature holds (expired or not); undefined for anything forged, altered or malformed. */
export function verifyMailViewerQuery(key: Buffer, query: URLSearchParams): MailViewerGrant | undefined {
  const orgId = linkInteger(query.get('org'));
  const expires = linkInteger(query.get('expires'));
  if (orgId === undefined || expires === undefined) return undefined;
  const grant = { orgId, expires };
  return linkSignatureHolds(key, payloadOf(grant), query.get('signature') ?? '') ? grant : undefined;
}
