import { isIP } from 'node:net';

/**
 * Which addresses a connection named by a tenant (a webhook URL, a mailbox's mail servers) may
 * reach. The other end must be on the public internet: anything reachable only from inside our
 * network (private ranges, loopback, link-local and cloud metadata, ...) would let a tenant
 * probe it, so such addresses are 'private'. Ranges follow the IANA special-purpose address
 * registries.
 */
export type AddressClass = 'public' | 'private';

/** A host as a connection sees it: an IP literal, a loopback name, or a name to resolve. */
export type HostLiteral =
  | { readonly kind: 'ip'; readonly address: string; readonly family: 4 | 6 }
  | { readonly kind: 'localhost'; readonly name: string }
  | { readonly kind: 'name'; readonly name: string };

interface Range {
  readonly bytes: Uint8Array;
  readonly bits: number;
}

const PRIVATE_IPV4: readonly Range[] = [
  '0.0.0.0/8', // "this network", including the unspecified 0.0.0.0
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, where cloud metadata services live
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, including broadcast 255.255.255.255
].map(parseRange);

/** Globally reachable exceptions inside 2001::/23, which is otherwise not reachable. */
const PUBLIC_IETF_IPV6: readonly Range[] = [
  '2001:1::1/128', // port control protocol anycast
  '2001:1::2/128', // TURN anycast
  '2001:3::/32', // AMT
  '2001:4:112::/48', // AS112
  '2001:20::/28', // ORCHIDv2
  '2001:30::/28', // drone remote ID
].map(parseRange);

const PRIVATE_IPV6: readonly Range[] = [
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard-only
  '2001::/23', // IETF protocol assignments: benchmarking, ORCHID, ...
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
  '5f00::/16', // segment routing identifiers
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
  'ff00::/8', // multicast
].map(parseRange);

// Everything outside global unicast is reserved, so it is never the other end.
const GLOBAL_UNICAST_IPV6 = parseRange('2000::/3');

const IPV4_MAPPED = parseRange('::ffff:0:0/96');
const IPV4_COMPATIBLE = parseRange('::/96');
const IPV4_TRANSLATED = parseRange('::ffff:0:0:0/96');
const NAT64 = parseRange('64:ff9b::/96');
const SIX_TO_FOUR = parseRange('2002::/16');
const TEREDO = parseRange('2001::/32');

/** Anything that is not an IP address is 'private': the check fails closed. */
export function classifyAddress(ip: string): AddressClass {
  const bytes = addressBytes(ip);
  if (bytes === undefined) return 'private';
  return bytes.length === 4 ? classifyIpv4(bytes) : classifyIpv6(bytes);
}

function classifyIpv4(bytes: Uint8Array): AddressClass {
  return PRIVATE_IPV4.some((range) => inRange(bytes, range)) ? 'private' : 'public';
}

function classifyIpv6(bytes: Uint8Array): AddressClass {
  // Forms that carry an IPv4 address are as private as the address they reach.
  const embedded = embeddedIpv4(bytes);
  if (embedded !== undefined) {
    return embedded.some((ipv4) => classifyIpv4(ipv4) === 'private') ? 'private' : 'public';
  }
  if (PUBLIC_IETF_IPV6.some((range) => inRange(bytes, range))) return 'public';
  if (PRIVATE_IPV6.some((range) => inRange(bytes, range))) return 'private';
  return inRange(bytes, GLOBAL_UNICAST_IPV6) ? 'public' : 'private';
}

function embeddedIpv4(bytes: Uint8Array): Uint8Array[] | undefined {
  const last32 = bytes.subarray(12, 16);
  if ([IPV4_MAPPED, IPV4_COMPATIBLE, IPV4_TRANSLATED, NAT64].some((range) => inRange(bytes, range))) return [last32];
  if (inRange(bytes, SIX_TO_FOUR)) return [bytes.subarray(2, 6)];
  if (inRange(bytes, TEREDO)) {
    // Teredo: the server's address in clear, the client's with every bit inverted.
    const client = last32.map((byte) => byte ^ 0xff);
    return [bytes.subarray(4, 8), client];
  }
  return undefined;
}

/**
 * Reads a URL host the way a connection would. Call it with `url.hostname`: WHATWG URL parsing
 * has already turned `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` into `127.0.0.1`, and
 * `[::ffff:127.0.0.1]` into `[::ffff:7f00:1]`. Any other spelling is put through the same
 * parser first, so `parseHostLiteral('0x7f.1')` is 127.0.0.1 too.
 */
export function parseHostLiteral(host: string): HostLiteral {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 4) return { kind: 'ip', address: bare, family: 4 };
  if (family === 6) return { kind: 'ip', address: canonicalIpv6(bare), family: 6 };
  const hostname = urlHostname(host);
  if (hostname !== host) return parseHostLiteral(hostname);
  // RFC 6761: localhost and every name under it mean this machine, whatever DNS says.
  const withoutRoot = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (withoutRoot === 'localhost' || withoutRoot.endsWith('.localhost')) return { kind: 'localhost', name: hostname };
  return { kind: 'name', name: hostname };
}

function urlHostname(host: string): string {
  let hostname: string;
  try {
    hostname = new URL(`https://${host}/`).hostname;
  } catch {
    throw new TypeError(`not a valid host: "${host}"`);
  }
  if (hostname === '') throw new TypeError(`not a valid host: "${host}"`);
  return hostname;
}

/** WHATWG's serialisation (lower case, longest zero run compressed); a zone is kept as given. */
function canonicalIpv6(address: string): string {
  const zoneAt = address.indexOf('%');
  const zone = zoneAt === -1 ? '' : address.slice(zoneAt);
  const plain = zoneAt === -1 ? address : address.slice(0, zoneAt);
  return new URL(`https://[${plain}]/`).hostname.slice(1, -1) + zone;
}

function addressBytes(ip: string): Uint8Array | undefined {
  const family = isIP(ip);
  if (family === 4) return Uint8Array.from(ip.split('.').map(Number));
  if (family === 6) return ipv6Bytes(ip.split('%')[0] ?? '');
  return undefined;
}

/** Expects text that `isIP` accepted as IPv6 without a zone. */
function ipv6Bytes(text: string): Uint8Array {
  const halves = text.split('::');
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length > 1 ? groupsOf(halves[1] ?? '') : [];
  const zeros = halves.length > 1 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...new Array<number>(zeros).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** Colon-separated hex groups; a dotted IPv4 tail counts as two groups. */
function groupsOf(part: string): number[] {
  if (part === '') return [];
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [parseInt(group, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

function parseRange(cidr: string): Range {
  const [address = '', bits = ''] = cidr.split('/');
  const bytes = addressBytes(address);
  if (bytes === undefined) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits) };
}

function inRange(bytes: Uint8Array, range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  const whole = Math.floor(range.bits / 8);
  for (let index = 0; index < whole; index++) if (bytes[index] !== range.bytes[index]) return false;
  const rest = range.bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] ?? 0) & mask) === ((range.bytes[whole] ?? 0) & mask);
}
