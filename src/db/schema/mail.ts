// A Business's own mailbox, and its daily count of recipients sent through the service's own mail server.
import { sqliteTable, integer, text, primaryKey } from 'drizzle-orm/sqlite-core'
import { businesses } from './business'

/** smtp: a mailbox reached over SMTP; google and microsoft: hosted mailboxes, which this edition cannot reach. */
export const mailboxKinds = ['smtp', 'google', 'microsoft'] as const
export type MailboxKind = (typeof mailboxKinds)[number]

/** At most one mailbox per Business; with none, the service's own mail server sends for it. */
export const mailboxes = sqliteTable('mailboxes', {
  businessId: integer('business_id')
    .primaryKey()
    .references(() => businesses.id),
  kind: text('kind', { enum: mailboxKinds }).notNull(),
  /** The From address of emails sent through it. */
  fromAddress: text('from_address').notNull(),
  /** smtp:// or smtps:// URL with its credentials (null for hosted kinds): never logged, never answered. */
  smtpUrl: text('smtp_url'),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
})

/** Recipients (To, Cc and Bcc each count) sent through the service's own mail server per Business and UTC day. */
export const mailDailyCounts = sqliteTable(
  'mail_daily_counts',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    /** YYYY-MM-DD, UTC. */
    day: text('day').notNull(),
    recipients: integer('recipients').notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day] })],
)
