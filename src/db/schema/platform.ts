// Cross-cutting tables: service settings, idempotency keys and the request log.
import { sqliteTable, integer, text, primaryKey, index } from 'drizzle-orm/sqlite-core'
import { businessRow } from './columns'

/** Service-wide settings, such as the secret that signs paging cursors. */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

/**
 * A create answered under an Idempotency-Key, kept 24 hours for byte-exact replays; while it runs, its claim
 * (platform/idempotency.ts). Each credential has its own key space: an API key, or a Connected app.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    credentialKind: text('credential_kind', { enum: ['api_key', 'connected_app', 'person'] })
      .notNull()
      .default('api_key'),
    /** The credential's id within its kind (no foreign key: it names an API key or a Connected app). */
    apiKeyId: integer('api_key_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    contentType: text('content_type').notNull(),
    body: text('body').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.credentialKind, t.apiKeyId, t.key] }),
    index('idempotency_keys_created').on(t.createdAt),
  ],
)

export const requestLog = sqliteTable(
  'request_log',
  {
    ...businessRow(),
    requestId: text('request_id').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    credentialType: text('credential_type').notNull(),
    credentialName: text('credential_name').notNull(),
    ip: text('ip'),
    at: text('at').notNull(),
  },
  (t) => [index('request_log_business').on(t.businessId, t.id), index('request_log_at').on(t.at)],
)
