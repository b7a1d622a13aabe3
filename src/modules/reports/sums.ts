// Exact money sums in SQL for the reports: minor units summed as 64-bit integers, never read as JS numbers.
import { sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { hotAll } from '../../db/hot-shape'
import { Dec, format, fromMinor, type Decimal } from '../../shared/money'

/**
 * Sums an integer expression of minor units, written as text. `split` sums the high and low parts apart
 * (v / 10^9 and v % 10^9, which add back exactly): SQLite's sum() stops with "integer overflow" past 2^63,
 * which ten documents at the contract's 10^15 limit in a three-decimal currency reach; each part stays far below it.
 */
export function sumMinor(expr: SQL, split: boolean): SQL<string> {
  if (!split) return sql<string>`CAST(coalesce(sum(${expr}), 0) AS TEXT)`
  return sql<string>`CAST(coalesce(sum((${expr}) / 1000000000), 0) AS TEXT) || ':' || CAST(coalesce(sum((${expr}) % 1000000000), 0) AS TEXT)`
}

const BILLION = new Dec('1000000000')

/** Reads what sumMinor wrote (plain or split) as an exact count of minor units. */
export function minorOf(text: string | null | undefined): Decimal {
  if (text === null || text === undefined) return new Dec('0')
  const i = text.indexOf(':')
  if (i < 0) return new Dec(text)
  return new Dec(text.slice(0, i)).times(BILLION).plus(new Dec(text.slice(i + 1)))
}

function isOverflow(e: unknown): boolean {
  const err = e as { message?: unknown; cause?: { message?: unknown } } | null
  return /integer overflow/i.test(`${err?.message ?? ''} ${err?.cause?.message ?? ''}`)
}

/**
 * Runs a report query with plain sums and, only when SQLite reports an integer overflow, again with split sums:
 * the common case pays for one sum per figure, the extreme one stays exact.
 */
export async function withExactSums<T>(run: (split: boolean) => Promise<T>): Promise<T> {
  try {
    return await run(false)
  } catch (e) {
    if (!isOverflow(e)) throw e
    return run(true)
  }
}

/** `sum(NAME_hi)` and `sum(NAME_lo)` of a running-sums table, as text columns NAME_hi and NAME_lo (see schema/reports.ts). */
export function splitSum(name: string): SQL {
  return sql.raw(
    `CAST(coalesce(sum(${name}_hi), 0) AS TEXT) AS ${name}_hi, CAST(coalesce(sum(${name}_lo), 0) AS TEXT) AS ${name}_lo`,
  )
}

/**
 * Rows of a read-only report query, columns by name: through the hot reader when `q` is the database's reader (the
 * dashboard asks fourteen periods' sums, each a statement the query builder would prepare again), else through `q`.
 */
export async function rows<T>(q: Queryable, query: SQL): Promise<T[]> {
  return hotAll<T>(q, query) ?? q.all<T>(query)
}

/** Minor units as an Amount at the currency's scale. */
export function amountOf(minor: Decimal, scale: number): string {
  return format(fromMinor(minor, scale), scale)
}

/** Statuses of an issued document that still stands: Drafts and cancelled documents count in no report. */
export const STANDING = sql.raw(`('issued', 'partially_paid', 'paid')`)
