import { BlockList, isIP } from 'node:net';

/**
 * Addresses an integration may not reach unless private URLs are allowed
 * (UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION, Unleash's setting): loopback, private, link-local
 * (the cloud's instance metadata), shared, documentation, multicast and reserved ranges, so a
 * configured URL cannot make the service call into its own network.
 */
const NOT_PUBLIC = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128], ['::1', 128], ['fe80::', 10], ['fc00::', 7], ['ff00::', 8], ['2001:db8::', 32], ['2002::', 16], ['64:ff9b::', 96], ['::ffff:0:0', 96],
] as const) NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a URL without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}
