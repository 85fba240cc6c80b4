/**
 * Where a webhook may point, for every spelling of an address: each goes through the WHATWG URL
 * parser first, as the form and the backend do (it writes decimal, hex, octal, short and full-width
 * IPv4 as dotted decimal and IPv6 in its shortest form), then through the classifier; the parser of
 * IPv6 text is also checked on its own for forms the URL parser never gives.
 */
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  classifyHost,
  parseIpv4,
  parseIpv6,
  type HostKind,
} from '../../../src/shared/network-address';
import { resolvedAddressProblem, webhookUrlProblem } from '../../../src/shared/webhooks';

const hostOf = (text: string) => new URL(text).hostname;
const kindOf = (text: string): HostKind => classifyHost(hostOf(text)).kind;

/** Every spelling of 169.254.169.254 a person (or an attacker) can type. */
const METADATA_SPELLINGS = [
  'https://169.254.169.254/latest/meta-data/',
  'https://2852039166/',
  'https://0xa9fea9fe/',
  'https://0XA9FEA9FE/',
  'https://0251.0376.0251.0376/',
  'https://025177524776/',
  'https://0xa9.0xfe.0xa9.0xfe/',
  'https://0xa9.254.0251.0xfe/',
  'https://169.254.43518/',
  'https://169.16689662/',
  'https://0xa9.16689662/',
  'https://169.254.169.254./',
  'https://１６９.２５４.１６９.２５４/',
  'https://%31%36%39.254.169.254/',
  'https://[::ffff:169.254.169.254]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  'https://[0000:0000:0000:0000:0000:FFFF:A9FE:A9FE]/',
  'https://[::ffff:0:169.254.169.254]/',
  'https://[::ffff:0:a9fe:a9fe]/',
  'https://[64:ff9b::169.254.169.254]/',
  'https://[2002:a9fe:a9fe::1]/',
  'https://[fd00:ec2::254]/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://METADATA.GOOGLE.INTERNAL./',
  'https://metadata/',
  'https://metadata.goog/',
  'https://168.63.129.16/',
  'https://100.100.100.200/',
];

const REFUSED: Array<[string, HostKind]> = [
  ['https://10.0.0.1/', 'private'],
  ['https://10.255.255.255/', 'private'],
  ['https://167772161/', 'private'],
  ['https://012.0.0.1/', 'private'],
  ['https://172.16.0.1/', 'private'],
  ['https://172.31.255.254/', 'private'],
  ['https://192.168.1.10/', 'private'],
  ['https://0xc0a80101/', 'private'],
  ['https://100.64.0.1/', 'private'],
  ['https://[::ffff:10.0.0.1]/', 'private'],
  ['https://[::ffff:c0a8:101]/', 'private'],
  ['https://169.254.0.1/', 'linkLocal'],
  ['https://[fe80::1]/', 'linkLocal'],
  ['https://[febf:ffff::1]/', 'linkLocal'],
  ['https://[fec0::1]/', 'private'],
  ['https://[fc00::1]/', 'uniqueLocal'],
  ['https://[fd12:3456:789a::1]/', 'uniqueLocal'],
  ['https://[64:ff9b:1::a]/', 'private'],
  ['https://127.0.0.1/', 'loopback'],
  ['https://127.1/', 'loopback'],
  ['https://2130706433/', 'loopback'],
  ['https://0x7f.1/', 'loopback'],
  ['https://[::1]/', 'loopback'],
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['https://[::ffff:127.0.0.1]/', 'loopback'],
  ['https://localhost/', 'loopback'],
  ['https://LocalHost./', 'loopback'],
  ['https://receiver.localhost/', 'loopback'],
  ['https://0.0.0.0/', 'unspecified'],
  ['https://0/', 'unspecified'],
  ['https://0.1.2.3/', 'unspecified'],
  ['https://[::]/', 'unspecified'],
  ['https://[::ffff:0.0.0.0]/', 'unspecified'],
  ['https://[::a9fe:a9fe]/', 'reserved'],
  ['https://224.0.0.1/', 'multicast'],
  ['https://[ff02::1]/', 'multicast'],
  ['https://255.255.255.255/', 'reserved'],
  ['https://192.0.2.10/', 'reserved'],
  ['https://[2001:db8::1]/', 'reserved'],
  ['https://[2001:0:4136:e378:8000:63bf:5601:5601]/', 'reserved'],
  ['https://[::ffff:0:10.0.0.1]/', 'private'],
  ['https://build.internal/', 'localName'],
  ['https://printer.local/', 'localName'],
  ['https://nas.home.arpa/', 'localName'],
  ['https://intranet/', 'localName'],
];

const ACCEPTED = [
  'https://receiver.example.com/fielddesk',
  'https://hooks.example.co.uk:8443/in?x=1',
  'https://8.8.8.8/',
  'https://134744072/',
  'https://1.1.1.1/',
  'https://172.32.0.1/',
  'https://100.128.0.1/',
  'https://169.255.0.1/',
  'https://[2606:4700:4700::1111]/',
  'https://[::ffff:8.8.8.8]/',
  'https://[64:ff9b::808:808]/',
  'https://[2002:808:808::1]/',
  'https://xn--bcher-kva.example/',
  'https://metadata.example.com/',
  'https://internal.example.com/',
];

describe('every spelling of the metadata address', () => {
  it.each(METADATA_SPELLINGS)('%s is the metadata service', (text) => {
    expect(kindOf(text)).toBe('metadata');
    expect(webhookUrlProblem(text, { loopback: true })).toMatch(
      /where servers read their own credentials: FieldDesk never points a webhook there\.$/,
    );
  });

  it('says which address a spelling is, as the URL parser wrote it', () => {
    expect(webhookUrlProblem('https://2852039166/', { loopback: false })).toBe(
      '169.254.169.254 is the cloud metadata address (AWS, Google Cloud, Azure, Oracle and others), where servers read their own credentials: FieldDesk never points a webhook there.',
    );
    expect(webhookUrlProblem('https://[::ffff:169.254.169.254]/', { loopback: false })).toBe(
      '[::ffff:a9fe:a9fe] is the cloud metadata address (AWS, Google Cloud, Azure, Oracle and others), written as an IPv4-mapped IPv6 (169.254.169.254), where servers read their own credentials: FieldDesk never points a webhook there.',
    );
  });
});

describe('addresses only reachable inside a network', () => {
  it.each(REFUSED)('%s is %s', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
    const problem = webhookUrlProblem(text, { loopback: false });
    expect(problem).not.toBeNull();
    expect(problem).toContain(hostOf(text));
  });

  it('says why in words a person can act on', () => {
    expect(webhookUrlProblem('https://10.0.0.1/hook', { loopback: false })).toBe(
      '10.0.0.1 is a private network address (10.0.0.0/8): the service sends from the internet and cannot reach it. Give the receiver’s public https address.',
    );
    expect(webhookUrlProblem('https://[fd12::1]/', { loopback: false })).toBe(
      '[fd12::1] is a unique local IPv6 address (fc00::/7), private to its network: the service sends from the internet and cannot reach it. Give the receiver’s public https address.',
    );
    expect(webhookUrlProblem('https://[::ffff:192.168.0.5]/', { loopback: false })).toBe(
      '[::ffff:c0a8:5] is a private network address (192.168.0.0/16), written as an IPv4-mapped IPv6 (192.168.0.5): the service sends from the internet and cannot reach it. Give the receiver’s public https address.',
    );
  });

  it('refuses this computer unless the service delivers there, and then allows plain http to it only', () => {
    for (const text of ['http://127.0.0.1:8080/hook', 'https://localhost/hook', 'http://[::1]:9/h']) {
      expect(webhookUrlProblem(text, { loopback: true })).toBeNull();
      expect(webhookUrlProblem(text, { loopback: false })).toMatch(
        /is this computer .*: the service cannot deliver messages to your computer\. Only FieldDesk’s demo service can/,
      );
    }
    expect(webhookUrlProblem('http://receiver.example.com/', { loopback: true })).toBe(
      'The address must start with https:// (plain http only for a receiver on this computer).',
    );
    expect(webhookUrlProblem('http://receiver.example.com/', { loopback: false })).toBe(
      'The address must start with https://.',
    );
    // A private address is refused even by a demo that takes receivers on this computer.
    expect(webhookUrlProblem('http://10.0.0.1/', { loopback: true })).toMatch(/private network address/);
  });
});

describe('addresses on the open internet', () => {
  it.each(ACCEPTED)('%s is accepted', (text) => {
    expect(kindOf(text)).toBe('public');
    expect(webhookUrlProblem(text, { loopback: false })).toBeNull();
  });

  it('still refuses what is not an https address, or carries a password', () => {
    expect(webhookUrlProblem('receiver.example.com', { loopback: false })).toBe(
      'Enter the whole address, starting with https://',
    );
    expect(webhookUrlProblem('ftp://receiver.example.com/', { loopback: false })).toBe(
      'The address must start with https://.',
    );
    expect(webhookUrlProblem('https://user:pw@receiver.example.com/', { loopback: false })).toBe(
      'Leave the user name and password out of the address.',
    );
  });
});

describe('addresses a name resolves to', () => {
  it('are judged as the same address written in a URL: every literal above, without brackets', () => {
    const literals = [...METADATA_SPELLINGS, ...REFUSED.map(([text]) => text), ...ACCEPTED]
      .map(hostOf)
      .filter((host) => host.startsWith('[') || parseIpv4(host.replace(/\.$/, '')) !== null);
    expect(literals.length).toBeGreaterThan(40);
    for (const host of literals)
      expect(classifyAddress(host.replace(/^\[|\]$/g, '').replace(/\.$/, '')), host).toEqual(
        classifyHost(host),
      );
    // As resolvers write them: IPv4-mapped in dotted form, a zone on a link-local address.
    expect(classifyAddress('::ffff:169.254.169.254').kind).toBe('metadata');
    expect(classifyAddress('fe80::1%eth0').kind).toBe('linkLocal');
    expect(classifyAddress('not an address').kind).toBe('reserved');
  });

  it('refuse the name when any address is not on the open internet, saying which', () => {
    expect(
      resolvedAddressProblem('hooks.example.com', ['93.184.215.14', '2606:4700::1'], { loopback: false }),
    ).toBeNull();
    expect(
      resolvedAddressProblem('hooks.example.com', ['93.184.215.14', '169.254.169.254'], { loopback: true }),
    ).toBe(
      'hooks.example.com resolves to 169.254.169.254, which is the cloud metadata address (AWS, Google Cloud, Azure, Oracle and others), where servers read their own credentials: FieldDesk never points a webhook there.',
    );
    expect(resolvedAddressProblem('me.example.com', ['127.0.0.1', '::1'], { loopback: false })).toMatch(
      /^me\.example\.com resolves to 127\.0\.0\.1, which is this computer/,
    );
    expect(resolvedAddressProblem('me.example.com', ['127.0.0.1', '::1'], { loopback: true })).toBeNull();
  });
});

describe('the address parsers', () => {
  it('reads IPv6 text in every legal form, and refuses what is not', () => {
    expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('[::1]')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1:2:3::6:7:8')).toEqual([1, 2, 3, 0, 0, 6, 7, 8]);
    expect(parseIpv6('::ffff:169.254.169.254')).toEqual([0, 0, 0, 0, 0, 0xffff, 0xa9fe, 0xa9fe]);
    expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(parseIpv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    for (const bad of [
      '',
      ':',
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '12345::',
      'g::1',
      '::1.2.3',
      '::256.1.1.1',
      '1.2.3.4',
    ])
      expect(parseIpv6(bad), bad).toBeNull();
  });

  it('reads only dotted-decimal IPv4 (the URL parser has already rewritten the other spellings)', () => {
    expect(parseIpv4('169.254.169.254')).toEqual([169, 254, 169, 254]);
    for (const other of [
      '2852039166',
      '0xa9fea9fe',
      '010.0.0.1',
      '1.2.3',
      '1.2.3.4.5',
      '256.0.0.1',
      '1.2.3.-1',
    ])
      expect(parseIpv4(other), other).toBeNull();
  });
});
