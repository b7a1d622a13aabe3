// Columns many tables declare alike, written once and spread into each table (drizzle's reusable column definitions).
// Each helper builds new builders on every call: drizzle writes the table's own name into a builder's config when a
// table takes it, so one builder object must never serve two tables. They are function declarations because the tables
// they reference import this file in turn: a hoisted function can be called before this module has run.
// Not exported from index.ts: these are pieces of tables, not tables.
import { integer, text } from 'drizzle-orm/sqlite-core'
import { businesses } from './business'
import { documents } from './documents'

/** The row's own id, assigned by SQLite and never given out again (AUTOINCREMENT). */
export function id() {
  return integer('id').primaryKey({ autoIncrement: true })
}

/** The Business the row belongs to. */
export function businessId() {
  return integer('business_id')
    .notNull()
    .references(() => businesses.id)
}

/** The Business as the whole key: a table with at most one row per Business. */
export function businessIdKey() {
  return integer('business_id')
    .primaryKey()
    .references(() => businesses.id)
}

/** A row of one Business: its own id, then its Business's. */
export function businessRow() {
  return { id: id(), businessId: businessId() }
}

/** The document the row belongs to; `cascade` where the row is a part of the document and goes with it. */
export function documentId(onDelete?: 'cascade') {
  return integer('document_id')
    .notNull()
    .references(() => documents.id, { onDelete })
}

/** When the row was made and when it last changed, UTC ISO 8601. */
export function timestamps() {
  return {
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  }
}
