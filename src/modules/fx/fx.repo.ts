// SQL for the reference rates the service keeps (fx_rates): one row per ECB day and currency.
import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { fxRates } from '../../db/schema'
import type { EcbDay } from './ecb'

/** Writes the days (a day already held is replaced by the file's, which the ECB never changes once published). */
export async function storeDays(tx: Tx, days: EcbDay[]): Promise<void> {
  for (const d of days) {
    const rows = Object.entries(d.rates).map(([currency, rate]) => ({ day: d.day, currency, rate }))
    // Inserted in slices: SQLite binds at most 32766 values per statement, and a history file has thousands of rows.
    for (let i = 0; i < rows.length; i += 500)
      await tx
        .insert(fxRates)
        .values(rows.slice(i, i + 500))
        .onConflictDoUpdate({ target: [fxRates.day, fxRates.currency], set: { rate: sql`excluded.rate` } })
  }
}

/** The latest day on or before `date` that holds any rate; null when none does. */
export async function dayOnOrBefore(q: Queryable, date: string): Promise<string | null> {
  const row = await q
    .select({ day: fxRates.day })
    .from(fxRates)
    .where(lte(fxRates.day, date))
    .orderBy(desc(fxRates.day))
    .limit(1)
    .get()
  return row?.day ?? null
}

/** The rates of one day, units per euro by currency. */
export async function ratesOfDay(q: Queryable, day: string): Promise<Record<string, string>> {
  const rows = await q
    .select({ currency: fxRates.currency, rate: fxRates.rate })
    .from(fxRates)
    .where(eq(fxRates.day, day))
  return Object.fromEntries(rows.map((r) => [r.currency, r.rate]))
}

/**
 * The rates of the latest day on or before `date` that has a rate for each of `currencies` (the euro needs none): a
 * currency the ECB stopped publishing is not carried forward past the days that have it.
 */
export async function ratesOnOrBefore(
  q: Queryable,
  currencies: string[],
  date: string,
): Promise<{ day: string; rates: Record<string, string> } | null> {
  const wanted = [...new Set(currencies.filter((c) => c !== 'EUR'))]
  if (wanted.length === 0) {
    const day = await dayOnOrBefore(q, date)
    return day ? { day, rates: {} } : null
  }
  const row = await q
    .select({ day: fxRates.day })
    .from(fxRates)
    .where(and(inArray(fxRates.currency, wanted), lte(fxRates.day, date)))
    .groupBy(fxRates.day)
    .having(sql`count(*) = ${wanted.length}`)
    .orderBy(desc(fxRates.day))
    .limit(1)
    .get()
  if (!row) return null
  const rows = await q
    .select({ currency: fxRates.currency, rate: fxRates.rate })
    .from(fxRates)
    .where(and(eq(fxRates.day, row.day), inArray(fxRates.currency, wanted)))
  return { day: row.day, rates: Object.fromEntries(rows.map((r) => [r.currency, r.rate])) }
}

/** How many days are held (the fetch takes the 90-day history while none is). */
export async function daysHeld(q: Queryable): Promise<number> {
  const row = await q
    .select({ n: sql<number>`count(DISTINCT ${fxRates.day})` })
    .from(fxRates)
    .get()
  return row?.n ?? 0
}
