// SQL for Clients; every query is scoped by the Business.
import { and, asc, eq, gt, ne, sql } from 'drizzle-orm'
import type { Db, Queryable, Tx } from '../../db/client'
import { clients } from '../../db/schema'

export type ClientRow = typeof clients.$inferSelect
export type ClientInsert = typeof clients.$inferInsert

export function searchTextOf(c: Pick<ClientRow, 'name' | 'legalName' | 'email' | 'vatNumber' | 'accountCode'>): string {
  return [c.name, c.legalName, c.email, c.vatNumber, c.accountCode].filter(Boolean).join('\n').toLowerCase()
}

/** The hot read path (GET /v1/clients/{id}) as a prepared statement. */
export function clientByIdStatement(db: Db) {
  const stmt = db
    .select()
    .from(clients)
    .where(and(eq(clients.businessId, sql.placeholder('businessId')), eq(clients.id, sql.placeholder('id'))))
    .prepare()
  return (businessId: number, id: number): Promise<ClientRow | undefined> => stmt.get({ businessId, id })
}

export async function findClient(q: Queryable, businessId: number, id: number): Promise<ClientRow | undefined> {
  return q.select().from(clients).where(and(eq(clients.businessId, businessId), eq(clients.id, id))).get()
}

export async function listClients(q: Queryable, businessId: number, afterId: number, limit: number, search?: string): Promise<ClientRow[]> {
  const conds = [eq(clients.businessId, businessId), gt(clients.id, afterId)]
  if (search) conds.push(sql`instr(${clients.searchText}, ${search.toLowerCase()}) > 0`)
  return q.select().from(clients).where(and(...conds)).orderBy(asc(clients.id)).limit(limit)
}

export async function accountCodeHolder(q: Queryable, businessId: number, code: string, exceptId?: number): Promise<number | undefined> {
  const conds = [eq(clients.businessId, businessId), eq(clients.accountCode, code)]
  if (exceptId !== undefined) conds.push(ne(clients.id, exceptId))
  const row = await q.select({ id: clients.id }).from(clients).where(and(...conds)).get()
  return row?.id
}

export async function insertClient(tx: Tx, row: ClientInsert): Promise<ClientRow> {
  return tx.insert(clients).values(row).returning().get()
}

export async function updateClientRow(tx: Tx, businessId: number, id: number, set: Partial<ClientInsert>): Promise<ClientRow | undefined> {
  return tx.update(clients).set(set).where(and(eq(clients.businessId, businessId), eq(clients.id, id))).returning().get()
}
