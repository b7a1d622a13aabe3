// Date and timestamp formats of the contract: dates YYYY-MM-DD, timestamps UTC ISO 8601.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** True for a real calendar day written YYYY-MM-DD. */
export function isDate(value: string): boolean {
  const m = DATE_RE.exec(value)
  if (!m) return false
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!))
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

export function timestamp(at: Date): string {
  return at.toISOString()
}

/** Parses a UTC timestamp the contract accepts (ISO 8601 with a zone); null when it is not one. */
export function parseTimestamp(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? null : d
}
