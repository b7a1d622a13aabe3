// SQL for Clients; every query is scoped by the Business.
import { and, asc, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm'
import type { Database, Db, Queryable, Tx } from '../../db/client'
import type { HotReader } from '../../db/hot'
import { hotSelect, hotShape } from '../../db/hot-shape'
import { clients } from '../../db/schema'

export type ClientRow = typeof clients.$inferSelect
export type ClientInsert = typeof clients.$inferInsert

export function searchTextOf(c: Pick<ClientRow, 'name' | 'legalName' | 'email' | 'vatNumber' | 'accountCode'>): string {
  return [c.name, c.legalName, c.email, c.vatNumber, c.accountCode].filter(Boolean).join('\n').toLowerCase()
}

type RawClient = Record<string, unknown>

/** A row read by the hot reader (snake_case, 0/1 booleans) in the shape drizzle gives. */
function clientFromRaw(r: RawClient): ClientRow {
  return {
    id: r.id as number,
    businessId: r.business_id as number,
    name: r.name as string,
    legalName: r.legal_name as string | null,
    contactPerson: r.contact_person as string | null,
    email: r.email as string | null,
    phone: r.phone as string | null,
    address: r.address as string | null,
    city: r.city as string | null,
    postalCode: r.postal_code as string | null,
    country: r.country as string,
    vatNumber: r.vat_number as string | null,
    vatVerified: r.vat_verified === 1,
    accountCode: r.account_code as string | null,
    currency: r.currency as string,
    paymentTerms: r.payment_terms as number,
    isActive: r.is_active === 1,
    creditLimit: r.credit_limit as string | null,
    notes: r.notes as string | null,
    preferredBankAccountIds: r.preferred_bank_account_ids as string,
    // `?? null`: a row read without these columns still answers them as absent.
    electronicAddressScheme: (r.electronic_address_scheme as string | null) ?? null,
    electronicAddress: (r.electronic_address as string | null) ?? null,
    buyerReference: (r.buyer_reference as string | null) ?? null,
    searchText: r.search_text as string,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  }
}

/** The hot read path (GET /v1/clients/{id}): the driver's prepared statement when there is one, else drizzle's. */
export function clientByIdStatement(db: Db, hot: HotReader | null = null) {
  if (hot) {
    return async (businessId: number, id: number): Promise<ClientRow | undefined> => {
      const r = hot.get<RawClient>('SELECT * FROM clients WHERE business_id = ? AND id = ?', businessId, id)
      return r ? clientFromRaw(r) : undefined
    }
  }
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

const clientShape = hotShape<ClientRow>(getTableColumns(clients))

/** The Business's Clients among `ids`, in one query (a page of documents names up to 100 of them). */
export async function findClients(q: Queryable, businessId: number, ids: number[], hot: HotReader | null = null): Promise<Map<number, ClientRow>> {
  if (ids.length === 0) return new Map()
  const where = and(eq(clients.businessId, businessId), inArray(clients.id, [...new Set(ids)]))
  const rows = hot ? hotSelect(hot, clientShape, clients, where) : await q.select().from(clients).where(where)
  return new Map(rows.map((r) => [r.id, r]))
}

// Every column but search_text (long, and never answered), in this order, for pages read as arrays.
const PAGE_COLUMNS = [
  'id', 'business_id', 'name', 'legal_name', 'contact_person', 'email', 'phone', 'address', 'city', 'postal_code', 'country',
  'vat_number', 'vat_verified', 'account_code', 'currency', 'payment_terms', 'is_active', 'credit_limit', 'notes',
  'preferred_bank_account_ids', 'created_at', 'updated_at', 'electronic_address_scheme', 'electronic_address', 'buyer_reference',
] as const
const PAGE_SELECT = `SELECT ${PAGE_COLUMNS.join(', ')} FROM clients`

/** A page of Clients through the hot reader (the list is the API's heaviest common read). */
export function listClientsHot(hot: HotReader, businessId: number, afterId: number, limit: number, search?: string): ClientRow[] {
  const rows = search
    ? hot.rows(`${PAGE_SELECT} WHERE business_id = ? AND id > ? AND instr(search_text, ?) > 0 ORDER BY id LIMIT ?`, businessId, afterId, search.toLowerCase(), limit)
    : hot.rows(`${PAGE_SELECT} WHERE business_id = ? AND id > ? ORDER BY id LIMIT ?`, businessId, afterId, limit)
  return rows.map((values) => {
    const r: RawClient = { search_text: '' }
    PAGE_COLUMNS.forEach((c, i) => (r[c] = values[i]))
    return clientFromRaw(r)
  })
}

export async function listClients(q: Queryable, businessId: number, afterId: number, limit: number, search?: string): Promise<ClientRow[]> {
  const conds = [eq(clients.businessId, businessId), gt(clients.id, afterId)]
  if (search) conds.push(sql`instr(${clients.searchText}, ${search.toLowerCase()}) > 0`)
  return q.select().from(clients).where(and(...conds)).orderBy(asc(clients.id)).limit(limit)
}

/** Inserts and gives the new id; `returning()` would cost ~250 µs more in mapping every column back. */
export async function insertClient(tx: Tx, row: ClientInsert): Promise<number> {
  const r = await tx.insert(clients).values(row)
  return Number(r.lastInsertRowid)
}

/** One Client by id, through the hot reader when there is one (after a commit, it sees the new row). */
export async function loadClient(db: Database, businessId: number, id: number): Promise<ClientRow | undefined> {
  if (db.hot) {
    const r = db.hot.get<RawClient>('SELECT * FROM clients WHERE business_id = ? AND id = ?', businessId, id)
    return r ? clientFromRaw(r) : undefined
  }
  return findClient(db.read, businessId, id)
}

export async function updateClientRow(tx: Tx, businessId: number, id: number, set: Partial<ClientInsert>): Promise<ClientRow | undefined> {
  return tx.update(clients).set(set).where(and(eq(clients.businessId, businessId), eq(clients.id, id))).returning().get()
}
