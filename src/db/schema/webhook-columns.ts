// What a Business's webhooks (webhooks.ts) and an OAuth app's webhook (oauth.ts) declare alike: one delivery engine
// (src/modules/webhooks/engine.ts) sends both, so an endpoint and a delivery's state have the same columns in either,
// and their attempts the same table. Functions, as in columns.ts: new builders for every table.
import { index, integer, type SQLiteColumn, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { id } from './columns'

/** Where messages go, which events it hears, whether it is paused, and the secret that signs them. */
export function webhookEndpoint() {
  return {
    url: text('url').notNull(),
    /** JSON array of event types; every event when empty. */
    events: text('events').notNull().default('[]'),
    paused: integer('paused', { mode: 'boolean' }).notNull().default(false),
    /** Why it is paused: 'gone' (answered 410), by request ('by_request', 'paused' on an app's), or a lost secret. */
    pausedReason: text('paused_reason'),
    /** whsec_ + base64 of 32 random bytes; not hashed, as it must sign every message (sealed at rest, see db/secrets.ts). */
    secret: text('secret').notNull(),
  }
}

/** Where a delivery stands, and who is sending it now. */
export function deliveryState() {
  return {
    /** pending (retry waiting), delivered, failed, failed_unsent. */
    status: text('status').notNull(),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    /** A process that claimed the delivery owns it until then; claims are atomic across processes. */
    claimedUntil: text('claimed_until'),
    claimToken: text('claim_token'),
  }
}

/** A table of the attempts at the deliveries of `delivery`'s table: when, how long, what answered; gone with it. */
export function deliveryAttempts<N extends string>(name: N, delivery: () => SQLiteColumn) {
  return sqliteTable(
    name,
    {
      id: id(),
      deliveryId: integer('delivery_id').notNull().references(delivery, { onDelete: 'cascade' }),
      attemptedAt: text('attempted_at').notNull(),
      durationMs: integer('duration_ms').notNull(),
      statusCode: integer('status_code'),
      /** Why it failed when there was no answer (timeout, refused address, no connection). */
      error: text('error'),
      /** The first kilobyte of the answer. */
      responseExcerpt: text('response_excerpt'),
    },
    (t) => [index(`${name}_delivery`).on(t.deliveryId)],
  )
}
