import { describe, expect, it } from 'vitest';
import { classifyAddress, parseHostLiteral } from '../../../runtime/outbound/addresses.js';

describe('classifyAddress', () => {
  const cases: Array<[address: string, want: 'public' | 'private', why: string]> = [
    ['10.0.0.1', 'private', 'RFC 1918'],
    ['172.16.0.1', 'private', 'RFC 1918'],
    ['172.31.255.255', 'private', 'last of 172.16/12'],
    ['172.32.0.0', 'public', 'just past 172.16/12'],
    ['192.168.1.1', 'private', 'RFC 1918'],
    ['127.0.0.1', 'private', 'loopback'],
    ['127.255.255.254', 'private', 'loopback /8'],
    ['169.254.169.254', 'private', 'link-local cloud metadata'],
    ['100.64.0.1', 'private', 'carrier-grade NAT'],
    ['100.127.255.255', 'private', 'last of 100.64/10'],
    ['100.128.0.0', 'public', 'just past 100.64/10'],
    ['0.0.0.0', 'private', 'unspecified'],
    ['0.1.2.3', 'private', 'this network'],
    ['224.0.0.1', 'private', 'multicast'],
    ['255.255.255.255', 'private', 'broadcast'],
    ['240.0.0.1', 'private', 'reserved'],
    ['198.18.0.1', 'private', 'benchmarking'],
    ['198.19.255.255', 'private', 'last of 198.18/15'],
    ['198.20.0.0', 'public', 'just past 198.18/15'],
    ['192.0.0.8', 'private', 'IETF protocol assignments'],
    ['192.0.2.1', 'private', 'documentation'],
    ['198.51.100.7', 'private', 'documentation'],
    ['203.0.113.9', 'private', 'documentation'],
    ['192.88.99.1', 'private', '6to4 relay anycast'],
    ['9.255.255.255', 'public', 'just before 10/8'],
    ['11.0.0.0', 'public', 'just past 10/8'],
    ['8.8.8.8', 'public', 'public resolver'],
    ['1.1.1.1', 'public', 'public resolver'],
    ['::1', 'private', 'IPv6 loopback'],
    ['::', 'private', 'IPv6 unspecified'],
    ['fe80::1', 'private', 'link-local'],
    ['fe80::1%eth0', 'private', 'link-local with a zone'],
    ['febf:ffff::1', 'private', 'last of fe80::/10'],
    ['fec0::1', 'private', 'site-local'],
    ['fc00::1', 'private', 'unique local'],
    ['fd12::1', 'private', 'unique local'],
    ['ff02::1', 'private', 'multicast'],
    ['100::1', 'private', 'discard-only'],
    ['2001:db8::1', 'private', 'documentation'],
    ['3fff::1', 'private', 'documentation'],
    ['2001:2::1', 'private', 'benchmarking'],
    ['2001:10::1', 'private', 'deprecated ORCHID'],
    ['2001:4:112::1', 'public', 'AS112, globally reachable'],
    ['64:ff9b:1::1', 'private', 'local-use NAT64'],
    ['4000::1', 'private', 'outside global unicast'],
    ['::ffff:127.0.0.1', 'private', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'private', 'IPv4-mapped loopback in hex'],
    ['0:0:0:0:0:FFFF:7F00:1', 'private', 'IPv4-mapped, uncompressed upper case'],
    ['::ffff:10.0.0.1', 'private', 'IPv4-mapped RFC 1918'],
    ['::ffff:8.8.8.8', 'public', 'IPv4-mapped public'],
    ['::7f00:1', 'private', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'public', 'IPv4-compatible public'],
    ['::ffff:0:a9fe:a9fe', 'private', 'IPv4-translated link-local'],
    ['64:ff9b::7f00:1', 'private', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'private', 'NAT64 of 10.0.0.1'],
    ['64:ff9b::808:808', 'public', 'NAT64 of 8.8.8.8'],
    ['2002:7f00:1::', 'private', '6to4 of loopback'],
    ['2002:a9fe:a9fe::1', 'private', '6to4 of link-local'],
    ['2002:808:808::1', 'public', '6to4 of 8.8.8.8'],
    ['2002:808:a00:1::', 'public', '6to4 of 8.8.10.0, with subnet bits that read as 10.0.0.1'],
    ['2001:0:808:808::80ff:fffe', 'private', 'Teredo client 127.0.0.1 (inverted bits)'],
    ['2001:0:a00:1::f7f7:f7f7', 'private', 'Teredo server 10.0.0.1'],
    ['2001:0:808:808::f7f7:f7f7', 'public', 'Teredo, server and client 8.8.8.8'],
    ['2606:4700::1111', 'public', 'public IPv6'],
    ['2001:4860:4860::8888', 'public', 'public IPv6'],
    ['not an address', 'private', 'fails closed'],
    ['', 'private', 'fails closed'],
    ['127.1', 'private', 'not canonical, so not an address: fails closed'],
  ];

  it.each(cases)('%s is %s (%s)', (address, want) => {
    expect(classifyAddress(address)).toBe(want);
  });
});

describe('URL host spellings', () => {
  // WHATWG URL parsing, not our code, turns these into canonical addresses; parseHostLiteral
  // relies on that, so it is asserted here.
  const spellings: Array<[url: string, hostname: string, literal: ReturnType<typeof parseHostLiteral>]> = [
    ['https://2130706433/', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://0x7f.1/', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://0177.0.0.1/', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://127.1/', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://127.0.0.1./', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://%31%32%37.0.0.1/', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://\uff11\uff12\uff17.0.0.1/', '127.0.0.1', { kind: 'ip', address: '127.0.0.1', family: 4 }],
    ['https://0/', '0.0.0.0', { kind: 'ip', address: '0.0.0.0', family: 4 }],
    ['https://[::ffff:7f00:1]/', '[::ffff:7f00:1]', { kind: 'ip', address: '::ffff:7f00:1', family: 6 }],
    ['https://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', { kind: 'ip', address: '::ffff:7f00:1', family: 6 }],
    ['https://[0:0:0:0:0:0:0:1]/', '[::1]', { kind: 'ip', address: '::1', family: 6 }],
    ['https://localhost./', 'localhost.', { kind: 'localhost', name: 'localhost.' }],
    ['https://LOCALHOST/', 'localhost', { kind: 'localhost', name: 'localhost' }],
    ['https://%6c%6fcalhost/', 'localhost', { kind: 'localhost', name: 'localhost' }],
    ['https://hooks.localhost/', 'hooks.localhost', { kind: 'localhost', name: 'hooks.localhost' }],
    ['https://Hooks.Example.Test/', 'hooks.example.test', { kind: 'name', name: 'hooks.example.test' }],
    ['https://localhost.example.test/', 'localhost.example.test', { kind: 'name', name: 'localhost.example.test' }],
  ];

  it.each(spellings)('%s has host %s', (url, hostname, literal) => {
    const parsed = new URL(url);
    expect(parsed.hostname).toBe(hostname);
    expect(parseHostLiteral(parsed.hostname)).toEqual(literal);
  });

  it('classifies every address spelling as private', () => {
    for (const [url] of spellings.filter(([, , literal]) => literal.kind === 'ip')) {
      const literal = parseHostLiteral(new URL(url).hostname);
      expect(literal.kind === 'ip' && classifyAddress(literal.address), url).toBe('private');
    }
  });

  it('reads spellings that did not come through URL parsing the way URL parsing would', () => {
    expect(parseHostLiteral('0x7f.1')).toEqual({ kind: 'ip', address: '127.0.0.1', family: 4 });
    expect(parseHostLiteral('2130706433')).toEqual({ kind: 'ip', address: '127.0.0.1', family: 4 });
    expect(parseHostLiteral('::FFFF:127.0.0.1')).toEqual({ kind: 'ip', address: '::ffff:7f00:1', family: 6 });
    expect(parseHostLiteral('fe80::1%eth0')).toEqual({ kind: 'ip', address: 'fe80::1%eth0', family: 6 });
    expect(parseHostLiteral('LocalHost.')).toEqual({ kind: 'localhost', name: 'localhost.' });
  });

  it('refuses what is not a host', () => {
    expect(() => parseHostLiteral('a b')).toThrow(TypeError);
    expect(() => parseHostLiteral('')).toThrow(TypeError);
  });
});
