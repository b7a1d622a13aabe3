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

// The one email check of the service: every field that holds an address a message may go to (a Client's, the
// Business's, a mailbox's From, a Send's To, Cc and Bcc) is judged by isEmailAddress. An address is handed to SMTP
// as an envelope recipient, so anything that is syntax there (<, >, comma, colon, semicolon, quotes, brackets,
// spaces) is refused: `x<other@evil.example>` or `a@b.c,d:e;` would name another recipient than the one shown.
/**
 * The local part: dot-separated runs of RFC 5322's atext, which is every printable character but its specials
 * (()<>[]:;@\\,." and space); beyond ASCII any letter, mark or sign (RFC 6531), never a space or control.
 */
const LOCAL = /^[^\s\p{C}"(),.:;<>@[\\\]]+(\.[^\s\p{C}"(),.:;<>@[\\\]]+)*$/u
/** A host name label: letters and digits, hyphens inside (Unicode letters allowed: an IDN). */
const LABEL = /^[\p{L}\p{N}]([\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u

/**
 * An email address as Clients, the Business and Sends carry it: local@domain.tld, nothing SMTP would read as
 * syntax. Its length is the field's own limit (255).
 */
export function isEmailAddress(s: string): boolean {
  const at = s.lastIndexOf('@')
  if (at <= 0) return false
  const labels = s.slice(at + 1).split('.')
  if (!LOCAL.test(s.slice(0, at))) return false
  if (labels.length < 2 || labels.some((l) => l.length > 63 || !LABEL.test(l))) return false
  // The top-level domain is a name, never all digits (1.2.3.4 is no mail domain here).
  return !/^\d+$/.test(labels.at(-1)!)
}
