// Prepared statements kept per connection of the libSQL driver (hot reader, bulk appender, prepared writer): each SQL
// text is prepared once. Raw statements answer rows as arrays, and are kept apart from the same text's object form.
import type Database from 'libsql'

type Connection = InstanceType<typeof Database>
export type Statement = ReturnType<Connection['prepare']>

export interface StatementCache {
  (sql: string, raw?: boolean): Statement
  /** Lets every kept statement go (an idle server hands its memory back); each is prepared again on its next use. */
  clear(): void
}

/** The statement for a text, prepared on first use; the bound only guards against an unbounded set of texts. */
export function statementCache(db: Connection, max = 200): StatementCache {
  const cache = new Map<string, Statement>()
  const get = ((sql: string, raw = false) => {
    const key = raw ? `raw:${sql}` : sql
    let stmt = cache.get(key)
    if (!stmt) {
      if (cache.size >= max) cache.clear()
      stmt = db.prepare(sql)
      if (raw) stmt.raw(true)
      cache.set(key, stmt)
    }
    return stmt
  }) as StatementCache
  get.clear = () => cache.clear()
  return get
}
