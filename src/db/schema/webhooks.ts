// The webhook outbox: events written in the transaction of the change that raised them, delivered after commit.
import { sqliteTable, integer, text, index } from 'drizzle-orm/sqlite-core'
import { businesses } from './business'

export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
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
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    url: text('url').notNull(),
    /** JSON array of event types; every event when empty. */
    events: text('events').notNull().default('[]'),
    paused: integer('paused', { mode: 'boolean' }).notNull().default(false),
    /** Why it is paused: 'gone' (answered 410) or 'by_request'. */
    pausedReason: text('paused_reason'),
    /** whsec_ + base64 of 32 random bytes; kept readable because it must sign every message. */
    secret: text('secret').notNull(),
    /** The secret before the last roll, still signing until previous_secret_until. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: text('previous_secret_until'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
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
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    body: text('body').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('webhook_messages_created').on(t.createdAt)],
)

/** One message to one webhook: its state and schedule (the body is its message's). Kept 30 days. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** pending (retry waiting), delivered, failed, failed_unsent. */
    status: text('status').notNull(),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    /** A process that claimed the delivery owns it until then; claims are atomic across processes. */
    claimedUntil: text('claimed_until'),
    claimToken: text('claim_token'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_webhook').on(t.webhookId, t.id),
    index('webhook_deliveries_created').on(t.createdAt),
    index('webhook_deliveries_message').on(t.messageId),
  ],
)

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: text('attempted_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    /** Why it failed when there was no answer (timeout, refused address, no connection). */
    error: text('error'),
    /** The first kilobyte of the answer. */
    responseExcerpt: text('response_excerpt'),
  },
  (t) => [index('webhook_attempts_delivery').on(t.deliveryId)],
)
