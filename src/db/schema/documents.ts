// The document aggregate: Invoices, Proforma Invoices, Credit Notes and Quotes, their Lines and VAT bands.
import { sql } from 'drizzle-orm'
import { sqliteTable, integer, numeric, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { clients } from './clients'
import { businessRow, documentId, id, timestamps } from './columns'

export const documentTypes = ['invoice', 'proforma', 'credit_note', 'quote'] as const
export type DocumentType = (typeof documentTypes)[number]
export const documentStatuses = ['draft', 'issued', 'partially_paid', 'paid', 'cancelled'] as const
export type DocumentStatus = (typeof documentStatuses)[number]

export const documents = sqliteTable(
  'documents',
  {
    ...businessRow(),
    type: text('type', { enum: documentTypes }).notNull(),
    status: text('status', { enum: documentStatuses }).notNull(),
    documentNumber: text('document_number'),
    requestedDocumentNumber: text('requested_document_number'),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** JSON snapshot of the Client taken at issue; null on a Draft, which shows the Client as it now stands. */
    clientSnapshot: text('client_snapshot'),
    /** JSON snapshot of the seller (the Business and the bank accounts shown) taken at issue; null on a Draft. */
    sellerSnapshot: text('seller_snapshot'),
    currency: text('currency').notNull(),
    issueDate: text('issue_date'),
    dueDate: text('due_date'),
    deliveryDate: text('delivery_date'),
    paymentTerms: integer('payment_terms').notNull(),
    notes: text('notes'),
    /** BT-10: null takes the Client's (as issued). */
    buyerReference: text('buyer_reference'),
    /** BT-13: the Buyer's purchase order reference. */
    orderReference: text('order_reference'),
    /** Number, notes and the issued Client name, lower-cased in JS (SQLite's lower() folds ASCII only), for case-blind search. */
    searchText: text('search_text').notNull().default(''),
    /** JSON array of the Business's bank account ids, ascending. */
    bankAccountIds: text('bank_account_ids').notNull().default('[]'),
    /** Links kept as plain ids: a deleted Draft Proforma must still be recognisable as deleted. */
    proformaId: integer('proforma_id'),
    convertedIntoId: integer('converted_into_id'),
    creditedDocumentId: integer('credited_document_id'),
    isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
    // Totals as exact decimal text for answers, and in minor units for reports to sum exactly and fast.
    // Minor units are written as decimal text into NUMERIC columns, which SQLite stores as 64-bit integers:
    // exact up to 10^18, where a JS number would lose digits past 2^53. Read them only through SQL (CAST ... AS TEXT).
    netTotal: text('net_total').notNull(),
    vatTotal: text('vat_total').notNull(),
    total: text('total').notNull(),
    netMinor: numeric('net_minor').notNull(),
    vatMinor: numeric('vat_minor').notNull(),
    totalMinor: numeric('total_minor').notNull(),
    /** Completed Payments counted on this document (its Proforma's included), kept by the payments module. */
    amountPaid: text('amount_paid').notNull().default('0'),
    paidMinor: numeric('paid_minor').notNull().default('0'),
    /** A Credit Note's completed Refunds (extensions §20), kept by the payments module; '0' on other types. */
    amountRefunded: text('amount_refunded').notNull().default('0'),
    /** Opens the document's public page (GET /p/{token}); random, set at issue. */
    publicToken: text('public_token'),
    /** When the Client first opened the public page (document.viewed is raised then, once). */
    viewedAt: text('viewed_at'),
    /** JSON {at, recipients, via} of the newest send; null until sent. */
    lastSent: text('last_sent'),
    /**
     * JSON {at, recipients, via} of the newest send that went out by email: `last_sent` again when a mark made by hand
     * (the application's "mark sent") is taken back.
     */
    lastMailed: text('last_mailed'),
    /** When the Client was last reminded from the application that the document is due; null when never. */
    lastRemindedAt: text('last_reminded_at'),
    /** JSON {at, step_days, recipients} of the newest reminder (step_days null for one by hand); null when never. */
    lastReminded: text('last_reminded'),
    /** How many reminders went out for the document, by hand and on schedule. */
    remindersSent: integer('reminders_sent').notNull().default(0),
    /** ISO 11649 RF reference of an issued Invoice or Proforma (extensions §15), set at issue; null otherwise. */
    paymentReference: text('payment_reference'),
    /**
     * Units of the Business's currency for one unit of the document's (extensions §16): the one sent on a Draft, fixed
     * at issue (else the reference rate of the issue date); null when the currencies are the same.
     */
    exchangeRate: text('exchange_rate'),
    /** The Business's currency the VAT is stated in, fixed at issue; null on a Draft and when the currencies are the same. */
    accountingCurrency: text('accounting_currency'),
    /** The VAT total × rate at the accounting currency's scale, fixed at issue. */
    vatTotalAccounting: text('vat_total_accounting'),
    /** Net and VAT in the accounting currency's minor units, for the reports' `converted` block; set at issue. */
    netAccountingMinor: numeric('net_accounting_minor'),
    vatAccountingMinor: numeric('vat_accounting_minor'),
    /** The recurring invoice (extensions §13) that made this document; kept as a plain id when the schedule is deleted. */
    recurringInvoiceId: integer('recurring_invoice_id'),
    /** The language it is written in, fixed at issue (extensions §18); null on a Draft, which follows its Client. */
    language: text('language'),
    ...timestamps(),
  },
  (t) => [
    index('documents_business').on(t.businessId, t.id),
    uniqueIndex('documents_number').on(t.businessId, t.documentNumber).where(sql`document_number IS NOT NULL`),
    uniqueIndex('documents_payment_reference')
      .on(t.businessId, t.paymentReference)
      .where(sql`payment_reference IS NOT NULL`),
    // The reports read the next three without touching the table (src/modules/reports): the columns after the
    // search keys make them covering. By Client for statements; by issue date for income and VAT (status, type
    // and currency right after the day, so one day's documents are found by seeks); the open documents alone
    // (a partial index) for the overdue report.
    index('documents_client').on(
      t.businessId,
      t.clientId,
      t.issueDate,
      t.status,
      t.type,
      t.currency,
      t.convertedIntoId,
      t.totalMinor,
    ),
    index('documents_issue_date').on(
      t.businessId,
      t.issueDate,
      t.status,
      t.type,
      t.currency,
      t.convertedIntoId,
      t.netMinor,
      t.vatMinor,
      t.totalMinor,
      t.paidMinor,
    ),
    index('documents_due').on(t.businessId, t.status, t.dueDate),
    index('documents_open')
      .on(
        t.businessId,
        t.status,
        t.dueDate,
        t.currency,
        t.clientId,
        t.type,
        t.convertedIntoId,
        t.totalMinor,
        t.paidMinor,
      )
      .where(sql`status IN ('issued', 'partially_paid')`),
    uniqueIndex('documents_public_token').on(t.publicToken),
    // An Invoice's Credit Notes (credit_note_ids).
    index('documents_credited').on(t.creditedDocumentId),
  ],
)

export const documentLines = sqliteTable(
  'document_lines',
  {
    id: id(),
    documentId: documentId('cascade'),
    position: integer('position').notNull(),
    /** Plain id, no foreign key: a Product erased after deletion leaves the Lines that billed it intact. */
    productId: integer('product_id'),
    description: text('description').notNull(),
    quantity: text('quantity').notNull(),
    unit: text('unit').notNull(),
    unitPrice: text('unit_price').notNull(),
    vatRate: text('vat_rate').notNull(),
    vatCategory: text('vat_category').notNull(),
    vatExemptionCode: text('vat_exemption_code'),
    notes: text('notes'),
    netAmount: text('net_amount').notNull(),
  },
  (t) => [index('document_lines_document').on(t.documentId, t.position)],
)

/** One row per VAT band (category and rate) of a document, so the VAT report sums bands without reading Lines. */
export const documentVatBands = sqliteTable(
  'document_vat_bands',
  {
    documentId: documentId('cascade'),
    category: text('category').notNull(),
    rate: text('rate').notNull(),
    net: text('net').notNull(),
    vat: text('vat').notNull(),
    netMinor: numeric('net_minor').notNull(),
    vatMinor: numeric('vat_minor').notNull(),
    /** The band's VAT × the document's rate (extensions §16), and its net and VAT in minor units: set at issue. */
    vatAccounting: text('vat_accounting'),
    netAccountingMinor: numeric('net_accounting_minor'),
    vatAccountingMinor: numeric('vat_accounting_minor'),
  },
  // Covering for the VAT report, which sums bands per document without reading the rows.
  (t) => [index('document_vat_bands_document').on(t.documentId, t.category, t.rate, t.netMinor, t.vatMinor)],
)
