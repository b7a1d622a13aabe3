// Redirect URIs: which may be registered, and when a presented one matches a registered one (exactly; RFC 8252 §7.3
// lets only the port of a loopback http URI vary, since native apps listen on whatever port is free).

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]'])

/** Why a URI cannot be registered, or null: https, or http on a loopback address; absolute, no fragment. */
export function redirectUriFault(raw: string): string | null {
  if (raw.length > 2000) return 'must be at most 2000 characters'
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return 'must be an absolute URI'
  }
  if (u.hash || raw.includes('#')) return 'must not have a fragment'
  if (u.username || u.password) return 'must not carry a user name or password'
  if (u.protocol === 'https:') return null
  // Not `localhost`: a name, which a resolver or hosts file may point off the machine (RFC 8252 §8.3).
  if (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return null
  return 'must be https://, or http:// on a loopback address (127.0.0.1 or [::1])'
}

/** True when `presented` is one of the registered URIs, character for character, or differs only in a loopback port. */
export function redirectUriMatches(presented: string, registered: readonly string[]): boolean {
  if (registered.includes(presented)) return true
  let p: URL
  try {
    p = new URL(presented)
  } catch {
    return false
  }
  if (p.protocol !== 'http:' || !LOOPBACK_HOSTS.has(p.hostname)) return false
  return registered.some((r) => {
    let u: URL
    try {
      u = new URL(r)
    } catch {
      return false
    }
    if (u.protocol !== 'http:' || u.hostname !== p.hostname) return false
    // Everything but the port must be as registered, written the same way.
    return withoutPort(r) === withoutPort(presented)
  })
}

function withoutPort(uri: string): string {
  return uri.replace(/^(http:\/\/(?:127\.0\.0\.1|\[::1\]))(?::\d+)?/, '$1')
}
