// SQL for Products; every query is scoped by the Business and skips deleted Products.
import { and, asc, eq, gt, isNull, isNotNull, lt, sql } from 'drizzle-orm'
import type { Database, Queryable, SqlTx, Tx } from '../../db/client'
import { insertReturningId } from '../../db/insert-sql'
import { products } from '../../db/schema'

export type ProductRow = typeof products.$inferSelect
export type ProductInsert = typeof products.$inferInsert

export function searchTextOf(p: Pick<ProductRow, 'name' | 'code' | 'sku' | 'description'>): string {
  return [p.name, p.code, p.sku, p.description].filter(Boolean).join('\n').toLowerCase()
}

const live = (businessId: number) => and(eq(products.businessId, businessId), isNull(products.deletedAt))

export async function findProduct(q: Queryable, businessId: number, id: number): Promise<ProductRow | undefined> {
  return q
    .select()
    .from(products)
    .where(and(live(businessId), eq(products.id, id)))
    .get()
}

export async function listProducts(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  search?: string,
): Promise<ProductRow[]> {
  const conds = [live(businessId), gt(products.id, afterId)]
  if (search) conds.push(sql`instr(${products.searchText}, ${search.toLowerCase()}) > 0`)
  return q
    .select()
    .from(products)
    .where(and(...conds))
    .orderBy(asc(products.id))
    .limit(limit)
}

export async function codeHolder(
  q: SqlTx,
  businessId: number,
  code: string,
  exceptId = 0,
): Promise<number | undefined> {
  // Plain SQL, so an import's rows ask it through the prepared writer too (drizzle's builder needs its own session).
  const rows = await q.all<{ id: number }>(
    sql`SELECT id FROM products WHERE business_id = ${businessId} AND deleted_at IS NULL AND code = ${code} AND id <> ${exceptId} LIMIT 1`,
  )
  return rows[0]?.id
}

/** The id the next insert will get: AUTOINCREMENT ids come from sqlite_sequence; read inside the writing transaction. */
export async function nextProductId(tx: SqlTx): Promise<number> {
  // .all, not .get: drizzle's libSQL get() throws on an empty result for raw SQL.
  const rows = await tx.all<{ seq: number }>(sql`SELECT seq FROM sqlite_sequence WHERE name = 'products'`)
  return (rows[0]?.seq ?? 0) + 1
}

export async function insertProduct(tx: Tx, row: ProductInsert): Promise<ProductRow> {
  return tx.insert(products).values(row).returning().get()
}

/** Inserts a Product and answers its id only: an import's rows are not read back. */
export async function insertProductId(tx: SqlTx, row: ProductInsert): Promise<number> {
  return (await tx.all<{ id: number }>(insertReturningId(products, row)))[0]!.id
}

export async function updateProductRow(
  tx: Tx,
  businessId: number,
  id: number,
  set: Partial<ProductInsert>,
): Promise<ProductRow | undefined> {
  return tx
    .update(products)
    .set(set)
    .where(and(live(businessId), eq(products.id, id)))
    .returning()
    .get()
}

/** Hides a Product at once; true when there was one to hide. */
export async function markDeleted(tx: Tx, businessId: number, id: number, at: string): Promise<boolean> {
  const r = await tx
    .update(products)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(live(businessId), eq(products.id, id)))
    .returning({ id: products.id })
  return r.length > 0
}

/** Erases for good the Products deleted before `before` (the 30-day job). */
export async function eraseDeletedBefore(db: Database, before: string): Promise<number> {
  return db.write(async (tx) => {
    const r = await tx
      .delete(products)
      .where(and(isNotNull(products.deletedAt), lt(products.deletedAt, before)))
      .returning({ id: products.id })
    return r.length
  })
}

/** How many of the Business's newest `limit` live Products use each VAT rate above 0 (rates as stored: "19.00"). */
export async function productVatRateCounts(
  q: Queryable,
  businessId: number,
  limit: number,
): Promise<Array<{ rate: string; uses: number }>> {
  return q.all<{ rate: string; uses: number }>(
    sql`SELECT vat_rate AS rate, count(*) AS uses FROM (
          SELECT vat_rate FROM products WHERE business_id = ${businessId} AND deleted_at IS NULL
          ORDER BY id DESC LIMIT ${limit})
        WHERE CAST(vat_rate AS REAL) > 0 GROUP BY vat_rate`,
  )
}
