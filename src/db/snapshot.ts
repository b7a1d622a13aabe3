// Reads by SQL text over one consistent snapshot (a long read that must not see commits made while it runs, such as
// the journal's verify), or inside a write transaction, through one small interface.
import Database from 'libsql'
import { sql } from 'drizzle-orm'
import type { Database as Db, SqlTx } from './client'
import { statementCache } from './statements'

/** Rows of a SQL text with `?` placeholders, as objects keyed by column name. */
export interface RowReader {
  all<T>(text: string, args?: unknown[]): Promise<T[]>
  /** The same rows as arrays in column order: cheaper for a long walk (no object per row). */
  rows(text: string, args?: unknown[]): Promise<unknown[][]>
}

/** A SQL text with `?` placeholders as a drizzle template, for a SqlTx. */
function withArgs(text: string, args: unknown[]) {
  const parts = text.split('?')
  return sql.join(parts.map((p, i) => (i < args.length ? sql`${sql.raw(p)}${args[i]}` : sql.raw(p))))
}

/** The reads of an open transaction (a drizzle one or the Payment path's), in RowReader's terms. */
export function txReader(tx: SqlTx): RowReader {
  const all = <T>(text: string, args: unknown[] = []) => tx.all<T>(withArgs(text, args))
  return { all, rows: async (text, args) => (await all<Record<string, unknown>>(text, args)).map(Object.values) }
}

/** Runs fn over one read transaction of a database file that no server need have open (a backup's copy). */
export async function withFileSnapshot<T>(file: string, fn: (r: RowReader) => Promise<T>): Promise<T> {
  const conn = new Database(file, { readonly: true, timeout: 5000 } as never)
  const stmt = statementCache(conn)
  try {
    conn.exec('BEGIN')
    return await fn({
      all: async <R>(text: string, args: unknown[] = []) => (stmt(text).all as (...a: unknown[]) => R[])(...args),
      rows: async (text: string, args: unknown[] = []) =>
        (stmt(text, true).all as (...a: unknown[]) => unknown[][])(...args),
    })
  } finally {
    if (conn.inTransaction) conn.exec('COMMIT')
    conn.close()
  }
}

/**
 * Runs fn over one read transaction: on a local file, a connection of its own (read-only, BEGIN … COMMIT, so WAL
 * keeps the snapshot for the whole read while writers go on); on a libSQL server, a read transaction of its client.
 */
export async function withSnapshot<T>(db: Db, fn: (r: RowReader) => Promise<T>): Promise<T> {
  if (db.nativeFile) return withFileSnapshot(db.nativeFile, fn)
  const client = db.connect()
  const tx = await client.transaction('read')
  try {
    const execute = async (text: string, args: unknown[] = []) =>
      (await tx.execute({ sql: text, args: args as never })).rows
    return await fn({
      all: async <T>(text: string, args: unknown[] = []) => (await execute(text, args)) as unknown as T[],
      rows: async (text: string, args: unknown[] = []) =>
        (await execute(text, args)).map((r) => Array.from({ length: r.length }, (_, i) => r[i])),
    })
  } finally {
    tx.close()
    client.close()
  }
}
