import ipaddr from 'ipaddr.js'
import { config } from '@/lib/config'

/**
 * Whether an address is on the public internet. Only ipaddr.js's "unicast" range passes: private (10/8,
 * 172.16/12, 192.168/16), loopback, link-local (169.254/16 with cloud metadata, fe80::/10), unique-local (fc00::/7),
 * carrier-grade NAT, multicast, broadcast, unspecified, reserved and the IPv6 ranges that embed IPv4 addresses
 * (6to4, Teredo, NAT64) are refused. An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as its IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address)
  } catch {
    return false
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  return parsed.range() === 'unicast'
}

// Host names whose private addresses tests may reach while the real check stays on for every other name
let trustedHostsForTests = new Set<string>()

/** Tests only: let these host names (e.g. "localhost") resolve to private addresses. Pass [] to undo. */
export function trustHostsForTests(hosts: string[]): void {
  trustedHostsForTests = new Set(hosts.map(h => h.toLowerCase()))
}

/** Whether `hostname` may be reached at a private address: CRAWLER_ALLOW_PRIVATE_HOSTS=1, or a test's trusted host. */
export function privateAddressesAllowed(hostname: string): boolean {
  return config().CRAWLER_ALLOW_PRIVATE_HOSTS || trustedHostsForTests.has(hostname.toLowerCase().replace(/\.$/, ''))
}
