// Rows read through the hot reader in exactly the shape a drizzle read of the same fields gives.
//
// drizzle over @libsql/client builds the query, and the client makes an object per row keyed both by index and by
// name, which drizzle then maps again: a page of 100 documents with their Lines allocated about 5 MB that way, and the
// soak's two list pages a round were more than half of all it allocated. Read as arrays on the hot reader's prepared
// statements and decoded here by the same fields, the rows are the ones drizzle would give (values decoded by each
// column's own mapFromDriverValue, NULL left null, as drizzle's mapResultRow does), at a fraction of the garbage.
import { Column, SQL, getTableName, is } from 'drizzle-orm'
import { SQLiteSyncDialect, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Database, Queryable } from './client'
import type { HotReader } from './hot'

type Field = Column | SQL
interface Decoder {
  mapFromDriverValue(value: unknown): unknown
}

export interface HotShape<T> {
  /** The select list, in the fields' order: `SELECT ${shape.columns} FROM ...`. */
  readonly columns: string
  /** One row, read as an array in that order. */
  read(row: unknown[]): T
}

const dialect = new SQLiteSyncDialect()

/** The select list and reader of a drizzle fields object (table columns, and `sql` expressions such as a CAST). */
export function hotShape<T>(fields: Record<string, Field>): HotShape<T> {
  const keys = Object.keys(fields)
  const decoders: Decoder[] = []
  const parts: string[] = []
  for (const k of keys) {
    const f = fields[k]!
    if (is(f, Column)) {
      parts.push(`"${f.name}"`)
      decoders.push(f)
    } else if (is(f, SQL)) {
      const q = dialect.sqlToQuery(f)
      if (q.params.length > 0) throw new Error(`hotShape: the field ${k} binds parameters`)
      parts.push(q.sql)
      // drizzle's own decoder of the expression (identity unless .mapWith() set one); not in its public types.
      decoders.push((f as unknown as { decoder: Decoder }).decoder)
    } else throw new Error(`hotShape: the field ${k} is neither a column nor an sql expression`)
  }
  return {
    columns: parts.join(', '),
    read(row) {
      const out: Record<string, unknown> = {}
      for (let i = 0; i < keys.length; i++) {
        const v = row[i]
        out[keys[i]!] = v === null || v === undefined ? null : decoders[i]!.mapFromDriverValue(v)
      }
      return out as T
    },
  }
}

/**
 * The hot reader when `q` is the database's plain reader: both read what is committed, so either gives the same rows.
 * Inside a transaction (`q` a Tx) it is null: the transaction's own writes are seen only through it.
 */
export function hotFor(db: Pick<Database, 'read' | 'hot'>, q: Queryable): HotReader | null {
  return q === db.read ? db.hot : null
}

/**
 * Rows of `shape` from `table` where the drizzle condition `where` holds (the same condition the query builder is given,
 * compiled to SQL and its arguments here), then `tail` (ORDER BY, LIMIT ?) with its own arguments.
 */
export function hotSelect<T>(
  hot: HotReader,
  shape: HotShape<T>,
  table: SQLiteTable,
  where: SQL | undefined,
  tail = '',
  ...tailArgs: unknown[]
): T[] {
  const w = compiled(where)
  const rows = hot.rows(
    `SELECT ${shape.columns} FROM "${getTableName(table)}" WHERE ${w.sql}${tail ? ` ${tail}` : ''}`,
    ...w.params,
    ...tailArgs,
  )
  return rows.map((r) => shape.read(r))
}

/**
 * Whether `table` holds a row where the drizzle condition `where` holds: one step on the hot reader, no row built.
 * Without a hot reader (a libSQL server) the answer is true, so the caller goes on to its own query.
 */
export function hotExists(hot: HotReader | null, table: SQLiteTable, where: SQL | undefined): boolean {
  if (!hot) return true
  const w = compiled(where)
  return hot.row(`SELECT 1 FROM "${getTableName(table)}" WHERE ${w.sql} LIMIT 1`, ...w.params) !== undefined
}

function compiled(where: SQL | undefined): { sql: string; params: unknown[] } {
  return where ? dialect.sqlToQuery(where) : { sql: '1', params: [] }
}

/** hotFor's rule for code handed only the reader (the reports' sums): each database's reader and its hot reader. */
const hotOfReader = new WeakMap<object, HotReader>()

/** Called once per database opened: its plain reader is known to have this hot reader. */
export function registerHotReader(read: object, hot: HotReader | null): void {
  if (hot) hotOfReader.set(read, hot)
}

/**
 * The rows of an sql query read through the hot reader (its statements prepared once and kept) when `q` is a
 * database's plain reader that has one; null otherwise (a transaction, a libSQL server), and the caller asks `q`.
 */
export function hotAll<T>(q: Queryable, query: SQL): T[] | null {
  const hot = hotOfReader.get(q)
  if (!hot) return null
  const c = dialect.sqlToQuery(query)
  return hot.all<T>(c.sql, ...c.params)
}
