// A Business's own mailbox, its daily count of recipients sent through the service's own mail server, and a Test
// business's outbox.
import { sqliteTable, integer, text, primaryKey, blob, index } from 'drizzle-orm/sqlite-core'
import { businessId, businessIdKey, businessRow, timestamps } from './columns'

/** smtp: a mailbox reached over SMTP; google and microsoft: hosted mailboxes, which this edition cannot reach. */
export const mailboxKinds = ['smtp', 'google', 'microsoft'] as const
export type MailboxKind = (typeof mailboxKinds)[number]

/** At most one mailbox per Business; with none, the service's own mail server sends for it. */
export const mailboxes = sqliteTable('mailboxes', {
  businessId: businessIdKey(),
  kind: text('kind', { enum: mailboxKinds }).notNull(),
  /** The From address of emails sent through it. */
  fromAddress: text('from_address').notNull(),
  /** smtp:// or smtps:// URL with its credentials (null for hosted kinds): never logged, never answered. */
  smtpUrl: text('smtp_url'),
  ...timestamps(),
})

/** Recipients (To, Cc and Bcc each count) sent through the service's own mail server per Business and UTC day. */
export const mailDailyCounts = sqliteTable(
  'mail_daily_counts',
  {
    businessId: businessId(),
    /** YYYY-MM-DD, UTC. */
    day: text('day').notNull(),
    recipients: integer('recipients').notNull(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.day] })],
)

/**
 * A Test business's outbox: each email it sent to a Client, kept as the MIME message the SMTP path builds (`raw`)
 * instead of leaving the machine. The envelope (Bcc included, which the headers never carry) and what the list shows
 * are columns; the newest messages per Business are kept (src/modules/outbox).
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    ...businessRow(),
    /** When it was kept (the clock's time of the send), UTC ISO 8601. */
    keptAt: text('kept_at').notNull(),
    fromName: text('from_name').notNull(),
    fromAddress: text('from_address').notNull(),
    /** JSON arrays of addresses. */
    toAddresses: text('to_addresses').notNull(),
    ccAddresses: text('cc_addresses').notNull(),
    bccAddresses: text('bcc_addresses').notNull(),
    subject: text('subject').notNull(),
    /** JSON array of {filename, content_type, size}: what the list shows without reading the message. */
    attachments: text('attachments').notNull(),
    /** Bytes of `raw`. */
    size: integer('size').notNull(),
    raw: blob('raw', { mode: 'buffer' }).notNull(),
  },
  (t) => [index('mail_outbox_business').on(t.businessId, t.id)],
)
