/**
 * A mailbox's `emailSignature` (HTML, the reference's "default signature to be appended to sent
 * email messages") after a rendered body: inside the body element when the HTML has one, so
 * that it stays part of the document and tracking's pixel still goes last. The signature is the
 * mailbox owner's own HTML, not a template: its braces are not variables.
 */
export function withSignature(html: string, signature: unknown): string {
  if (typeof signature !== 'string' || signature.trim() === '') return html;
  const block = `<div class="signature">${signature}</div>`;
  const end = html.search(/<\/body\s*>/i);
  return end === -1 ? `${html}${block}` : `${html.slice(0, end)}${block}${html.slice(end)}`;
}
