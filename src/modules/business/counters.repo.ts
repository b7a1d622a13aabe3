// Counters behind the numberings: the highest value taken per Business, kind, pattern and year.
import { and, eq, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { numberCounters, type NumberingKind } from '../../db/schema'

export async function highestTaken(q: Queryable, businessId: number, kind: NumberingKind, pattern: string, period: string): Promise<number> {
  const row = await q
    .select({ highest: numberCounters.highest })
    .from(numberCounters)
    .where(and(eq(numberCounters.businessId, businessId), eq(numberCounters.kind, kind), eq(numberCounters.pattern, pattern), eq(numberCounters.period, period)))
    .get()
  return row?.highest ?? 0
}

/** Records that `value` was taken; the counter only ever moves up. */
export async function recordTaken(tx: Tx, businessId: number, kind: NumberingKind, pattern: string, period: string, value: number): Promise<void> {
  await tx
    .insert(numberCounters)
    .values({ businessId, kind, pattern, period, highest: value })
    .onConflictDoUpdate({
      target: [numberCounters.businessId, numberCounters.kind, numberCounters.pattern, numberCounters.period],
      set: { highest: sql`max(${numberCounters.highest}, excluded.highest)` },
    })
}

/** Takes the next counter value in one statement: one above the highest taken, recorded as taken. */
export async function takeNextCounter(tx: Tx, businessId: number, kind: NumberingKind, pattern: string, period: string): Promise<number> {
  // Plain SQL: it runs in every numbered create, where the query builder's cost is felt.
  const rows = await tx.all<{ highest: number }>(sql`
    INSERT INTO number_counters (business_id, kind, pattern, period, highest) VALUES (${businessId}, ${kind}, ${pattern}, ${period}, 1)
    ON CONFLICT (business_id, kind, pattern, period) DO UPDATE SET highest = highest + 1
    RETURNING highest`)
  return rows[0]!.highest
}
