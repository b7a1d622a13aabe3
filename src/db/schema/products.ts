// The Product aggregate: what a Business sells; deleted Products stay hidden 30 days, then are erased.
import { sql } from 'drizzle-orm'
import { sqliteTable, integer, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { businessRow, timestamps } from './columns'

export const products = sqliteTable(
  'products',
  {
    ...businessRow(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    description: text('description'),
    /** product or service; other values from older data are kept as they are. */
    type: text('type').notNull(),
    /** The decimal as entered (normalised, its decimals kept), never a float. */
    price: text('price').notNull(),
    currency: text('currency').notNull(),
    /** Percent with two decimals, e.g. 19.00. */
    vatRate: text('vat_rate').notNull().default('0.00'),
    vatIncluded: integer('vat_included', { mode: 'boolean' }).notNull().default(false),
    unit: text('unit').notNull().default('pcs'),
    trackInventory: integer('track_inventory', { mode: 'boolean' }).notNull().default(false),
    stockQuantity: integer('stock_quantity'),
    minimumStock: integer('minimum_stock'),
    category: text('category'),
    sku: text('sku'),
    barcode: text('barcode'),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    isArchived: integer('is_archived', { mode: 'boolean' }).notNull().default(false),
    notes: text('notes'),
    /** Lower-cased name, code, SKU and description for case-blind search. */
    searchText: text('search_text').notNull().default(''),
    /** Set by DELETE: hidden at once, erased for good 30 days later. */
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [
    index('products_business').on(t.businessId, t.id),
    // A deleted Product's code is free again at once.
    uniqueIndex('products_code').on(t.businessId, t.code).where(sql`deleted_at IS NULL`),
    index('products_deleted').on(t.deletedAt),
  ],
)
