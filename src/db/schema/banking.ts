// Bank statements imported (ISO 20022 CAMT.053 / CAMT.054, extensions §15) and their entries, each matched or not.
import { sql } from 'drizzle-orm'
import { sqliteTable, integer, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bankAccounts } from './business'
import { payments } from './payments'
import { businessRow, timestamps } from './columns'

export const bankStatements = sqliteTable(
  'bank_statements',
  {
    ...businessRow(),
    bankAccountId: integer('bank_account_id')
      .notNull()
      .references(() => bankAccounts.id),
    /** The ISO 20022 message the file was: camt.053.001.08, camt.054.001.02, … */
    message: text('message').notNull(),
    /** The bank's id of the statement or notification (`Stmt/Id`, `Ntfctn/Id`). */
    statementRef: text('statement_ref'),
    fromDate: text('from_date'),
    toDate: text('to_date'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('bank_statements_business').on(t.businessId, t.id)],
)

export const bankEntryStatuses = ['matched', 'unmatched', 'duplicate', 'ignored'] as const
export type BankEntryStatus = (typeof bankEntryStatuses)[number]

export const bankStatementEntries = sqliteTable(
  'bank_statement_entries',
  {
    ...businessRow(),
    statementId: integer('statement_id')
      .notNull()
      .references(() => bankStatements.id),
    bankAccountId: integer('bank_account_id').notNull(),
    /** The entry's place in its file, from 0. */
    position: integer('position').notNull(),
    bookedOn: text('booked_on'),
    /** Decimal text as the bank wrote it, in `currency`. */
    amount: text('amount').notNull(),
    currency: text('currency').notNull(),
    credit: integer('credit', { mode: 'boolean' }).notNull(),
    booked: integer('booked', { mode: 'boolean' }).notNull(),
    counterparty: text('counterparty'),
    remittance: text('remittance'),
    structuredReference: text('structured_reference'),
    entryReference: text('entry_reference'),
    /** What makes the entry the same in a later import: the bank's reference, or its date, amount, party and text. */
    fingerprint: text('fingerprint').notNull(),
    status: text('status', { enum: bankEntryStatuses }).notNull(),
    documentId: integer('document_id'),
    paymentId: integer('payment_id').references(() => payments.id),
    ...timestamps(),
  },
  (t) => [
    index('bank_statement_entries_statement').on(t.statementId, t.position),
    index('bank_statement_entries_unmatched').on(t.businessId, t.id).where(sql`status = 'unmatched'`),
    uniqueIndex('bank_statement_entries_once')
      .on(t.bankAccountId, t.fingerprint)
      .where(sql`status IN ('matched', 'unmatched')`),
    uniqueIndex('bank_statement_entries_payment').on(t.paymentId).where(sql`payment_id IS NOT NULL`),
  ],
)
