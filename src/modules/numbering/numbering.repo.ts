// The numberings' SQL: each Business's patterns, the counters behind them, and who already holds a number.
// Plain SQL throughout: it runs inside every issuing, recording and Client-creating transaction (the Payment path's
// prepared transaction included), where the query builder's cost is felt and not offered.
import { sql } from 'drizzle-orm'
import type { SqlTx } from '../../db/client'
import type { NumberingKind } from '../../db/schema'

export async function findPattern(q: SqlTx, businessId: number, kind: NumberingKind): Promise<string | undefined> {
  const rows = await q.all<{ pattern: string }>(
    sql`SELECT pattern FROM numberings WHERE business_id = ${businessId} AND kind = ${kind}`,
  )
  return rows[0]?.pattern
}

export async function savePattern(tx: SqlTx, businessId: number, kind: NumberingKind, pattern: string): Promise<void> {
  await tx.run(sql`INSERT INTO numberings (business_id, kind, pattern) VALUES (${businessId}, ${kind}, ${pattern})
    ON CONFLICT (business_id, kind) DO UPDATE SET pattern = excluded.pattern`)
}

export async function highestTaken(
  q: SqlTx,
  businessId: number,
  kind: NumberingKind,
  pattern: string,
  period: string,
): Promise<number> {
  const rows = await q.all<{ highest: number }>(
    sql`SELECT highest FROM number_counters WHERE business_id = ${businessId} AND kind = ${kind} AND pattern = ${pattern} AND period = ${period}`,
  )
  return rows[0]?.highest ?? 0
}

/** Records that `value` was taken; the counter only ever moves up. */
export async function recordTaken(
  tx: SqlTx,
  businessId: number,
  kind: NumberingKind,
  pattern: string,
  period: string,
  value: number,
): Promise<void> {
  await tx.run(sql`INSERT INTO number_counters (business_id, kind, pattern, period, highest) VALUES (${businessId}, ${kind}, ${pattern}, ${period}, ${value})
    ON CONFLICT (business_id, kind, pattern, period) DO UPDATE SET highest = max(highest, excluded.highest)`)
}

/** Takes the next counter value in one statement: one above the highest taken, recorded as taken. */
export async function takeNextCounter(
  tx: SqlTx,
  businessId: number,
  kind: NumberingKind,
  pattern: string,
  period: string,
): Promise<number> {
  const rows = await tx.all<{ highest: number }>(sql`
    INSERT INTO number_counters (business_id, kind, pattern, period, highest) VALUES (${businessId}, ${kind}, ${pattern}, ${period}, 1)
    ON CONFLICT (business_id, kind, pattern, period) DO UPDATE SET highest = highest + 1
    RETURNING highest`)
  return rows[0]!.highest
}

/**
 * Whether a number is held already, and by which row: documents share one space of numbers whatever their type,
 * Receipts have theirs, account codes are held by Clients (`exceptId`: the Client whose own code it is).
 */
export async function holderOf(
  q: SqlTx,
  businessId: number,
  kind: NumberingKind,
  number: string,
  exceptId = 0,
): Promise<number | undefined> {
  const rows =
    kind === 'receipt'
      ? await q.all<{ id: number }>(
          sql`SELECT id FROM receipts WHERE business_id = ${businessId} AND receipt_number = ${number} LIMIT 1`,
        )
      : kind === 'client'
        ? await q.all<{ id: number }>(
            sql`SELECT id FROM clients WHERE business_id = ${businessId} AND account_code = ${number} AND id <> ${exceptId} LIMIT 1`,
          )
        : await q.all<{ id: number }>(
            sql`SELECT id FROM documents WHERE business_id = ${businessId} AND document_number = ${number} LIMIT 1`,
          )
  return rows[0]?.id
}
