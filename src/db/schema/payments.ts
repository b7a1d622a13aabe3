// Payments against documents and the numbered Receipt each one gets; a reversed Payment is voided, never deleted.
import { sqliteTable, integer, numeric, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bankAccounts, businesses } from './business'
import { documents } from './documents'

export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id),
    /** completed or voided; pending and failed exist only in older data and count nowhere. */
    status: text('status').notNull(),
    amount: text('amount').notNull(),
    /** The amount in minor units (NUMERIC, stored as a 64-bit integer) for exact sums in SQL. */
    amountMinor: numeric('amount_minor').notNull(),
    currency: text('currency').notNull(),
    paymentDate: text('payment_date').notNull(),
    paymentMethod: text('payment_method').notNull(),
    bankAccountId: integer('bank_account_id').references(() => bankAccounts.id),
    reference: text('reference'),
    notes: text('notes'),
    /** JSON {type, name} of the credential as it was named then; kept after the key is revoked. */
    recordedBy: text('recorded_by'),
    amendedBy: text('amended_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
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
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id),
    receiptNumber: text('receipt_number').notNull(),
    issueDate: text('issue_date').notNull(),
    voidedAt: text('voided_at'),
    voidedBy: text('voided_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
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
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id),
    /** completed or voided. */
    status: text('status').notNull(),
    amount: text('amount').notNull(),
    amountMinor: numeric('amount_minor').notNull(),
    currency: text('currency').notNull(),
    refundDate: text('refund_date').notNull(),
    method: text('method').notNull(),
    bankAccountId: integer('bank_account_id').references(() => bankAccounts.id),
    reference: text('reference'),
    notes: text('notes'),
    recordedBy: text('recorded_by'),
    voidedAt: text('voided_at'),
    voidedBy: text('voided_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('refunds_business').on(t.businessId, t.id),
    index('refunds_document').on(t.documentId, t.status, t.refundDate, t.amountMinor),
  ],
)
