// Applies pending drizzle-kit migrations (embedded in the binary, or migrations/ when run from source).
import { migrate } from 'drizzle-orm/libsql/migrator'
import type { Database } from './client'
import { migrationsFolder } from './embedded-migrations'

export async function applyMigrations(db: Database): Promise<void> {
  await migrate(db.writer, { migrationsFolder: await migrationsFolder() })
  // The migrator toggles foreign_keys around its batch; make sure the writer ends with them on.
  await db.writerClient.execute('PRAGMA foreign_keys = ON')
}
