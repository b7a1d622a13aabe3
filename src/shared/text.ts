// Text from requests: "sent empty is left blank", and the email shape the contract's fields take.

/** Trims; empty (or only spaces) is blank: null. Not sent stays not sent (undefined). */
export function blank(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v
  const s = v.trim()
  return s === '' ? null : s
}

/** An email address as Clients and the Business carry it: something@domain.tld, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
