// Payment reminders (extensions §14): a Business's reminder settings, and each step of each document as handled.
import { sqliteTable, integer, text, index, primaryKey } from 'drizzle-orm/sqlite-core'
import { businessIdKey, documentId, timestamps } from './columns'

/** One row per Business that saved its settings; without one the defaults apply (disabled; 7, 14 and 30 days). */
export const reminderSettings = sqliteTable('reminder_settings', {
  businessId: businessIdKey(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  /** JSON [{days, subject, message}], sorted by days. */
  steps: text('steps').notNull(),
  /** The earliest step's days (null: no steps), so the background task's one read finds what may be due in SQL. */
  firstDays: integer('first_days'),
  updatedAt: text('updated_at').notNull(),
})

/**
 * sending: claimed (the record written before the email is handed over); sent; passed (an earlier step a catch-up
 * skipped, or one the document no longer needed); waiting: tried again from `next_try_at`; refused: kept with its error.
 */
export const reminderStepStates = ['sending', 'sent', 'passed', 'waiting', 'refused'] as const
export type ReminderStepState = (typeof reminderStepStates)[number]

/** Each (document, step) at most once: the primary key is what keeps two processes from sending one step twice. */
export const reminderSteps = sqliteTable(
  'reminder_steps',
  {
    documentId: documentId(),
    stepDays: integer('step_days').notNull(),
    businessId: integer('business_id').notNull(),
    state: text('state', { enum: reminderStepStates }).notNull(),
    /** The claim of the process handing the email over (idempotency's claim token: time, machine, process). */
    claim: text('claim'),
    /** Hand-overs begun: a step is handed over at most twice (once more after a crash or a failed hand-over). */
    attempts: integer('attempts').notNull().default(0),
    /** ISO time from which a waiting step is tried again. */
    nextTryAt: text('next_try_at'),
    /** JSON {type, code, message} of the last refusal or failed hand-over; null once sent. */
    error: text('error'),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.stepDays] }),
    index('reminder_steps_open').on(t.state, t.nextTryAt),
    index('reminder_steps_business').on(t.businessId, t.updatedAt),
  ],
)
