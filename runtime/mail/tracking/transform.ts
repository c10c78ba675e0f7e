import { escapeAttribute, outlineHtml } from './html-tags.js';
import { isTrackableUrl, type TrackingSigner } from './token.js';
import type { HtmlTransform, HtmlTransformContext } from '../html-transform.js';

export type { HtmlTransform, HtmlTransformContext } from '../html-transform.js';

export interface TrackingOptions {
  readonly signer: TrackingSigner;
  /** Where Cadence's /t/ routes are reached from the recipient's mail client, e.g. https://api.example.com. */
  readonly publicBaseUrl: string;
}

/** The short signed URLs of one mailing. */
export interface TrackingUrls {
  readonly pixel: string;
  readonly unsubscribe: string;
  click(url: string): string;
}

export function trackingUrls(options: TrackingOptions, context: Pick<HtmlTransformContext, 'orgId' | 'mailingId'>): TrackingUrls {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const ids = { orgId: context.orgId, mailingId: context.mailingId };
  // Signed when asked for: most mailings need one or two of them, and each is an HMAC.
  return {
    get pixel() {
      return `${base}/t/o/${options.signer.sign({ kind: 'open', ...ids })}.gif`;
    },
    get unsubscribe() {
      return `${base}/t/u/${options.signer.sign({ kind: 'unsubscribe', ...ids })}`;
    },
    click: (url) => `${base}/t/c/${options.signer.sign({ kind: 'click', ...ids, url })}`,
  };
}

/**
 * The tracking transform: with `trackLinks`, every `<a href>` to an absolute http(s) URL goes
 * through its click URL (mailto:, tel:, fragments, relative and already tracked links stay);
 * sequence mailings get an unsubscribe paragraph; with `trackOpens`, a 1×1 pixel comes last.
 * Both go before `</body>` when there is one, else at the end.
 */
export function trackingTransform(options: TrackingOptions): HtmlTransform {
  const tracked = `${options.publicBaseUrl.replace(/\/+$/, '')}/t/`;
  return (html, context) => {
    const urls = trackingUrls(options, context);
    const outline = outlineHtml(html);
    let body = html;
    let shift = 0;
    if (context.trackLinks) {
      for (const link of outline.links) {
        const target = link.value.trim();
        if (!isTrackableUrl(target) || target.startsWith(tracked)) continue;
        const replacement = `"${escapeAttribute(urls.click(new URL(target).href))}"`;
        body = body.slice(0, link.start + shift) + replacement + body.slice(link.end + shift);
        shift += replacement.length - (link.end - link.start);
      }
    }
    const footer = [
      context.sequence ? unsubscribeParagraph(urls.unsubscribe) : '',
      context.trackOpens ? `<img src="${escapeAttribute(urls.pixel)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">` : '',
    ].join('');
    if (footer === '') return body;
    const at = outline.bodyEnd === undefined ? body.length : outline.bodyEnd + shift;
    return body.slice(0, at) + footer + body.slice(at);
  };
}

function unsubscribeParagraph(url: string): string {
  return `<p style="font-size:12px;color:#777777">If you would rather not hear from us again, <a href="${escapeAttribute(url)}">unsubscribe</a>.</p>`;
}

/**
 * The headers that let mail clients offer their own unsubscribe button (RFC 2369) and do it in
 * one click, with no page to visit (RFC 8058: they POST `List-Unsubscribe=One-Click` to the
 * URL). The sender adds them to every sequence mailing, with the same URL as the body's link.
 */
export function listUnsubscribeHeaders(options: TrackingOptions, context: Pick<HtmlTransformContext, 'orgId' | 'mailingId'>): Record<string, string> {
  return { 'List-Unsubscribe': `<${trackingUrls(options, context).unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
