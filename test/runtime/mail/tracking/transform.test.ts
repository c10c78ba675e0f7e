import { describe, expect, it } from 'vitest';
import { createTrackingSigner, listUnsubscribeHeaders, trackingBaseUrl, trackingTransform, type HtmlTransformContext } from '../../../../runtime/mail/tracking/index.js';
import { decodeEntities } from '../../../../runtime/mail/tracking/html-tags.js';

const signer = createTrackingSigner('k'.repeat(64));
const BASE = 'https://cadence.example.test';
const transform = trackingTransform({ signer, publicBaseUrl: `${BASE}/` });
const context: HtmlTransformContext = { orgId: 4, mailingId: 9, prospectId: 2, trackOpens: false, trackLinks: true, sequence: false };

/** The targets of the click URLs in `html`, in order, as their tokens carry them. */
function clickTargets(html: string): string[] {
  return [...html.matchAll(/https:\/\/cadence\.example\.test\/t\/c\/([A-Za-z0-9_-]+)/g)].map((m) => signer.verify(m[1]!)!.url!);
}

describe('the tracking transform: links', () => {
  it.each([
    ['double quotes', '<a href="https://x.test/a">a</a>', 'https://x.test/a'],
    ['single quotes, upper case', "<A HREF='https://x.test/b'>b</A>", 'https://x.test/b'],
    ['unquoted', '<a href=https://x.test/c>c</a>', 'https://x.test/c'],
    ['spaces around =', '<a\n  href = "https://x.test/d" >d</a>', 'https://x.test/d'],
    ['entities', '<a href="https://x.test/e?b=1&amp;c=2&#38;d=&#x33;">e</a>', 'https://x.test/e?b=1&c=2&d=3'],
    ['space around the URL', '<a href=" https://x.test/f ">f</a>', 'https://x.test/f'],
    ['a > in an earlier value', '<a title="1 > 0" href="https://x.test/g">g</a>', 'https://x.test/g'],
    ['after a valueless attribute', '<a download href="https://x.test/h">h</a>', 'https://x.test/h'],
    ['http', '<a href="http://x.test/i">i</a>', 'http://x.test/i'],
    ['non-ASCII, encoded as a browser would', '<a href="https://x.test/ü">ü</a>', 'https://x.test/%C3%BC'],
    ['the first of two hrefs', '<a href="https://x.test/first" href="https://x.test/second">j</a>', 'https://x.test/first'],
  ])('rewrites %s', (_name, html, target) => {
    const out = transform(html, context);
    expect(clickTargets(out)).toEqual([target]);
    expect(out).not.toContain(target.replace('https://', '').replace('http://', '') + '"');
  });

  it.each([
    ['mailto', '<a href="mailto:a@x.test">m</a>'],
    ['tel', '<a href="tel:+15550100">t</a>'],
    ['a fragment', '<a href="#top">top</a>'],
    ['a relative link', '<a href="/path">p</a>'],
    ['javascript', '<a href="javascript:alert(1)">j</a>'],
    ['a tracked link', `<a href="${BASE}/t/c/abc">already</a>`],
    ['a look-alike attribute', '<a data-href="https://x.test/d">d</a>'],
    ['a comment', '<!-- <a href="https://x.test/c">c</a> -->'],
    ['script text', `<script>var s = "<a href='https://x.test/js'>";</script>`],
    ['style text', '<style>/* <a href="https://x.test/css"> */</style>'],
    ['an attribute value', `<abbr title="<a href='https://x.test/t'>">t</abbr>`],
    ['another tag', '<link href="https://x.test/l"><abbr href="https://x.test/b">b</abbr>'],
    ['text', 'a < b and <a>no href</a> href="https://x.test/text"'],
  ])('leaves %s alone', (_name, html) => {
    expect(transform(html, context)).toBe(html);
  });

  it('keeps everything else byte for byte, and the link text', () => {
    const html = '<p>One <a class="x" href="https://x.test/1" style="color:red">first</a> and <a href=\'https://x.test/2\'>second</a>.</p>';
    const out = transform(html, context);
    expect(clickTargets(out)).toEqual(['https://x.test/1', 'https://x.test/2']);
    expect(out.replace(/"https:\/\/cadence\.example\.test\/t\/c\/[A-Za-z0-9_-]+"/g, 'URL')).toBe(
      '<p>One <a class="x" href=URL style="color:red">first</a> and <a href=URL>second</a>.</p>',
    );
  });

  it('tracks no link when trackLinks is off', () => {
    const html = '<a href="https://x.test/a">a</a>';
    expect(transform(html, { ...context, trackLinks: false })).toBe(html);
  });
});

describe('the tracking transform: pixel and unsubscribe link', () => {
  it('adds the pixel before </body>, whatever its case', () => {
    const out = transform('<html><body><p>Hi</p></BODY ></html>', { ...context, trackOpens: true });
    const pixel = out.match(/<img src="([^"]+)" width="1" height="1" alt=""[^>]*><\/BODY >/);
    expect(pixel).not.toBeNull();
    const token = decodeEntities(pixel![1]!).match(/\/t\/o\/([A-Za-z0-9_-]+)\.gif$/)![1]!;
    expect(signer.verify(token)).toEqual({ kind: 'open', orgId: 4, mailingId: 9 });
    expect(out.endsWith('</html>')).toBe(true);
  });

  it('adds it at the end of a fragment, and not for a </body> in a comment', () => {
    const out = transform('<p>Hi</p><!-- </body> -->', { ...context, trackOpens: true });
    expect(out).toMatch(/^<p>Hi<\/p><!-- <\/body> --><img src=/);
  });

  it('gives sequence mailings an unsubscribe link, untracked, ahead of the pixel', () => {
    const out = transform('<p>Hi <a href="https://x.test/a">a</a></p>', { ...context, trackOpens: true, sequence: true });
    const unsubscribe = out.match(/<a href="https:\/\/cadence\.example\.test\/t\/u\/([A-Za-z0-9_-]+)">unsubscribe<\/a>/);
    expect(signer.verify(unsubscribe![1]!)).toEqual({ kind: 'unsubscribe', orgId: 4, mailingId: 9 });
    expect(out.indexOf('/t/u/')).toBeLessThan(out.indexOf('/t/o/'));
    expect(clickTargets(out)).toEqual(['https://x.test/a']);
    expect(transform('<p>Hi</p>', { ...context, trackLinks: false })).toBe('<p>Hi</p>');
  });

  it('names the same unsubscribe URL in List-Unsubscribe, for one-click unsubscribes', () => {
    const headers = listUnsubscribeHeaders({ signer, publicBaseUrl: BASE }, context);
    const body = transform('<p>Hi</p>', { ...context, sequence: true });
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(body).toContain(`href="${headers['List-Unsubscribe']!.slice(1, -1)}"`);
  });
});

describe('the base of tracking URLs', () => {
  it.each([
    [{ publicBaseUrl: 'https://api.example.com/', host: '0.0.0.0', port: 80 }, 'https://api.example.com'],
    [{ publicBaseUrl: undefined, host: '127.0.0.1', port: 3000 }, 'http://127.0.0.1:3000'],
    [{ publicBaseUrl: undefined, host: '0.0.0.0', port: 8080 }, 'http://127.0.0.1:8080'],
    [{ publicBaseUrl: undefined, host: '::1', port: 3000 }, 'http://[::1]:3000'],
  ])('of %o is %s', (config, base) => {
    expect(trackingBaseUrl(config)).toBe(base);
  });
});
