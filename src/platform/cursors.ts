// Paging: {data, next_cursor}, oldest first, with cursors signed so the service knows its own.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { InvalidRequest } from '../shared/errors'

export interface Page<T> {
  data: T[]
  next_cursor: string | null
}

export const DEFAULT_LIMIT = 25
export const MAX_LIMIT = 100

/**
 * A cursor names the last id seen, the list it belongs to and the Business; the HMAC makes a tampered,
 * foreign or other-list cursor recognisable, so it is refused rather than read as page one.
 */
export class Cursors {
  constructor(private readonly secret: string) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22)
  }

  encode(list: string, businessId: number, lastId: number): string {
    const payload = Buffer.from(JSON.stringify([list, businessId, lastId])).toString('base64url')
    return `${payload}.${this.sign(payload)}`
  }

  /** The id after which the page starts (0 for the first page); 422 naming `cursor` when not ours. */
  decode(cursor: string | undefined, list: string, businessId: number): number {
    if (cursor === undefined) return 0
    const bad = () => new InvalidRequest({ cursor: ['is not a cursor this list gave; start again without one'] })
    const [payload, mac, extra] = cursor.split('.')
    if (!payload || !mac || extra !== undefined) throw bad()
    const expected = this.sign(payload)
    if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) throw bad()
    let parsed: unknown
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString())
    } catch {
      throw bad()
    }
    if (!Array.isArray(parsed) || parsed[0] !== list || parsed[1] !== businessId || !Number.isSafeInteger(parsed[2]))
      throw bad()
    return parsed[2] as number
  }
}

/** Reads `limit` from the query string: 1 to 100, default 25; 422 naming `limit` otherwise. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT
  if (!/^[0-9]+$/.test(raw)) throw new InvalidRequest({ limit: [`must be a whole number from 1 to ${MAX_LIMIT}`] })
  const n = Number(raw)
  if (n < 1 || n > MAX_LIMIT) throw new InvalidRequest({ limit: [`must be from 1 to ${MAX_LIMIT}`] })
  return n
}

/** Fetch limit+1 rows; the extra one only says whether another page exists. */
export function toPage<R extends { id: number }, T>(
  rows: R[],
  limit: number,
  present: (r: R) => T,
  cursorFor: (lastId: number) => string,
): Page<T> {
  const more = rows.length > limit
  const shown = more ? rows.slice(0, limit) : rows
  return { data: shown.map(present), next_cursor: more ? cursorFor(shown[shown.length - 1]!.id) : null }
}
