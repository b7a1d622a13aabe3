// SQL for Payments and Receipts; every query is scoped by the Business.
import { and, asc, eq, getTableColumns, gt, lte, sql } from 'drizzle-orm'
import type { Queryable, SqlTx, Tx } from '../../db/client'
import { isBusinessRow } from '../../platform/business-rows.repo'
import { payments, receipts } from '../../db/schema'
import { COUNTED_PAYMENT_STATUS } from '../documents'

export type PaymentRow = typeof payments.$inferSelect
export type PaymentInsert = typeof payments.$inferInsert
export type ReceiptRow = typeof receipts.$inferSelect

// amount_minor is a 64-bit integer that the driver (intMode number) refuses to read past 2^53: read it as text.
const paymentColumns = { ...getTableColumns(payments), amountMinor: sql<string>`CAST(${payments.amountMinor} AS TEXT)` }

export async function findPayment(q: Queryable, businessId: number, id: number): Promise<PaymentRow | undefined> {
  return q
    .select(paymentColumns)
    .from(payments)
    .where(isBusinessRow(payments, businessId, id))
    .get()
}

export async function receiptOfPayment(q: Queryable, paymentId: number): Promise<ReceiptRow | undefined> {
  return q.select().from(receipts).where(eq(receipts.paymentId, paymentId)).get()
}

export async function findReceipt(
  q: Queryable,
  businessId: number,
  id: number,
): Promise<{ receipt: ReceiptRow; payment: PaymentRow } | undefined> {
  const row = await q
    .select({ receipt: receipts, payment: paymentColumns })
    .from(receipts)
    .innerJoin(payments, eq(payments.id, receipts.paymentId))
    .where(isBusinessRow(receipts, businessId, id))
    .get()
  return row ?? undefined
}

/**
 * A page's rows of Payments or Receipts: the Business's after `afterId`, or one document's. One document's are found
 * through its index (payments_document, receipts_document: a few rows, then sorted): the unary + keeps SQLite from
 * walking the Business's index in id order through every row of the Business to find them (85 ms at 100,000).
 */
function pageAfter(t: typeof payments | typeof receipts, businessId: number, afterId: number, documentId?: number) {
  if (documentId === undefined) return and(eq(t.businessId, businessId), gt(t.id, afterId))
  return and(eq(t.documentId, documentId), sql`+${t.businessId} = ${businessId}`, sql`+${t.id} > ${afterId}`)
}

export async function listPayments(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  documentId?: number,
) {
  return q
    .select({ payment: paymentColumns, receipt: receipts })
    .from(payments)
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(pageAfter(payments, businessId, afterId, documentId))
    .orderBy(asc(payments.id))
    .limit(limit)
}

export async function listReceipts(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  documentId?: number,
) {
  return q
    .select({ receipt: receipts, payment: paymentColumns })
    .from(receipts)
    .innerJoin(payments, eq(payments.id, receipts.paymentId))
    .where(pageAfter(receipts, businessId, afterId, documentId))
    .orderBy(asc(receipts.id))
    .limit(limit)
}

/** Inserts and gives the id only: reading every column back would cost more than the insert (the hot write path). */
export async function addPayment(tx: SqlTx, p: PaymentInsert): Promise<number> {
  const r =
    await tx.run(sql`INSERT INTO payments (business_id, document_id, status, amount, amount_minor, currency, payment_date,
      payment_method, bank_account_id, reference, notes, recorded_by, amended_by, created_at, updated_at)
    VALUES (${p.businessId}, ${p.documentId}, ${p.status}, ${p.amount}, ${p.amountMinor}, ${p.currency}, ${p.paymentDate},
      ${p.paymentMethod}, ${p.bankAccountId ?? null}, ${p.reference ?? null}, ${p.notes ?? null}, ${p.recordedBy ?? null}, ${p.amendedBy ?? null},
      ${p.createdAt}, ${p.updatedAt})`)
  return Number(r.lastInsertRowid)
}

export async function addReceipt(tx: SqlTx, r0: typeof receipts.$inferInsert): Promise<number> {
  const r =
    await tx.run(sql`INSERT INTO receipts (business_id, payment_id, document_id, receipt_number, issue_date, created_at, updated_at)
    VALUES (${r0.businessId}, ${r0.paymentId}, ${r0.documentId}, ${r0.receiptNumber}, ${r0.issueDate}, ${r0.createdAt}, ${r0.updatedAt})`)
  return Number(r.lastInsertRowid)
}

export async function updatePaymentRow(tx: Tx, id: number, set: Partial<PaymentInsert>): Promise<PaymentRow> {
  return (await tx.update(payments).set(set).where(eq(payments.id, id)).returning(paymentColumns).get())!
}

export async function touchReceipt(
  tx: Tx,
  paymentId: number,
  set: Partial<typeof receipts.$inferInsert>,
): Promise<void> {
  await tx.update(receipts).set(set).where(eq(receipts.paymentId, paymentId))
}

/** Completed Payments on the document recorded up to and including this one, in minor units (for "paid in full"). */
export async function paidUpTo(q: Queryable, documentIds: number[], paymentId: number): Promise<string> {
  const rows = await q
    .select({ total: sql<string | null>`CAST(sum(${payments.amountMinor}) AS TEXT)` })
    .from(payments)
    .where(
      and(
        sql`${payments.documentId} IN (${sql.join(
          documentIds.map((i) => sql`${i}`),
          sql`, `,
        )})`,
        eq(payments.status, COUNTED_PAYMENT_STATUS),
        lte(payments.id, paymentId),
      ),
    )
  return rows[0]?.total ?? '0'
}
