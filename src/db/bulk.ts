// Bulk appends of bookkeeping rows (the request log): the libSQL driver's own prepared INSERT on a connection of its
// own, committed without waiting for the disk. About 2 µs a row, where drizzle over @libsql/client costs 20-30 µs:
// the difference is event-loop time taken from requests.
import Database from 'libsql'
import { statementCache } from './statements'

export interface BulkWriter {
  /** Inserts every row in `rows` (values in column order) within one transaction; synchronous and short. */
  append(sql: string, rows: unknown[][]): void
  /** Frees the connection's page cache (PRAGMA shrink_memory) and its kept statements. */
  shrink(): void
  close(): void
}

export function openBulkWriter(url: string): BulkWriter | null {
  if (!url.startsWith('file:')) return null
  const db = new Database(url.slice('file:'.length), { timeout: 5000 } as never)
  // Only rows nobody was answered about are written here, so NORMAL (no fsync per commit) is enough; the next
  // ordinary commit on the main writer syncs the log with it.
  try {
    db.exec('PRAGMA synchronous = NORMAL')
    db.exec('PRAGMA foreign_keys = ON')
  } catch (e) {
    // Busy at a start while another process migrates: closed here, the open is tried again whole (db/client.ts).
    db.close()
    throw e
  }
  const prepared = statementCache(db)
  return {
    append(sql, rows) {
      const stmt = prepared(sql)
      db.exec('BEGIN IMMEDIATE')
      try {
        for (const r of rows) (stmt.run as (...a: unknown[]) => unknown)(...r)
        db.exec('COMMIT')
      } catch (e) {
        db.exec('ROLLBACK')
        throw e
      }
    },
    shrink: () => {
      prepared.clear()
      db.exec('PRAGMA shrink_memory')
    },
    close: () => db.close(),
  }
}
