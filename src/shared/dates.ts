// Date and timestamp formats of the contract: dates YYYY-MM-DD, timestamps UTC ISO 8601.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY_MS = 86_400_000

/** The last day a YYYY-MM-DD date can name. */
export const LAST_DATE = '9999-12-31'

/** True for a real calendar day written YYYY-MM-DD, years 0000 to 9999 included. */
export function isDate(value: string): boolean {
  const m = DATE_RE.exec(value)
  if (!m) return false
  const [y, mo, d] = [+m[1]!, +m[2]! - 1, +m[3]!]
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const at = new Date(0)
  at.setUTCFullYear(y, mo, d)
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo && at.getUTCDate() === d
}

/** The UTC day of `at` as YYYY-MM-DD; throws outside 0000..9999, where toISOString writes a signed 6-digit year. */
export function utcDay(at: Date): string {
  const y = at.getUTCFullYear()
  if (!(y >= 0 && y <= 9999)) throw new RangeError('date outside the years 0000 to 9999')
  return at.toISOString().slice(0, 10)
}

/** The day `days` after a YYYY-MM-DD date; null when it would fall outside 0000..9999 (no such date can be written). */
export function addDays(date: string, days: number): string | null {
  const at = new Date(Date.parse(date) + days * DAY_MS)
  const y = at.getUTCFullYear()
  return y >= 0 && y <= 9999 ? utcDay(at) : null
}

export function timestamp(at: Date): string {
  return at.toISOString()
}

const TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/

/** Parses a UTC timestamp the contract accepts (ISO 8601 with a zone); null when it is not one. */
export function parseTimestamp(value: string): Date | null {
  const m = TIMESTAMP_RE.exec(value)
  // The date part is judged as written: Date would roll 2026-02-30 over into March.
  if (!m || !isDate(m[1]!)) return null
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return null
  // A zone can push the instant out of 0000..9999, where toISOString writes a signed year that sorts wrongly as text.
  const y = d.getUTCFullYear()
  return y >= 0 && y <= 9999 ? d : null
}
