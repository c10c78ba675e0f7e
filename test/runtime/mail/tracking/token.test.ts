import { describe, expect, it } from 'vitest';
import { createTrackingSigner, type TrackingClaim } from '../../../../runtime/mail/tracking/index.js';

const signer = createTrackingSigner('a'.repeat(64));

describe('tracking tokens', () => {
  const claims: TrackingClaim[] = [
    { kind: 'open', orgId: 1, mailingId: 1 },
    { kind: 'unsubscribe', orgId: 127, mailingId: 128 },
    { kind: 'click', orgId: Number.MAX_SAFE_INTEGER, mailingId: 300, url: 'https://example.com/a?b=1&c=%20#top' },
    { kind: 'click', orgId: 2, mailingId: 3, url: 'http://example.com/' },
  ];

  it.each(claims)('round-trips %o', (claim) => {
    const token = signer.sign(claim);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(signer.verify(token)).toEqual(claim);
  });

  it('is compact: 21 bytes, 28 characters, for an open of small ids', () => {
    expect(signer.sign({ kind: 'open', orgId: 12, mailingId: 3456 })).toHaveLength(28);
  });

  it('refuses every altered character, a cut, an addition and another key', () => {
    const token = signer.sign({ kind: 'click', orgId: 5, mailingId: 77, url: 'https://example.com/x' });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      const other = alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!;
      expect(signer.verify(token.slice(0, i) + other + token.slice(i + 1)), `character ${i}`).toBeUndefined();
    }
    expect(signer.verify(token.slice(0, -1))).toBeUndefined();
    expect(signer.verify(token.slice(1))).toBeUndefined();
    expect(signer.verify(`${token}A`)).toBeUndefined();
    expect(signer.verify(`${token}=`)).toBeUndefined();
    expect(signer.verify('')).toBeUndefined();
    expect(createTrackingSigner('b'.repeat(64)).verify(token)).toBeUndefined();
  });

  it('signs only absolute http and https targets', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com/', 'mailto:a@example.com', '/relative', '//example.com/x', 'not a url']) {
      expect(() => signer.sign({ kind: 'click', orgId: 1, mailingId: 1, url }), url).toThrow(/http or https/);
    }
    expect(() => signer.sign({ kind: 'click', orgId: 1, mailingId: 1, url: `https://example.com/${'x'.repeat(5000)}` })).toThrow();
    expect(() => signer.sign({ kind: 'open', orgId: 0, mailingId: 1 })).toThrow();
    expect(() => signer.sign({ kind: 'open', orgId: 1, mailingId: 1, url: 'https://example.com/' })).toThrow();
    expect(() => createTrackingSigner('short')).toThrow();
  });
});
