// Text from requests: "sent empty is left blank", lengths in characters, and the email shape the contract's fields take.

/** Trims; empty (or only spaces) is blank: null. Not sent stays not sent (undefined). */
export function blank(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v
  const s = v.trim()
  return s === '' ? null : s
}

/**
 * Length in characters (Unicode code points), the unit the contract's "at most N characters" counts:
 * JS `length` counts UTF-16 units, so one emoji would count twice.
 */
export function chars(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

/** Length in characters of a text as it is stored: trimmed, as blank() keeps it. */
export function storedChars(s: string): number {
  return chars(s.trim())
}

/** An email address as Clients and the Business carry it: something@domain.tld, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
