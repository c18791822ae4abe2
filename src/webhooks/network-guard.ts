// Outbound requests go to public addresses only, unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is true (decisions
// §6). The check sits where the address is chosen: the resolver hands the connection only public
// addresses, and the address a socket actually connected to is checked again, so a name that resolves
// one way at registration and another at delivery (DNS rebinding) gains nothing.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64, may reach private IPv4
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, embeds any IPv4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

// Only global unicast IPv6 (2000::/3) is public; everything else (IPv4-compatible ::/96, site-local
// fec0::/10, unassigned space) is refused along with the special ranges above.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx), if it is one. */
function mappedIpv4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an address on the public internet; IPv4-mapped IPv6 is judged by its IPv4 address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  const ipv4 = mappedIpv4(address);
  if (ipv4 !== null) return !NON_PUBLIC.check(ipv4, 'ipv4');
  return GLOBAL_UNICAST.check(address, 'ipv6') && !NON_PUBLIC.check(address, 'ipv6');
}

/**
 * A host refused for where it is. A name is refused without the address it resolved to (decisions §10):
 * the refusal is read by tenants' admins (registration, the Deliveries list), and naming the address
 * would answer their questions about the operator's internal DNS.
 */
export class BlockedAddressError extends Error {
  constructor(host: string) {
    super(isIP(host) ? `${host} is not a public address` : `${host} does not resolve to a public address`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

export const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

/** A `lookup` for sockets that only ever yields public addresses. */
export function publicOnlyLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, []);
      const usable = addresses.filter((entry) => isPublicAddress(entry.address));
      if (usable.length === 0) return callback(Object.assign(new BlockedAddressError(hostname), { code: 'EBLOCKED' }), []);
      if (options.all) return callback(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/**
 * Refuses a URL whose host is, or resolves to, a non-public address. A name that does not resolve is
 * let through: deliveries to it fail and are retried, and the connection-time check still applies.
 */
export async function checkPublicUrl(url: URL, resolve: Resolver = systemResolver): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new BlockedAddressError(host);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((done) => resolve(host, (error, found) => done(error ? [] : found)));
  if (addresses.some((entry) => !isPublicAddress(entry.address))) throw new BlockedAddressError(host);
}
