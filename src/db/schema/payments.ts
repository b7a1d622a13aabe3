// Payments against documents and the numbered Receipt each one gets; a reversed Payment is voided, never deleted.
import { sqliteTable, integer, numeric, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bankAccounts } from './business'
import { businessRow, documentId, timestamps } from './columns'

/** A sum of money: decimal text as answered, the same in minor units for exact sums in SQL, and its currency. */
function money() {
  return {
    amount: text('amount').notNull(),
    /** The amount in minor units (NUMERIC, stored as a 64-bit integer) for exact sums in SQL. */
    amountMinor: numeric('amount_minor').notNull(),
    currency: text('currency').notNull(),
  }
}

/** What a Payment and a Refund are recorded with: the Business's bank account, a reference, notes, and who recorded it. */
function recordDetails() {
  return {
    bankAccountId: integer('bank_account_id').references(() => bankAccounts.id),
    reference: text('reference'),
    notes: text('notes'),
    /** JSON {type, name} of the credential as it was named then; kept after the key is revoked. */
    recordedBy: text('recorded_by'),
  }
}

/** When the record was voided and by whom (JSON {type, name}, as recorded_by); null while it stands. */
function voided() {
  return {
    voidedAt: text('voided_at'),
    voidedBy: text('voided_by'),
  }
}

export const payments = sqliteTable(
  'payments',
  {
    ...businessRow(),
    documentId: documentId(),
    /** completed or voided; pending and failed exist only in older data and count nowhere. */
    status: text('status').notNull(),
    ...money(),
    paymentDate: text('payment_date').notNull(),
    paymentMethod: text('payment_method').notNull(),
    ...recordDetails(),
    amendedBy: text('amended_by'),
    ...timestamps(),
  },
  (t) => [
    index('payments_business').on(t.businessId, t.id),
    // Covering for sums of a document's completed Payments (settlement, statements) by date.
    index('payments_document').on(t.documentId, t.status, t.paymentDate, t.amountMinor),
    index('payments_date').on(t.businessId, t.paymentDate),
  ],
)

export const receipts = sqliteTable(
  'receipts',
  {
    ...businessRow(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    documentId: documentId(),
    receiptNumber: text('receipt_number').notNull(),
    issueDate: text('issue_date').notNull(),
    ...voided(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('receipts_payment').on(t.paymentId),
    uniqueIndex('receipts_number').on(t.businessId, t.receiptNumber),
    index('receipts_business').on(t.businessId, t.id),
    index('receipts_document').on(t.documentId),
  ],
)

/** Money a Credit Note owed its Client, recorded as gone back (extensions §20); a reversed Refund is voided, kept. */
export const refunds = sqliteTable(
  'refunds',
  {
    ...businessRow(),
    documentId: documentId(),
    /** completed or voided. */
    status: text('status').notNull(),
    ...money(),
    refundDate: text('refund_date').notNull(),
    method: text('method').notNull(),
    ...recordDetails(),
    ...voided(),
    ...timestamps(),
  },
  (t) => [
    index('refunds_business').on(t.businessId, t.id),
    index('refunds_document').on(t.documentId, t.status, t.refundDate, t.amountMinor),
  ],
)
