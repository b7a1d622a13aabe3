// SSRF rules for webhook addresses: https on 443, a host name (no IP literal, no user info or fragment), and every
// address the name resolves to on the public internet. Checked at entry and again before every delivery.
import ipaddr from 'ipaddr.js'
import { within } from '../../shared/within'

export type Resolver = (host: string) => Promise<string[]>

export interface GuardOptions {
  /** INVOICING_WEBHOOK_ALLOW_PRIVATE=1: http and private or loopback hosts allowed, for development and tests. */
  allowPrivate: boolean
  resolve: Resolver
}

export class AddressRefused extends Error {}

/** True only for plain public unicast: every special-purpose range (incl. mapped and tunnelled forms) is refused. */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false
  let addr = ipaddr.parse(text)
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6
    // IPv4-mapped (::ffff:a.b.c.d) is judged as the IPv4 address it carries.
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address()
    else {
      // NAT64 (64:ff9b::/96 and the local-use /48), 6to4 and Teredo tunnel to IPv4 hosts we cannot judge: refused.
      const bytes = v6.toByteArray()
      if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return false
      if (v6.range() !== 'unicast') return false
      // Global unicast is 2000::/3; anything else left over is unallocated or reserved.
      return (bytes[0]! & 0xe0) === 0x20
    }
  }
  return addr.range() === 'unicast'
}

/** The URL's own form, without DNS: what can be refused as typed. Returns the parsed URL. */
export function checkUrlForm(raw: string, allowPrivate: boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AddressRefused('must be an absolute https:// address')
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new AddressRefused('must use https://')
  if (url.username || url.password) throw new AddressRefused('must not carry a user name or password')
  if (raw.includes('#')) throw new AddressRefused('must not carry a fragment')
  if (url.protocol === 'https:' && url.port !== '' && url.port !== '443' && !allowPrivate)
    throw new AddressRefused('must use the standard port 443')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (ipaddr.isValid(host) || /^[0-9.]+$/.test(host) || /^0x/i.test(host)) {
    if (!allowPrivate) throw new AddressRefused('must name a host, not an IP address')
  } else if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i.test(host)) {
    throw new AddressRefused('must name a valid host')
  }
  if (raw.length > 2000) throw new AddressRefused('must be at most 2000 characters')
  return url
}

/**
 * A resolver that does not answer in this time refuses the address: a slow DNS server must hold neither a request
 * (at entry) nor an attempt past its claim (at delivery, where ATTEMPT_LIMIT_MS counts it).
 */
export const RESOLVE_TIMEOUT_MS = 10_000

/**
 * Resolves the host and checks every address; returns the one to connect to, so the connection goes to exactly
 * the address that was checked (a name that resolves differently a moment later cannot reach an internal host).
 */
export async function checkAddress(raw: string, o: GuardOptions): Promise<{ url: URL; address: string }> {
  const url = checkUrlForm(raw, o.allowPrivate)
  return { url, address: await checkHost(url.hostname.replace(/^\[|\]$/g, ''), o) }
}

/**
 * The address rules for one host (a webhook's, or a Business's mail server): resolves it and checks every address;
 * returns the one to connect to (an IP literal in its plain form: 2130706433 is 127.0.0.1).
 */
export async function checkHost(host: string, o: GuardOptions): Promise<string> {
  // One answer for a name that does not resolve and one that resolves to an internal address, and no address named:
  // otherwise an Admin could map the service's internal network through this check.
  const refused = () =>
    new AddressRefused(`the host ${host} must resolve, and only to addresses on the public internet`)
  let addresses: string[]
  if (ipaddr.isValid(host)) addresses = [ipaddr.process(host).toString()]
  else {
    try {
      addresses = await within(o.resolve(host), RESOLVE_TIMEOUT_MS, () => {
        throw new Error('resolver timed out')
      })
    } catch {
      throw refused()
    }
  }
  if (addresses.length === 0) throw refused()
  if (!o.allowPrivate && addresses.some((a) => !isPublicAddress(a))) throw refused()
  return addresses[0]!
}

/** The system resolver: every A and AAAA address of the name. */
export const systemResolver: Resolver = async (host) => {
  const { lookup } = await import('node:dns/promises')
  const found = await lookup(host, { all: true, verbatim: true })
  return found.map((f) => f.address)
}
