// One row's INSERT … RETURNING id as a drizzle `sql` template, for any SqlTx (the prepared writer included): each value
// encoded by its column as the query builder would, the same text for rows of the same fields (one kept statement).
import { getTableColumns, sql, type SQL } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'

export function insertReturningId(table: SQLiteTable, row: Record<string, unknown>): SQL {
  const columns = getTableColumns(table)
  const set = Object.entries(row).filter(([k, v]) => v !== undefined && columns[k] !== undefined)
  const names = sql.join(
    set.map(([k]) => sql.identifier(columns[k]!.name)),
    sql`, `,
  )
  const values = sql.join(
    set.map(([k, v]) => sql.param(v, columns[k])),
    sql`, `,
  )
  return sql`INSERT INTO ${table} (${names}) VALUES (${values}) RETURNING id`
}
