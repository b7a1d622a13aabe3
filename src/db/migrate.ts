// Applies pending drizzle-kit migrations (embedded in the binary, or migrations/ when run from source), under the
// database's write lock: two processes starting at once on a new file both come up, the second finding them applied.
//
// drizzle's own libSQL migrator reads which migrations are applied before it takes any lock, so two processes starting
// together both applied the first one ("table already exists", or SQLITE_BUSY). Here the read and the writes share
// one BEGIN IMMEDIATE transaction; it keeps drizzle's bookkeeping table and journal, so either migrator reads the other's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import type { Database } from './client'
import { migrationsFolder } from './embedded-migrations'
import { whileBusy } from './busy'

const TABLE = '__drizzle_migrations'

export async function applyMigrations(db: Database): Promise<void> {
  const folder = await migrationsFolder()
  // Every start asks first, with one read and the journal alone, whether anything is pending: a database already up to
  // date costs no write transaction (which would wait for a running server's writes) and no reading of every migration.
  if (await upToDate(db, folder)) return
  const migrations = readMigrationFiles({ migrationsFolder: folder })
  const client = db.writerClient
  const local = db.url.startsWith('file:')
  // A migration may rebuild a table that others reference; foreign keys cannot be switched inside a transaction.
  if (local) await client.execute('PRAGMA foreign_keys = OFF')
  try {
    const tx = await begin(db)
    try {
      await tx.execute(
        `CREATE TABLE IF NOT EXISTS "${TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
      )
      const last = (await tx.execute(`SELECT created_at FROM "${TABLE}" ORDER BY created_at DESC LIMIT 1`)).rows[0]
      const appliedUpTo = last ? Number(last.created_at) : -Infinity
      for (const m of migrations) {
        if (m.folderMillis <= appliedUpTo) continue
        for (const statement of m.sql) if (statement.trim()) await tx.execute(statement)
        await tx.execute({
          sql: `INSERT INTO "${TABLE}" ("hash", "created_at") VALUES (?, ?)`,
          args: [m.hash, m.folderMillis],
        })
      }
      await tx.commit()
    } finally {
      tx.close()
    }
  } finally {
    if (local) await client.execute('PRAGMA foreign_keys = ON')
  }
}

/** Whether the last migration the journal lists is applied (false too when the bookkeeping table is not there yet). */
async function upToDate(db: Database, folder: string): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ when: number }>
  }
  const last = Math.max(...journal.entries.map((e) => e.when))
  try {
    const row = (await db.writerClient.execute(`SELECT max(created_at) AS at FROM "${TABLE}"`)).rows[0]
    return row?.at !== null && row?.at !== undefined && Number(row.at) >= last
  } catch {
    // No such table: a new database, migrated under the lock below.
    return false
  }
}

/** BEGIN IMMEDIATE, waiting while another process holds the write lock (it may be migrating a large file). */
function begin(db: Database) {
  return whileBusy(() => db.writerClient.transaction('write'))
}
