// The journal (extensions §17): each Business's hash chain of issued records (migrations/0024_journal.sql).
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { businessId } from './columns'

/** One entry of a Business's chain; the database refuses UPDATE and DELETE on these rows (triggers). */
export const journalEntries = sqliteTable(
  'journal_entries',
  {
    businessId: businessId(),
    seq: integer('seq').notNull(),
    /** UTC with microseconds: 2026-01-31T10:00:00.123000Z. */
    at: text('at').notNull(),
    kind: text('kind').notNull(),
    recordType: text('record_type').notNull(),
    recordId: integer('record_id').notNull(),
    recordNumber: text('record_number'),
    /** The entry's `data` as canonical JSON text, exactly as it was hashed. */
    data: text('data').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.seq] }),
    index('journal_entries_record').on(t.businessId, t.recordType, t.recordId, t.seq),
  ],
)

/** Businesses whose records from before the journal still wait for their entries (filled at the next start). */
export const journalBackfill = sqliteTable('journal_backfill', {
  businessId: integer('business_id').primaryKey(),
})
