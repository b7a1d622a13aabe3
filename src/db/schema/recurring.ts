// Recurring invoices (extensions §13): a template of a Draft and the schedule that makes one Invoice per date.
import { sql } from 'drizzle-orm'
import { sqliteTable, integer, text, index } from 'drizzle-orm/sqlite-core'
import { clients } from './clients'
import { businessRow, timestamps } from './columns'

export const recurringStatuses = ['active', 'paused', 'ended'] as const
export type RecurringStatus = (typeof recurringStatuses)[number]
export const recurringFrequencies = ['day', 'week', 'month', 'year'] as const
export type RecurringFrequency = (typeof recurringFrequencies)[number]
export const recurringActions = ['draft', 'issue', 'send'] as const
export type RecurringAction = (typeof recurringActions)[number]

export const recurringInvoices = sqliteTable(
  'recurring_invoices',
  {
    ...businessRow(),
    status: text('status', { enum: recurringStatuses }).notNull(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    currency: text('currency').notNull(),
    /** JSON array of the template's Lines as a Draft stores them (resolved: Product values filled in). */
    lines: text('lines').notNull(),
    notes: text('notes'),
    /** null: the Client's terms when each Invoice is made. */
    paymentTerms: integer('payment_terms'),
    /** JSON array of the Business's bank account ids, ascending. */
    bankAccountIds: text('bank_account_ids').notNull().default('[]'),
    buyerReference: text('buyer_reference'),
    orderReference: text('order_reference'),
    frequency: text('frequency', { enum: recurringFrequencies }).notNull(),
    interval: integer('interval').notNull().default(1),
    startDate: text('start_date').notNull(),
    endDate: text('end_date'),
    count: integer('count'),
    action: text('action', { enum: recurringActions }).notNull(),
    /** The place of `next_date` in the schedule (0: start_date): month steps are counted from start_date's day. */
    nextIndex: integer('next_index').notNull().default(0),
    nextDate: text('next_date'),
    documentsMade: integer('documents_made').notNull().default(0),
    /** JSON {date, document_id, error} of the newest date made; null before the first. */
    lastRun: text('last_run'),
    /** The Draft made for the newest date while its issue or send is still to do (a crash between the steps). */
    pendingDocumentId: integer('pending_document_id'),
    /** `issue` or `send`: the step that is left. */
    pendingStep: text('pending_step'),
    /** Which process works on the pending step, and since when: JSON {holder, at}; taken over once stale. */
    pendingClaim: text('pending_claim'),
    isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index('recurring_invoices_business').on(t.businessId, t.id),
    index('recurring_invoices_due').on(t.nextDate).where(sql`status = 'active'`),
    index('recurring_invoices_pending').on(t.pendingDocumentId).where(sql`pending_document_id IS NOT NULL`),
  ],
)
