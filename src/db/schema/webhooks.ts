// The webhook outbox: events written in the transaction of the change that raised them, delivered after commit.
import { sqliteTable, integer, text, index } from 'drizzle-orm/sqlite-core'
import { businessId, businessRow, id, timestamps } from './columns'
import { deliveryAttempts, deliveryState, webhookEndpoint } from './webhook-columns'

export const outbox = sqliteTable(
  'outbox',
  {
    ...businessRow(),
    /** document.issued, document.paid, payment.recorded, ... */
    type: text('type').notNull(),
    /** What the message carries, built after commit as the API answers it: a document or a Payment. */
    subjectType: text('subject_type', { enum: ['document', 'payment', 'refund'] }).notNull(),
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

/** A Business's webhook: where messages go, which events it hears, and the secrets that sign them. */
export const webhooks = sqliteTable(
  'webhooks',
  {
    ...businessRow(),
    ...webhookEndpoint(),
    /** The secret before the last roll, still signing until previous_secret_until. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: text('previous_secret_until'),
    ...timestamps(),
  },
  (t) => [index('webhooks_business').on(t.businessId, t.id)],
)

/**
 * A message's body, stored once: every webhook of the Business that hears the event, and every resend, carries the
 * same body under the same webhook-id (ten webhooks once meant ten copies of a large document). Erased when no
 * delivery is left to send it, after the 30 days deliveries are kept.
 */
export const webhookMessages = sqliteTable(
  'webhook_messages',
  {
    /** The webhook-id: `msg_` + 26 characters, the outbox event's. */
    messageId: text('message_id').primaryKey(),
    businessId: businessId(),
    body: text('body').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('webhook_messages_created').on(t.createdAt)],
)

/** One message to one webhook: its state and schedule (the body is its message's). Kept 30 days. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    ...businessRow(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    ...deliveryState(),
    ...timestamps(),
  },
  (t) => [
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_webhook').on(t.webhookId, t.id),
    index('webhook_deliveries_created').on(t.createdAt),
    index('webhook_deliveries_message').on(t.messageId),
  ],
)

export const webhookAttempts = deliveryAttempts('webhook_attempts', () => webhookDeliveries.id)
