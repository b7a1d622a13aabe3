// The ECB euro reference rates the service keeps (extensions §16): units of a currency for one euro, per day.
import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const fxRates = sqliteTable(
  'fx_rates',
  {
    /** The ECB's publication day, YYYY-MM-DD. */
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    /** Units of `currency` for one euro, as the ECB writes it (a decimal string). */
    rate: text('rate').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.currency] })],
)
