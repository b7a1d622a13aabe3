// SQL for Clients; every query is scoped by the Business.
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { Database, Queryable, SqlTx, Tx } from '../../db/client'
import { businessRowsAfter, findBusinessRow, updateBusinessRow } from '../../platform/business-rows.repo'
import { insertReturningId } from '../../db/insert-sql'
import type { HotReader } from '../../db/hot'
import { hotSelect, hotShape } from '../../db/hot-shape'
import { clients } from '../../db/schema'

export type ClientRow = typeof clients.$inferSelect
export type ClientInsert = typeof clients.$inferInsert

export function searchTextOf(c: Pick<ClientRow, 'name' | 'legalName' | 'email' | 'vatNumber' | 'accountCode'>): string {
  return [c.name, c.legalName, c.email, c.vatNumber, c.accountCode].filter(Boolean).join('\n').toLowerCase()
}

// Rows read by the hot reader in the shape drizzle gives (db/hot-shape.ts). A page leaves out search_text (long, and
// never answered) and gives it as ''.
const clientShape = hotShape<ClientRow>(getTableColumns(clients))
const { searchText: _searchText, ...pageColumns } = getTableColumns(clients)
const pageShape = hotShape<ClientRow>(pageColumns)
const BY_ID_SQL = `SELECT ${clientShape.columns} FROM clients WHERE business_id = ? AND id = ?`

function clientById(hot: HotReader, businessId: number, id: number): ClientRow | undefined {
  const row = hot.row(BY_ID_SQL, businessId, id)
  return row ? clientShape.read(row) : undefined
}

export async function findClient(q: Queryable, businessId: number, id: number): Promise<ClientRow | undefined> {
  return findBusinessRow(q, clients, businessId, id)
}

/** The Business's Clients among `ids`, in one query (a page of documents names up to 100 of them). */
export async function findClients(
  q: Queryable,
  businessId: number,
  ids: number[],
  hot: HotReader | null = null,
): Promise<Map<number, ClientRow>> {
  if (ids.length === 0) return new Map()
  const where = and(eq(clients.businessId, businessId), inArray(clients.id, [...new Set(ids)]))
  const rows = hot ? hotSelect(hot, clientShape, clients, where) : await q.select().from(clients).where(where)
  return new Map(rows.map((r) => [r.id, r]))
}

const PAGE_SELECT = `SELECT ${pageShape.columns} FROM clients`

/** A page of Clients through the hot reader (the list is the API's heaviest common read). */
export function listClientsHot(
  hot: HotReader,
  businessId: number,
  afterId: number,
  limit: number,
  search?: string,
): ClientRow[] {
  const rows = search
    ? hot.rows(
        `${PAGE_SELECT} WHERE business_id = ? AND id > ? AND instr(search_text, ?) > 0 ORDER BY id LIMIT ?`,
        businessId,
        afterId,
        search.toLowerCase(),
        limit,
      )
    : hot.rows(`${PAGE_SELECT} WHERE business_id = ? AND id > ? ORDER BY id LIMIT ?`, businessId, afterId, limit)
  return rows.map((values) => {
    const row = pageShape.read(values)
    row.searchText = ''
    return row
  })
}

export async function listClients(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  search?: string,
): Promise<ClientRow[]> {
  const found = search ? sql`instr(${clients.searchText}, ${search.toLowerCase()}) > 0` : undefined
  return businessRowsAfter(q, clients, businessId, afterId, limit, found)
}

/**
 * Inserts a Client and answers the stored row: the values given (every column, so the row is exactly what was
 * stored) and the new id. Neither `returning()` nor a read after the insert: inside the serialized write transaction
 * each costs every create its mapping of every column back (the create bench fell from 0.6 to 0.4-0.47 of the
 * baseline insert with them).
 */
export async function insertClient(tx: Tx, row: Omit<ClientRow, 'id'>): Promise<ClientRow> {
  const done = await tx.insert(clients).values(row).run()
  return { id: Number(done.lastInsertRowid), ...row }
}

/** Inserts a Client and answers its id only: an import's rows are not read back (a whole row read back cost 2 ms). */
export async function insertClientId(tx: SqlTx, row: ClientInsert): Promise<number> {
  return (await tx.all<{ id: number }>(insertReturningId(clients, row)))[0]!.id
}

/** One Client by id, through the hot reader when there is one (after a commit, it sees the new row). */
export async function loadClient(db: Database, businessId: number, id: number): Promise<ClientRow | undefined> {
  if (db.hot) return clientById(db.hot, businessId, id)
  return findClient(db.read, businessId, id)
}

export async function updateClientRow(
  tx: Tx,
  businessId: number,
  id: number,
  set: Partial<ClientInsert>,
): Promise<ClientRow | undefined> {
  return updateBusinessRow(tx, clients, businessId, id, set)
}
