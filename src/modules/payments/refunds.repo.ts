// SQL for Refunds of Credit Notes; every query is scoped by the Business.
import { and, eq, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { businessRowsAfter, findBusinessRow } from '../../platform/business-rows.repo'
import { refunds } from '../../db/schema'

export type RefundRow = typeof refunds.$inferSelect
export type RefundInsert = typeof refunds.$inferInsert

export async function addRefund(tx: Tx, row: RefundInsert): Promise<number> {
  const [made] = await tx.insert(refunds).values(row).returning({ id: refunds.id })
  return made!.id
}

export async function findRefund(q: Queryable, businessId: number, id: number): Promise<RefundRow | undefined> {
  return findBusinessRow(q, refunds, businessId, id)
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
  const ofDocument = documentId !== undefined ? eq(refunds.documentId, documentId) : undefined
  return businessRowsAfter(q, refunds, businessId, afterId, limit, ofDocument)
}
