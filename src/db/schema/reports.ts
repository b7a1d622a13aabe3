// Running sums the reports read instead of scanning documents: kept by triggers (migrations/ *_report_sums.sql) on
// every write to documents and VAT bands, so no write path (service, CLI, bench seeder) can leave them behind.
//
// Money is summed split in two integer parts, value / 10^9 and value % 10^9 (SQLite truncates both toward zero, so
// hi * 10^9 + lo is the value again): each part stays far below 2^63 however many documents add up, where one sum of
// minor units at the contract's limits would overflow. Read them only as text (CAST ... AS TEXT).
import { integer, numeric, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** A running sum of minor units in its two parts (above): columns NAME_hi and NAME_lo, both 0 in a new row. */
function splitSum<N extends string>(name: N) {
  const part = (half: 'hi' | 'lo') => numeric(`${name}_${half}`).notNull().default('0')
  return { [`${name}Hi`]: part('hi'), [`${name}Lo`]: part('lo') } as Record<
    `${N}Hi` | `${N}Lo`,
    ReturnType<typeof part>
  >
}

/** A table of the VAT report's sums per Business, issue day, currency, type and VAT band (category and rate). */
function vatBandDays<N extends string>(name: N) {
  return sqliteTable(
    name,
    {
      businessId: integer('business_id').notNull(),
      day: text('day').notNull(),
      currency: text('currency').notNull(),
      type: text('type').notNull(),
      category: text('category').notNull(),
      rate: text('rate').notNull(),
      /** Band rows counted: a band is reported in a period while any document holds it there, even at zero. */
      bands: integer('bands').notNull().default(0),
      ...splitSum('net'),
      ...splitSum('vat'),
    },
    (t) => [primaryKey({ columns: [t.businessId, t.day, t.currency, t.type, t.category, t.rate] })],
  )
}

/** Per Business, issue day and currency: the Reportable documents' income and VAT (the income report's rules). */
export const reportDays = sqliteTable(
  'report_days',
  {
    businessId: integer('business_id').notNull(),
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    /** Reportable documents (issued Invoices, Credit Notes, never-converted Proformas that still stand). */
    documents: integer('documents').notNull().default(0),
    /** Of those, Invoices and Credit Notes: the VAT report's other_currency_documents. */
    vatDocuments: integer('vat_documents').notNull().default(0),
    ...splitSum('income'),
    ...splitSum('vat'),
    /** Partly paid standalone Proformas too large for SQLite to take their paid share exactly: computed apart. */
    large: integer('large').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day, t.currency] })],
)

/** Per Business, issue day, currency, type (invoice or credit_note) and VAT band: the VAT report's sums. */
export const reportVatDays = vatBandDays('report_vat_days')

/**
 * Per Business, Client and currency: the documents that can be Overdue (issued or partly paid Invoices and
 * never-converted Proformas with a due date), whatever their due date. The overdue report takes these and subtracts
 * the few not yet due, so its cost follows the recent documents, not the whole history.
 */
export const reportOpenClients = sqliteTable(
  'report_open_clients',
  {
    businessId: integer('business_id').notNull(),
    clientId: integer('client_id').notNull(),
    currency: text('currency').notNull(),
    documents: integer('documents').notNull().default(0),
    ...splitSum('due'),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.clientId, t.currency] })],
)

/**
 * Per Business, issue day and accounting currency: the income report's figures of the documents in another currency,
 * each at its own rate fixed at issue (extensions §16, the `converted` block). Rows only for documents with a rate.
 */
export const reportFxDays = sqliteTable(
  'report_fx_days',
  {
    businessId: integer('business_id').notNull(),
    day: text('day').notNull(),
    /** The accounting currency (the Business's at issue). */
    currency: text('currency').notNull(),
    documents: integer('documents').notNull().default(0),
    vatDocuments: integer('vat_documents').notNull().default(0),
    ...splitSum('net'),
    ...splitSum('vat'),
    /** Partly paid standalone Proformas whose converted paid share SQLite cannot take exactly: computed apart. */
    large: integer('large').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day, t.currency] })],
)

/** Per Business, issue day, accounting currency, type and VAT band: the VAT report's `converted` bands. */
export const reportFxVatDays = vatBandDays('report_fx_vat_days')
