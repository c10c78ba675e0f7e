// Every resolver here is a fake: no test looks up a real name.
import { describe, expect, it } from 'vitest';
import { parseAllowedHosts, resolveDeliveryTarget, systemResolver, type HostResolver } from '../../../runtime/webhooks/delivery/resolve.js';

/** Answers from a script, one entry per call; an Error entry is thrown. */
function scriptedResolver(script: Array<string[] | Error>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (host: string) => {
    calls.push(host);
    const step = script[Math.min(calls.length, script.length) - 1];
    if (step === undefined || step instanceof Error) throw step ?? new Error('empty script');
    return step;
  };
  return Object.assign(resolver, { calls });
}

const notFound = () => Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.test'), { code: 'ENOTFOUND' });
const noAllowed: ReadonlySet<string> = new Set();
const hooksUrl = new URL('https://hooks.example.test/events');

describe('resolveDeliveryTarget with names', () => {
  it('connects to the first address of a public answer', async () => {
    const resolver = scriptedResolver([['8.8.8.8', '1.1.1.1']]);
    expect(await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed })).toEqual({
      kind: 'ok',
      address: '8.8.8.8',
      family: 4,
    });
    expect(resolver.calls).toEqual(['hooks.example.test']);
  });

  it('gives the family of an IPv6 answer', async () => {
    const resolver = scriptedResolver([['2606:4700::1111', '8.8.8.8']]);
    expect(await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed })).toEqual({
      kind: 'ok',
      address: '2606:4700::1111',
      family: 6,
    });
  });

  it.each([[['8.8.8.8', '10.0.0.1']], [['10.0.0.1', '8.8.8.8']], [['2606:4700::1111', '::ffff:127.0.0.1']], [['8.8.8.8', 'fd00::1']]])(
    'counts a mixed answer %j as private',
    async (answer) => {
      const resolver = scriptedResolver([answer]);
      expect(await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed })).toEqual({
        kind: 'private',
        addresses: answer,
      });
    },
  );

  it('does not retry a private answer', async () => {
    const resolver = scriptedResolver([['127.0.0.1'], ['8.8.8.8']]);
    const target = await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed });
    expect(target).toEqual({ kind: 'private', addresses: ['127.0.0.1'] });
    expect(resolver.calls).toHaveLength(1);
  });

  it('is unresolvable after 3 failed lookups', async () => {
    const resolver = scriptedResolver([notFound()]);
    const target = await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed });
    expect(target).toEqual({ kind: 'unresolvable', error: 'getaddrinfo ENOTFOUND hooks.example.test' });
    expect(resolver.calls).toEqual(['hooks.example.test', 'hooks.example.test', 'hooks.example.test']);
  });

  it('takes an answer on the third lookup', async () => {
    const resolver = scriptedResolver([notFound(), notFound(), ['8.8.8.8']]);
    const target = await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed });
    expect(target).toEqual({ kind: 'ok', address: '8.8.8.8', family: 4 });
    expect(resolver.calls).toHaveLength(3);
  });

  it('counts an empty or malformed answer as a failed lookup', async () => {
    const empty = scriptedResolver([[]]);
    expect(await resolveDeliveryTarget(hooksUrl, { resolver: empty, allowedHosts: noAllowed })).toEqual({
      kind: 'unresolvable',
      error: 'no addresses for hooks.example.test',
    });
    expect(empty.calls).toHaveLength(3);
    const malformed = scriptedResolver([['8.8.8.8', 'garbage']]);
    expect(await resolveDeliveryTarget(hooksUrl, { resolver: malformed, allowedHosts: noAllowed })).toMatchObject({
      kind: 'unresolvable',
    });
  });

  it('makes as many lookups as asked', async () => {
    const resolver = scriptedResolver([notFound()]);
    await resolveDeliveryTarget(hooksUrl, { resolver, allowedHosts: noAllowed, attempts: 1 });
    expect(resolver.calls).toHaveLength(1);
  });

  it('passes the root dot on to the resolver', async () => {
    const resolver = scriptedResolver([['8.8.8.8']]);
    await resolveDeliveryTarget(new URL('https://hooks.example.test./'), { resolver, allowedHosts: noAllowed });
    expect(resolver.calls).toEqual(['hooks.example.test.']);
  });
});

describe('resolveDeliveryTarget with literals', () => {
  const neverCalled: HostResolver = async (host) => {
    throw new Error(`resolver called for ${host}`);
  };

  it.each([
    ['https://2130706433/', ['127.0.0.1']],
    ['https://0x7f.1/', ['127.0.0.1']],
    ['https://0/', ['0.0.0.0']],
    ['https://[::ffff:7f00:1]/', ['::ffff:7f00:1']],
    ['https://[fe80::1]/', ['fe80::1']],
    ['https://169.254.169.254/latest/meta-data/', ['169.254.169.254']],
    ['https://localhost./', ['127.0.0.1', '::1']],
    ['https://localhost:8443/', ['127.0.0.1', '::1']],
    ['https://hooks.localhost/', ['127.0.0.1', '::1']],
  ])('refuses %s without resolving it', async (url, addresses) => {
    expect(await resolveDeliveryTarget(new URL(url), { resolver: neverCalled, allowedHosts: noAllowed })).toEqual({
      kind: 'private',
      addresses,
    });
  });

  it.each([
    ['https://8.8.8.8/', { kind: 'ok', address: '8.8.8.8', family: 4 }],
    ['https://[2606:4700::1111]:8443/', { kind: 'ok', address: '2606:4700::1111', family: 6 }],
  ])('connects to public %s without resolving it', async (url, want) => {
    expect(await resolveDeliveryTarget(new URL(url), { resolver: neverCalled, allowedHosts: noAllowed })).toEqual(want);
  });
});

describe('allowed hosts', () => {
  it('exempts an allowed name from the private-address rule, and only that name', async () => {
    const allowedHosts = parseAllowedHosts('hooks.example.test');
    const allowed = scriptedResolver([['10.0.0.7', '8.8.8.8']]);
    expect(await resolveDeliveryTarget(hooksUrl, { resolver: allowed, allowedHosts })).toEqual({
      kind: 'ok',
      address: '10.0.0.7',
      family: 4,
    });
    const other = scriptedResolver([['10.0.0.7']]);
    expect(await resolveDeliveryTarget(new URL('https://other.example.test/'), { resolver: other, allowedHosts })).toEqual({ kind: 'private', addresses: ['10.0.0.7'] });
  });

  it('matches names whatever their case and root dot', async () => {
    const allowedHosts = parseAllowedHosts('Hooks.Example.Test.');
    const resolver = scriptedResolver([['127.0.0.1']]);
    for (const url of ['https://hooks.example.test/', 'https://HOOKS.example.test./']) {
      expect(await resolveDeliveryTarget(new URL(url), { resolver, allowedHosts })).toMatchObject({ kind: 'ok' });
    }
  });

  it('still retries and gives up on an allowed name that does not resolve', async () => {
    const resolver = scriptedResolver([notFound()]);
    const target = await resolveDeliveryTarget(hooksUrl, {
      resolver,
      allowedHosts: parseAllowedHosts('hooks.example.test'),
    });
    expect(target).toMatchObject({ kind: 'unresolvable' });
    expect(resolver.calls).toHaveLength(3);
  });

  it('exempts allowed literal addresses in any spelling', async () => {
    const resolver = scriptedResolver([]);
    const allowedHosts = parseAllowedHosts('10.0.0.5, [FD00:0::1] ,0x7f.1');
    expect(await resolveDeliveryTarget(new URL('https://10.0.0.5:8443/'), { resolver, allowedHosts })).toEqual({
      kind: 'ok',
      address: '10.0.0.5',
      family: 4,
    });
    expect(await resolveDeliveryTarget(new URL('https://[fd00::1]/'), { resolver, allowedHosts })).toEqual({
      kind: 'ok',
      address: 'fd00::1',
      family: 6,
    });
    expect(await resolveDeliveryTarget(new URL('https://2130706433/'), { resolver, allowedHosts })).toEqual({
      kind: 'ok',
      address: '127.0.0.1',
      family: 4,
    });
    expect(await resolveDeliveryTarget(new URL('https://10.0.0.6/'), { resolver, allowedHosts })).toEqual({
      kind: 'private',
      addresses: ['10.0.0.6'],
    });
    expect(resolver.calls).toEqual([]);
  });

  it('resolves localhost like any name once it is allowed', async () => {
    const resolver = scriptedResolver([['127.0.0.1']]);
    const target = await resolveDeliveryTarget(new URL('https://localhost/'), {
      resolver,
      allowedHosts: parseAllowedHosts('localhost'),
    });
    expect(target).toEqual({ kind: 'ok', address: '127.0.0.1', family: 4 });
    expect(resolver.calls).toEqual(['localhost']);
  });

  it('reads WEBHOOK_ALLOWED_HOSTS into canonical entries', () => {
    expect([...parseAllowedHosts(' Hooks.Example.Test. ,10.0.0.5,,[::1], 0:0::0:1 ,2130706433')]).toEqual(['hooks.example.test', '10.0.0.5', '::1', '127.0.0.1']);
    expect(parseAllowedHosts(undefined).size).toBe(0);
    expect(parseAllowedHosts('').size).toBe(0);
    expect(() => parseAllowedHosts('hooks.example.test,not a host')).toThrow(/WEBHOOK_ALLOWED_HOSTS: "not a host"/);
  });
});

describe('systemResolver', () => {
  // An address resolves to itself without any DNS query, so this stays off the network.
  it('answers addresses as the system does', async () => {
    expect(await systemResolver('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await systemResolver('::1')).toEqual(['::1']);
  });
});
