// The webhook outbox: events written in the transaction of the change that raised them, delivered after commit.
import { sqliteTable, integer, text, index } from 'drizzle-orm/sqlite-core'
import { businesses } from './business'

export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id').notNull().references(() => businesses.id),
    /** document.issued, document.paid, payment.recorded, ... */
    type: text('type').notNull(),
    /** What the message carries, built after commit as the API answers it: a document or a Payment. */
    subjectType: text('subject_type', { enum: ['document', 'payment'] }).notNull(),
    subjectId: integer('subject_id').notNull(),
    /** `msg_` + 26 characters: the webhook-id every delivery of this event carries. */
    messageId: text('message_id').notNull().unique(),
    /** When it happened, UTC ISO 8601 with microseconds. */
    occurredAt: text('occurred_at').notNull(),
    /** Set once the event has been fanned out into deliveries (the webhooks issue). */
    dispatchedAt: text('dispatched_at'),
  },
  (t) => [index('outbox_pending').on(t.dispatchedAt, t.id)],
)
