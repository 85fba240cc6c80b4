/**
 * What kind of place a host name points at, for deciding where the service may post webhooks: the
 * open internet, or somewhere only reachable from inside a network — this computer, a private or
 * link-local network, a cloud's metadata service (where servers read their own credentials).
 *
 * Input is a host as the WHATWG URL parser writes it (`new URL(text).hostname`), which has already
 * turned every spelling of an IPv4 address into dotted decimal (`2852039166`, `0xa9fea9fe`,
 * `0251.0376.0251.0376`, `0xa9.0xfe.0xa9.0xfe`, `169.254.43518`, full-width digits, a trailing dot
 * all become `169.254.169.254`), lowercased names, and written IPv6 in brackets in its shortest
 * form (`[::ffff:169.254.169.254]` becomes `[::ffff:a9fe:a9fe]`). The classifier still reads any
 * valid IPv6 text, and IPv4 only in dotted decimal: whatever else it is given is a name.
 *
 * No DNS is asked here (shared code runs in the window too): the backend resolves a name and
 * judges each address it resolves to with `classifyAddress`, the same rules.
 */

export type HostKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'uniqueLocal'
  | 'unspecified'
  | 'metadata'
  | 'multicast'
  | 'reserved'
  | 'localName';

export interface HostClass {
  kind: HostKind;
  /** Why it is not a place on the open internet, as the end of a sentence; empty for `public`. */
  why: string;
}

const PUBLIC: HostClass = { kind: 'public', why: '' };

/** Cloud metadata services: where a server reads its own credentials. Never a webhook receiver. */
const METADATA_IPV4 = new Map<string, string>([
  ['169.254.169.254', 'the cloud metadata address (AWS, Google Cloud, Azure, Oracle and others)'],
  ['168.63.129.16', 'the Azure host address servers read their settings from'],
  ['100.100.100.200', 'the Alibaba Cloud metadata address'],
]);
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);

/** `[first, prefix length, kind, why]`, the first match wins (most specific first). */
const IPV4_RANGES: ReadonlyArray<readonly [string, number, HostKind, string]> = [
  ['0.0.0.0', 8, 'unspecified', 'an unspecified address (0.0.0.0 stands for "this computer")'],
  ['127.0.0.0', 8, 'loopback', 'this computer (a loopback address)'],
  ['10.0.0.0', 8, 'private', 'a private network address (10.0.0.0/8)'],
  ['172.16.0.0', 12, 'private', 'a private network address (172.16.0.0/12)'],
  ['192.168.0.0', 16, 'private', 'a private network address (192.168.0.0/16)'],
  ['100.64.0.0', 10, 'private', 'a carrier-grade NAT address (100.64.0.0/10), shared inside a provider'],
  [
    '169.254.0.0',
    16,
    'linkLocal',
    'a link-local address (169.254.0.0/16), reachable only on its own network',
  ],
  ['192.0.0.0', 24, 'reserved', 'an address reserved for protocol use (192.0.0.0/24)'],
  ['192.0.2.0', 24, 'reserved', 'an address reserved for documentation (192.0.2.0/24)'],
  ['198.51.100.0', 24, 'reserved', 'an address reserved for documentation (198.51.100.0/24)'],
  ['203.0.113.0', 24, 'reserved', 'an address reserved for documentation (203.0.113.0/24)'],
  ['198.18.0.0', 15, 'reserved', 'an address reserved for network tests (198.18.0.0/15)'],
  ['224.0.0.0', 4, 'multicast', 'a multicast address, not one receiver'],
  ['240.0.0.0', 4, 'reserved', 'a reserved address (240.0.0.0/4, with the broadcast address)'],
];

/** The four bytes of a dotted-decimal IPv4 address, or null. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

const ipv4Number = (bytes: readonly number[]): number =>
  ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;

function inIpv4Range(address: number, first: string, prefix: number): boolean {
  const base = ipv4Number(parseIpv4(first)!);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (address & mask) >>> 0 === (base & mask) >>> 0;
}

export function classifyIpv4(bytes: readonly number[]): HostClass {
  const dotted = bytes.join('.');
  const metadata = METADATA_IPV4.get(dotted);
  if (metadata !== undefined) return { kind: 'metadata', why: metadata };
  const address = ipv4Number(bytes);
  for (const [first, prefix, kind, why] of IPV4_RANGES) {
    if (inIpv4Range(address, first, prefix)) return { kind, why };
  }
  return PUBLIC;
}

/** The eight 16-bit groups of an IPv6 address (brackets, a zone or a dotted IPv4 tail allowed), or null. */
export function parseIpv6(text: string): number[] | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  if (body === '' || /[^0-9a-fA-F:.]/.test(body)) return null;
  // A dotted IPv4 tail stands for the last two groups: written as them, then read as the rest.
  const lastColon = body.lastIndexOf(':');
  const tail = body.slice(lastColon + 1);
  if (tail.includes('.')) {
    const ipv4 = parseIpv4(tail);
    if (ipv4 === null || lastColon < 0) return null;
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    body = `${body.slice(0, lastColon + 1)}${hex(ipv4[0]!, ipv4[1]!)}:${hex(ipv4[2]!, ipv4[3]!)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (groups.some((group) => !/^[0-9a-fA-F]{1,4}$/.test(group))) return null;
    return groups.map((group) => parseInt(group, 16));
  };
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === null || rest === null) return null;
  const given = head.length + rest.length;
  if (halves.length === 2)
    return given > 7 ? null : [...head, ...new Array<number>(8 - given).fill(0), ...rest];
  return given === 8 ? head : null;
}

const embeddedIpv4 = (high: number, low: number): number[] => [high >> 8, high & 0xff, low >> 8, low & 0xff];

/** An IPv4 address carried inside an IPv6 one, classified as itself, saying how it was written. */
function viaIpv4(bytes: number[], form: string): HostClass {
  const inner = classifyIpv4(bytes);
  return inner.kind === 'public'
    ? PUBLIC
    : { kind: inner.kind, why: `${inner.why}, written as ${form} IPv6 (${bytes.join('.')})` };
}

export function classifyIpv6(groups: readonly number[]): HostClass {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zerosBefore = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zerosBefore(8))
    return { kind: 'unspecified', why: 'the unspecified address (:: stands for "this computer")' };
  if (zerosBefore(7) && g7 === 1)
    return { kind: 'loopback', why: 'this computer (the IPv6 loopback address ::1)' };
  if (zerosBefore(5) && g5 === 0xffff) return viaIpv4(embeddedIpv4(g6, g7), 'an IPv4-mapped');
  // ::ffff:0:a.b.c.d (RFC 2765's IPv4-translated form): SIIT translators reach the IPv4 address.
  if (zerosBefore(4) && g4 === 0xffff && g5 === 0) return viaIpv4(embeddedIpv4(g6, g7), 'an IPv4-translated');
  if (zerosBefore(6)) {
    return {
      kind: 'reserved',
      why: `an obsolete IPv4-compatible IPv6 address (${embeddedIpv4(g6, g7).join('.')})`,
    };
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return viaIpv4(embeddedIpv4(g6, g7), 'a NAT64');
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1)
    return { kind: 'private', why: 'a local-use NAT64 address (64:ff9b:1::/48)' };
  if (g0 === 0x2002) return viaIpv4(embeddedIpv4(g1, g2), 'a 6to4');
  // Teredo (2001::/32) carries its client's IPv4 address inverted in the last groups: whatever it
  // hides, a tunnel endpoint is no webhook receiver.
  if (g0 === 0x2001 && g1 === 0)
    return {
      kind: 'reserved',
      why: 'a Teredo tunnel address (2001::/32), with an IPv4 address hidden inside',
    };
  if (g0 === 0xfd00 && g1 === 0x0ec2 && [g2, g3, g4, g5, g6].every((group) => group === 0) && g7 === 0x254)
    return { kind: 'metadata', why: 'the AWS metadata address (fd00:ec2::254)' };
  if ((g0 & 0xffc0) === 0xfe80)
    return {
      kind: 'linkLocal',
      why: 'a link-local IPv6 address (fe80::/10), reachable only on its own network',
    };
  if ((g0 & 0xffc0) === 0xfec0) return { kind: 'private', why: 'a site-local IPv6 address (fec0::/10)' };
  if ((g0 & 0xfe00) === 0xfc00)
    return { kind: 'uniqueLocal', why: 'a unique local IPv6 address (fc00::/7), private to its network' };
  if ((g0 & 0xff00) === 0xff00)
    return { kind: 'multicast', why: 'a multicast IPv6 address, not one receiver' };
  if (g0 === 0x2001 && g1 === 0x0db8)
    return { kind: 'reserved', why: 'an IPv6 address reserved for documentation (2001:db8::/32)' };
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0)
    return { kind: 'reserved', why: 'an IPv6 discard address (100::/64)' };
  return PUBLIC;
}

/** Suffixes of names that exist only inside a network (RFC 6761, 6762, 8375; ICANN's `.internal`). */
const LOCAL_SUFFIXES: ReadonlyArray<readonly [string, HostKind, string]> = [
  ['localhost', 'loopback', 'this computer (a localhost name)'],
  ['internal', 'localName', 'a name that exists only inside a private network (.internal)'],
  ['local', 'localName', 'a name of the local network (.local)'],
  ['home.arpa', 'localName', 'a name of a home network (.home.arpa)'],
];

function classifyName(hostname: string): HostClass {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return { kind: 'metadata', why: 'a cloud metadata service name' };
  for (const [suffix, kind, why] of LOCAL_SUFFIXES) {
    if (name === suffix || name.endsWith(`.${suffix}`)) return { kind, why };
  }
  if (!name.includes('.'))
    return { kind: 'localName', why: 'a name without a domain, which only the local network can look up' };
  return PUBLIC;
}

/** The kind of place `hostname` (as `new URL(…).hostname` gives it) points at. */
export function classifyHost(hostname: string): HostClass {
  if (hostname.startsWith('[')) {
    const groups = parseIpv6(hostname);
    return groups === null ? { kind: 'reserved', why: 'not a valid IPv6 address' } : classifyIpv6(groups);
  }
  const ipv4 = parseIpv4(hostname.replace(/\.$/, ''));
  return ipv4 === null ? classifyName(hostname) : classifyIpv4(ipv4);
}

/**
 * The kind of place an IP address as a resolver gives it (`dns.lookup`: dotted IPv4, IPv6 without
 * brackets, perhaps with a zone) points at, by the same rules as a literal in a URL.
 */
export function classifyAddress(address: string): HostClass {
  const ipv4 = parseIpv4(address);
  if (ipv4 !== null) return classifyIpv4(ipv4);
  const groups = parseIpv6(address);
  return groups === null ? { kind: 'reserved', why: 'not a valid IP address' } : classifyIpv6(groups);
}
