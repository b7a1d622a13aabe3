// What every table of a Business's records shares: its row by id (to read or change), and a page of its rows by id
// (the keyset paging listPage asks for). All are scoped by the Business, as every query of a request is.
import { and, asc, eq, gt, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Queryable, Tx } from '../db/client'

/** A table of a Business's records, each row with its own id. */
export type BusinessTable = SQLiteTable & { id: SQLiteColumn; businessId: SQLiteColumn }

/** The condition that names the Business's row with this id (another Business's is no match). */
export function isBusinessRow(table: BusinessTable, businessId: number, id: number): SQL | undefined {
  return and(eq(table.businessId, businessId), eq(table.id, id))
}

/** The Business's row with this id; undefined when there is none (or it is another Business's). */
export async function findBusinessRow<T extends BusinessTable>(
  q: Queryable,
  table: T,
  businessId: number,
  id: number,
): Promise<T['$inferSelect'] | undefined> {
  const row = await q
    .select()
    .from(table as SQLiteTable)
    .where(isBusinessRow(table, businessId, id))
    .get()
  return row as T['$inferSelect'] | undefined
}

/** Changes the Business's row with this id; answers it as changed, undefined when there is none. */
export async function updateBusinessRow<T extends BusinessTable>(
  tx: Tx,
  table: T,
  businessId: number,
  id: number,
  set: Partial<T['$inferInsert']>,
): Promise<T['$inferSelect'] | undefined> {
  const rows = await tx
    .update(table as SQLiteTable)
    .set(set)
    .where(isBusinessRow(table, businessId, id))
    .returning()
  return rows[0] as T['$inferSelect'] | undefined
}

/** Up to `limit` of the Business's rows after the one with id `afterId`, by id; `also` narrows them (a filter). */
export async function businessRowsAfter<T extends BusinessTable>(
  q: Queryable,
  table: T,
  businessId: number,
  afterId: number,
  limit: number,
  ...also: Array<SQL | undefined>
): Promise<T['$inferSelect'][]> {
  const rows = await q
    .select()
    .from(table as SQLiteTable)
    .where(and(eq(table.businessId, businessId), gt(table.id, afterId), ...also))
    .orderBy(asc(table.id))
    .limit(limit)
  return rows as T['$inferSelect'][]
}
