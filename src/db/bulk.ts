// Bulk appends of bookkeeping rows (the request log): a connection of its own, committed without waiting for the disk,
// and run on the libSQL driver's own thread, not the JavaScript one.
//
// Every authenticated request adds a row. Inserted here one statement at a time on the JavaScript thread, a batch of
// 500 held that thread about 4 ms, several times a second under load, and every request under way waited behind it:
// bench/run.ts's p99 at 32 connections was 9.4-11.5 ms with the log and 6.0-7.3 ms without it. The driver's
// asynchronous exec runs a whole script on its own thread; a batch goes as one multi-row INSERT of SQL literals
// (sqlLiteral below), so the JavaScript thread only writes the text.
import AsyncDatabase from 'libsql/promise'

export interface BulkWriter {
  /**
   * Inserts every row in `rows` (values in column order) within one transaction. `sql` is the one-row statement,
   * `INSERT INTO t (a, b) VALUES (?, ?)`; its placeholders are filled with each row's values as SQL literals.
   */
  append(sql: string, rows: unknown[][]): Promise<void>
  /** Closes the connection (its page cache and schema go; an idle server); the next append opens it again. */
  shrink(): Promise<void>
  close(): void
}

export function openBulkWriter(url: string): BulkWriter | null {
  if (!url.startsWith('file:')) return null
  const path = url.slice('file:'.length)
  // Opened with the first append (after a first request, not at start: issue 34).
  let db: InstanceType<typeof AsyncDatabase> | null = null
  const opened = async () => {
    if (db) return db
    const d = new AsyncDatabase(path, { timeout: 5000 })
    // Only rows nobody was answered about are written here, so NORMAL (no fsync per commit) is enough; the next
    // ordinary commit on the main writer syncs the log with it.
    try {
      await d.exec('PRAGMA synchronous = NORMAL')
      await d.exec('PRAGMA foreign_keys = ON')
    } catch (e) {
      // Busy: closed here, opened again by the next append.
      d.close()
      throw e
    }
    return (db = d)
  }
  const exec = async (sql: string): Promise<void> => void (await (await opened()).exec(sql))
  return {
    async append(sql, rows) {
      if (rows.length === 0) return
      const script = `BEGIN IMMEDIATE; ${multiRowInsert(sql, rows)}; COMMIT;`
      try {
        await exec(script)
      } catch (e) {
        // A script stops at its first failing statement, inside the transaction it began: nothing of it stays.
        await exec('ROLLBACK').catch(() => undefined)
        throw e
      }
    },
    shrink: async () => {
      db?.close()
      db = null
    },
    close: () => db?.close(),
  }
}

/** `INSERT INTO t (a, b) VALUES (?, ?)` and rows → one `INSERT INTO t (a, b) VALUES (…), (…)` of literals. */
export function multiRowInsert(sql: string, rows: unknown[][]): string {
  const m = /^(INSERT INTO [^()]+\([^()]*\) VALUES )\(\s*\?(?:\s*,\s*\?)*\s*\)$/i.exec(sql.trim())
  if (!m) throw new Error(`bulk append: not a one-row INSERT of placeholders: ${sql}`)
  const width = sql.split('?').length - 1
  const tuples = rows.map((r) => {
    if (r.length !== width) throw new Error(`bulk append: a row of ${r.length} values for ${width} columns`)
    return `(${r.map(sqlLiteral).join(',')})`
  })
  return m[1] + tuples.join(',')
}

/**
 * A value as a SQLite literal that reads back as the same value a bound parameter would give: text quoted with its
 * quotes doubled (SQLite's only escape; text holding a NUL goes as UTF-8 hex cast to TEXT, since a script ends at a
 * NUL), integers and finite reals as digits, booleans as 1/0, bytes as a blob. Anything else is refused.
 */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL'
  if (typeof v === 'string')
    return v.includes('\0')
      ? `CAST(X'${Buffer.from(v, 'utf8').toString('hex')}' AS TEXT)`
      : `'${v.replaceAll("'", "''")}'`
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`bulk append: ${v} has no SQL literal`)
    return Number.isInteger(v) ? v.toFixed(0) : String(v)
  }
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (v instanceof Uint8Array) return `X'${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}'`
  throw new Error(`bulk append: a value of type ${typeof v} has no SQL literal`)
}
