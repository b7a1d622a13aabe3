// The Payment write path's connection: the libSQL driver's own prepared statements, cached, inside BEGIN IMMEDIATE.
//
// @libsql/client prepares every statement again on each execute (about 30-40 µs of the ~40 µs a statement of the
// Payment transaction cost, measured with bench/payments-profile.ts); a Payment runs nine. This connection keeps each
// prepared statement and runs the same drizzle `sql` templates the repos write, through an object that offers the
// two methods they use (`all`, `run`), so the repos stay as they are. It writes under the process's one write mutex,
// with the writer's settings (WAL, synchronous=FULL, foreign keys, busy timeout).
import Database from 'libsql'
import type { SQLWrapper } from 'drizzle-orm'
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import { statementCache } from './statements'

export interface PreparedTx {
  all<T>(query: SQLWrapper): Promise<T[]>
  run(query: SQLWrapper): Promise<{ rowsAffected: number; lastInsertRowid: number }>
}

export interface PreparedWriter {
  /** Runs fn inside BEGIN IMMEDIATE … COMMIT (ROLLBACK when it throws); the caller holds the write mutex. */
  transaction<T>(fn: (tx: PreparedTx) => Promise<T>): Promise<T>
  /** Closes the connection (its page cache, schema and kept statements go; an idle server); the next transaction opens it. */
  shrink(): void
  close(): void
}

export function openPreparedWriter(url: string): PreparedWriter | null {
  if (!url.startsWith('file:')) return null
  const path = url.slice('file:'.length)
  // Opened with the first transaction, not at start (issue 34); the writer has made the file WAL by then.
  let open: { db: InstanceType<typeof Database>; statement: ReturnType<typeof statementCache> } | null = null
  const connection = () => {
    if (open) return open
    const db = new Database(path, { timeout: 5000 } as never)
    try {
      db.exec('PRAGMA journal_mode = WAL')
      db.exec('PRAGMA synchronous = FULL')
      db.exec('PRAGMA foreign_keys = ON')
    } catch (e) {
      // Busy (another process migrating): closed here, opened again by the next transaction.
      db.close()
      throw e
    }
    return (open = { db, statement: statementCache(db) })
  }
  const dialect = new SQLiteSyncDialect()
  const prepared = (query: SQLWrapper) => {
    const q = dialect.sqlToQuery(query.getSQL())
    const stmt = connection().statement(q.sql)
    // The driver binds numbers, strings, bigints, buffers and null; booleans go in as SQLite's 1 and 0.
    return { stmt, params: q.params.map((p) => (typeof p === 'boolean' ? Number(p) : p)) }
  }
  const tx: PreparedTx = {
    async all<T>(query: SQLWrapper) {
      const { stmt, params } = prepared(query)
      return (stmt.all as (...a: unknown[]) => T[])(...params)
    },
    async run(query: SQLWrapper) {
      const { stmt, params } = prepared(query)
      const r = (stmt.run as (...a: unknown[]) => { changes: number; lastInsertRowid: number | bigint })(...params)
      return { rowsAffected: r.changes, lastInsertRowid: Number(r.lastInsertRowid) }
    },
  }
  return {
    async transaction(fn) {
      const { db } = connection()
      db.exec('BEGIN IMMEDIATE')
      try {
        const result = await fn(tx)
        db.exec('COMMIT')
        return result
      } catch (e) {
        if (db.inTransaction) db.exec('ROLLBACK')
        throw e
      }
    },
    shrink: () => {
      open?.statement.clear()
      open?.db.close()
      open = null
    },
    close: () => open?.db.close(),
  }
}
