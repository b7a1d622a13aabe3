// Which address a request comes from: the connection's peer, or, when that peer is a reverse proxy the service was told
// to trust (INVOICING_TRUSTED_PROXIES), the address the proxy saw, from X-Forwarded-For. The per-IP limits (dynamic
// registration, metadata documents) and the request log key on it: behind a proxy every client would otherwise be
// the proxy, and one abuser would spend a limit for everyone. X-Forwarded-For is never believed from anyone else, so
// a client cannot name its own address.
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** Whether an address is one of the trusted proxies. */
export type TrustedProxies = (address: Address) => boolean

/** An address as the socket or a proxy gives it; an IPv4 address mapped into IPv6 (::ffff:10.0.0.1) counts as IPv4. */
function parseAddress(text: string): Address | null {
  if (!ipaddr.isValid(text)) return null
  const a = ipaddr.parse(text)
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a
}

/** One entry of INVOICING_TRUSTED_PROXIES: an address, or a range in CIDR notation; null when it is neither. */
export function parseProxyRange(text: string): [Address, number] | null {
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text)
    const a = parseAddress(text)
    return a ? [a, a.kind() === 'ipv4' ? 32 : 128] : null
  } catch {
    return null
  }
}

/** The trusted proxies from their configured addresses and ranges (each already checked by the config). */
export function trustedProxies(list: readonly string[]): TrustedProxies {
  const ranges = list.map(parseProxyRange).filter((r): r is [Address, number] => r !== null)
  return (a) => ranges.some(([net, bits]) => a.kind() === net.kind() && a.match(net, bits))
}

/**
 * The client's address. Starting from the peer, each trusted proxy's word is taken for the hop before it
 * (X-Forwarded-For lists hops left to right, each proxy appending the one it saw); the first address no trusted proxy
 * stands behind is the client. An entry that is not an address ends the walk at the last trusted hop.
 */
export function clientAddress(
  peer: string | null,
  forwardedFor: string | null,
  trusted: TrustedProxies,
): string | null {
  if (peer === null) return null
  let current = parseAddress(peer)
  if (!current || forwardedFor === null || !trusted(current)) return current?.toString() ?? peer
  const hops = forwardedFor.split(',')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]!.trim())
    if (!hop) break
    current = hop
    if (!trusted(hop)) break
  }
  return current.toString()
}
