/**
 * How a mailing's HTML is composed after rendering, shared by the sender (which applies the
 * steps in order, runtime/mail/sending) and tracking (which provides them, runtime/mail/tracking).
 */

/** What the renderer knows of the mailing a body belongs to. */
export interface HtmlTransformContext {
  readonly orgId: number;
  readonly mailingId: number;
  readonly prospectId: number | null;
  readonly trackOpens: boolean;
  readonly trackLinks: boolean;
  /** Whether the mailing is a sequence's (mailingType `sequence`): every such e-mail carries an unsubscribe link. */
  readonly sequence: boolean;
}

/**
 * A step of the HTML body's composition after rendering (the tracking pixel, rewritten links,
 * an unsubscribe link), applied in order. The plain-text part is derived before them.
 */
export type HtmlTransform = (html: string, context: HtmlTransformContext) => string;

/** Headers a mailing's message carries besides its own (List-Unsubscribe), from the same context. */
export type HeaderSource = (context: HtmlTransformContext) => Readonly<Record<string, string>>;
