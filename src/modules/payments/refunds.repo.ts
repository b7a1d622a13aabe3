// SQL for Refunds of Credit Notes; every query is scoped by the Business.
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { refunds } from '../../db/schema'

export type RefundRow = typeof refunds.$inferSelect
export type RefundInsert = typeof refunds.$inferInsert

export async function addRefund(tx: Tx, row: RefundInsert): Promise<number> {
  const [made] = await tx.insert(refunds).values(row).returning({ id: refunds.id })
  return made!.id
}

export async function findRefund(q: Queryable, businessId: number, id: number): Promise<RefundRow | undefined> {
  return q
    .select()
    .from(refunds)
    .where(and(eq(refunds.businessId, businessId), eq(refunds.id, id)))
    .get()
}

export async function voidRefund(tx: Tx, id: number, voidedAt: string, voidedBy: string | null): Promise<void> {
  await tx.update(refunds).set({ status: 'voided', voidedAt, voidedBy, updatedAt: voidedAt }).where(eq(refunds.id, id))
}

/** The sum of a Credit Note's completed Refunds in minor units, as exact text. */
export async function refundedMinor(q: Queryable, documentId: number): Promise<string> {
  const row = await q
    .select({ sum: sql<string>`CAST(COALESCE(SUM(${refunds.amountMinor}), 0) AS TEXT)` })
    .from(refunds)
    .where(and(eq(refunds.documentId, documentId), eq(refunds.status, 'completed')))
    .get()
  return row?.sum ?? '0'
}

export async function listRefunds(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  documentId?: number,
) {
  const conds = [eq(refunds.businessId, businessId), gt(refunds.id, afterId)]
  if (documentId !== undefined) conds.push(eq(refunds.documentId, documentId))
  return q
    .select()
    .from(refunds)
    .where(and(...conds))
    .orderBy(asc(refunds.id))
    .limit(limit)
}
