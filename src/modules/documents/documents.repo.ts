// SQL for documents, their Lines and VAT bands; every query is scoped by the Business.
import { and, asc, count, eq, getTableColumns, gt, gte, inArray, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Database, Queryable, SqlTx, Tx } from '../../db/client'
import { isBusinessRow } from '../../platform/business-rows.repo'
import type { HotReader } from '../../db/hot'
import { hotSelect, hotShape } from '../../db/hot-shape'
import {
  clients,
  documentLines,
  documents,
  documentVatBands,
  type DocumentStatus,
  type DocumentType,
} from '../../db/schema'
import type { ResolvedLine } from './lines'
import type { Totals } from './totals'
import { countedPaymentSql } from './paid'

export type DocumentRow = typeof documents.$inferSelect
export type DocumentInsert = typeof documents.$inferInsert
export type LineRow = typeof documentLines.$inferSelect
export type BandRow = typeof documentVatBands.$inferSelect

// Minor units sit in NUMERIC columns as 64-bit integers; the driver (intMode number) refuses to read one past 2^53,
// so every read of a row takes them as text.
const asText = (c: SQLiteColumn) => sql<string>`CAST(${c} AS TEXT)`
const documentColumns = {
  ...getTableColumns(documents),
  netMinor: asText(documents.netMinor),
  vatMinor: asText(documents.vatMinor),
  totalMinor: asText(documents.totalMinor),
  paidMinor: asText(documents.paidMinor),
  netAccountingMinor: sql<string | null>`CAST(${documents.netAccountingMinor} AS TEXT)`,
  vatAccountingMinor: sql<string | null>`CAST(${documents.vatAccountingMinor} AS TEXT)`,
}
const bandColumns = {
  ...getTableColumns(documentVatBands),
  netMinor: asText(documentVatBands.netMinor),
  vatMinor: asText(documentVatBands.vatMinor),
  netAccountingMinor: sql<string | null>`CAST(${documentVatBands.netAccountingMinor} AS TEXT)`,
  vatAccountingMinor: sql<string | null>`CAST(${documentVatBands.vatAccountingMinor} AS TEXT)`,
}

// The same reads through the hot reader (db/hot-shape.ts), for the reads outside a transaction: a list page, one document.
const documentShape = hotShape<DocumentRow>(documentColumns)
const lineShape = hotShape<LineRow>(getTableColumns(documentLines))
const bandShape = hotShape<BandRow>(bandColumns)
const creditColumns = { id: documents.id, of: documents.creditedDocumentId }
const creditShape = hotShape<{ id: number; of: number | null }>(creditColumns)

type SearchFields = Pick<DocumentInsert, 'documentNumber' | 'notes' | 'clientSnapshot'>

/**
 * What search matches on a document: its number, notes and the Client name it was issued to, lower-cased here in JS
 * because SQLite's lower() folds ASCII letters only ("ÜBER" would stay "Über").
 */
export function documentSearchText(d: SearchFields): string {
  const name = d.clientSnapshot ? ((JSON.parse(d.clientSnapshot) as { name?: string }).name ?? null) : null
  return [d.documentNumber, d.notes, name].filter(Boolean).join('\n').toLowerCase()
}

export async function findDocument(
  q: Queryable,
  businessId: number,
  id: number,
  hot: HotReader | null = null,
): Promise<DocumentRow | undefined> {
  const where = isBusinessRow(documents, businessId, id)
  if (hot) return hotSelect(hot, documentShape, documents, where)[0]
  return q.select(documentColumns).from(documents).where(where).get()
}

/** The issued document a public page link opens. */
export async function findByPublicToken(q: Queryable, token: string): Promise<DocumentRow | undefined> {
  return q.select(documentColumns).from(documents).where(eq(documents.publicToken, token)).get()
}

export async function linesOf(
  q: Queryable,
  documentIds: number[],
  hot: HotReader | null = null,
): Promise<Map<number, LineRow[]>> {
  const out = new Map<number, LineRow[]>()
  if (documentIds.length === 0) return out
  const where = inArray(documentLines.documentId, documentIds)
  const rows = hot
    ? hotSelect(hot, lineShape, documentLines, where, 'ORDER BY "document_id", "position"')
    : await q
        .select()
        .from(documentLines)
        .where(where)
        .orderBy(asc(documentLines.documentId), asc(documentLines.position))
  for (const r of rows) (out.get(r.documentId) ?? out.set(r.documentId, []).get(r.documentId)!).push(r)
  return out
}

export async function bandsOf(
  q: Queryable,
  documentIds: number[],
  hot: HotReader | null = null,
): Promise<Map<number, BandRow[]>> {
  const out = new Map<number, BandRow[]>()
  if (documentIds.length === 0) return out
  const where = inArray(documentVatBands.documentId, documentIds)
  const rows = hot
    ? hotSelect(hot, bandShape, documentVatBands, where)
    : await q.select(bandColumns).from(documentVatBands).where(where)
  for (const r of rows) (out.get(r.documentId) ?? out.set(r.documentId, []).get(r.documentId)!).push(r)
  return out
}

export interface DocumentFilter {
  type?: DocumentType
  status?: DocumentStatus
  clientId?: number
  issueDateFrom?: string
  issueDateTo?: string
  search?: string
}

export async function listDocuments(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  f: DocumentFilter,
  hot: HotReader | null = null,
): Promise<DocumentRow[]> {
  const conds = [eq(documents.businessId, businessId), gt(documents.id, afterId)]
  if (f.type) conds.push(eq(documents.type, f.type))
  if (f.status) conds.push(eq(documents.status, f.status))
  if (f.clientId !== undefined) conds.push(eq(documents.clientId, f.clientId))
  if (f.issueDateFrom) conds.push(gte(documents.issueDate, f.issueDateFrom))
  if (f.issueDateTo) conds.push(lte(documents.issueDate, f.issueDateTo))
  if (f.search) {
    const needle = f.search.toLowerCase()
    // Number, notes and the Client's name (as issued, or as the Client now stands), in any case and any script: both
    // sides are lower-cased by JS, the stored ones when written.
    conds.push(
      sql`(instr(${documents.searchText}, ${needle}) > 0
        OR ${documents.clientId} IN (SELECT ${clients.id} FROM ${clients} WHERE ${clients.businessId} = ${businessId} AND instr(${clients.searchText}, ${needle}) > 0))`,
    )
  }
  const where = and(...conds)
  if (hot) return hotSelect(hot, documentShape, documents, where, 'ORDER BY "id" LIMIT ?', limit)
  return q.select(documentColumns).from(documents).where(where).orderBy(asc(documents.id)).limit(limit)
}

/** Invoices issued (not Drafts) with an issue date in the year. */
export async function invoicesIssuedInYear(q: Queryable, businessId: number, year: number): Promise<number> {
  const row = await q
    .select({ n: count() })
    .from(documents)
    .where(
      and(
        eq(documents.businessId, businessId),
        eq(documents.type, 'invoice'),
        ne(documents.status, 'draft'),
        isNotNull(documents.documentNumber),
        gte(documents.issueDate, `${year}-01-01`),
        lte(documents.issueDate, `${year}-12-31`),
      ),
    )
    .get()
  return row?.n ?? 0
}

export async function insertDocument(tx: Tx, row: DocumentInsert): Promise<DocumentRow> {
  return tx
    .insert(documents)
    .values({ ...row, searchText: documentSearchText(row) })
    .returning(documentColumns)
    .get()
}

/** Updates a document; a change to its number, notes or Client snapshot rewrites its search text in the same write. */
/** A reminder that went out: its facts, and one more in the document's count. */
export async function recordReminderRow(
  tx: Tx,
  businessId: number,
  id: number,
  at: string,
  lastReminded: string,
): Promise<void> {
  await tx
    .update(documents)
    .set({ lastRemindedAt: at, lastReminded, remindersSent: sql`${documents.remindersSent} + 1`, updatedAt: at })
    .where(isBusinessRow(documents, businessId, id))
}

export async function updateDocumentRow(
  tx: Tx,
  businessId: number,
  id: number,
  set: Partial<DocumentInsert>,
  onlyStatus?: DocumentStatus,
): Promise<DocumentRow | undefined> {
  const conds = [eq(documents.businessId, businessId), eq(documents.id, id)]
  if (onlyStatus) conds.push(eq(documents.status, onlyStatus))
  const keys = ['documentNumber', 'notes', 'clientSnapshot'] as const
  if (set.searchText === undefined && keys.some((k) => set[k] !== undefined)) {
    // The fields not being set are read as they stand, so a caller cannot leave the search text stale.
    const stored = keys.every((k) => set[k] !== undefined)
      ? undefined
      : await tx
          .select({
            documentNumber: documents.documentNumber,
            notes: documents.notes,
            clientSnapshot: documents.clientSnapshot,
          })
          .from(documents)
          .where(and(...conds))
          .get()
    const pick = <K extends (typeof keys)[number]>(k: K) => (set[k] !== undefined ? set[k] : stored?.[k]) ?? null
    set = {
      ...set,
      searchText: documentSearchText({
        documentNumber: pick('documentNumber'),
        notes: pick('notes'),
        clientSnapshot: pick('clientSnapshot'),
      }),
    }
  }
  return tx
    .update(documents)
    .set(set)
    .where(and(...conds))
    .returning(documentColumns)
    .get()
}

export async function replaceLines(tx: Tx, documentId: number, lines: ResolvedLine[], totals: Totals): Promise<void> {
  await tx.delete(documentLines).where(eq(documentLines.documentId, documentId))
  await tx.delete(documentVatBands).where(eq(documentVatBands.documentId, documentId))
  if (lines.length > 0) {
    await tx.insert(documentLines).values(lines.map((l, i) => ({ ...l, documentId, netAmount: totals.lineNets[i]! })))
  }
  if (totals.bands.length > 0) await tx.insert(documentVatBands).values(totals.bands.map((b) => ({ ...b, documentId })))
}

/** Writes the bands' figures in the accounting currency (extensions §16), at issue, before the document turns issued. */
export async function setBandsAccounting(
  tx: Tx,
  documentId: number,
  bands: {
    category: string
    rate: string
    vatAccounting: string
    netAccountingMinor: string
    vatAccountingMinor: string
  }[],
): Promise<void> {
  for (const b of bands) {
    await tx
      .update(documentVatBands)
      .set({
        vatAccounting: b.vatAccounting,
        netAccountingMinor: b.netAccountingMinor,
        vatAccountingMinor: b.vatAccountingMinor,
      })
      .where(
        and(
          eq(documentVatBands.documentId, documentId),
          eq(documentVatBands.category, b.category),
          eq(documentVatBands.rate, b.rate),
        ),
      )
  }
}

export async function deleteDraftRow(tx: Tx, businessId: number, id: number): Promise<boolean> {
  const r = await tx
    .delete(documents)
    .where(and(eq(documents.businessId, businessId), eq(documents.id, id), eq(documents.status, 'draft')))
    .returning({ id: documents.id })
  return r.length > 0
}

/** The sum in minor units, as exact text, of the completed Payments of these documents. */
export async function completedPaidMinor(tx: SqlTx, documentIds: number[]): Promise<string> {
  const rows = await tx.all<{ total: string | null }>(
    sql`SELECT CAST(sum(amount_minor) AS TEXT) AS total FROM payments WHERE document_id IN (${sql.join(
      documentIds.map((i) => sql`${i}`),
      sql`, `,
    )}) AND ${countedPaymentSql()}`,
  )
  return rows[0]?.total ?? '0'
}

/** Records the first view of a document; false when it was viewed before (the conditional update changes nothing). */
export async function markViewed(tx: Tx, id: number, viewedAt: string): Promise<boolean> {
  const first = await tx
    .update(documents)
    .set({ viewedAt })
    .where(and(eq(documents.id, id), isNull(documents.viewedAt)))
    .returning({ id: documents.id })
  return first.length > 0
}

/** What recording a Payment needs of its document: a narrow read in plain SQL (the hot write path). */
export interface PaymentTarget {
  id: number
  type: DocumentRow['type']
  status: DocumentRow['status']
  currency: string
  total: string
  amountPaid: string
  proformaId: number | null
  convertedIntoId: number | null
  documentNumber: string | null
  issueDate: string | null
  clientId: number
}

const PAYMENT_TARGET_COLUMNS = `id, type, status, currency, total, amount_paid AS amountPaid, proforma_id AS proformaId,
  converted_into_id AS convertedIntoId, document_number AS documentNumber, issue_date AS issueDate, client_id AS clientId`

export async function findPaymentTarget(q: SqlTx, businessId: number, id: number): Promise<PaymentTarget | undefined> {
  const rows = await q.all<PaymentTarget>(
    sql`SELECT ${sql.raw(PAYMENT_TARGET_COLUMNS)} FROM documents WHERE business_id = ${businessId} AND id = ${id}`,
  )
  return rows[0]
}

/**
 * The document a Payment names, read before the write transaction (to answer 404 and judge the fields early): through
 * the hot reader when there is one, about 10 µs against about 100 µs for the same read through @libsql/client. The
 * transaction reads it again and judges what it reads there.
 */
export async function readPaymentTarget(
  db: Database,
  businessId: number,
  id: number,
): Promise<PaymentTarget | undefined> {
  if (db.hot)
    return db.hot.get<PaymentTarget>(
      `SELECT ${PAYMENT_TARGET_COLUMNS} FROM documents WHERE business_id = ? AND id = ?`,
      businessId,
      id,
    )
  return findPaymentTarget(db.read, businessId, id)
}

/** Writes the settled amount and status without reading the row back. */
export async function writeSettlement(
  tx: SqlTx,
  id: number,
  amountPaid: string,
  paidMinor: string,
  status: string,
  updatedAt: string,
): Promise<void> {
  await tx.run(
    sql`UPDATE documents SET amount_paid = ${amountPaid}, paid_minor = ${paidMinor}, status = ${status}, updated_at = ${updatedAt} WHERE id = ${id}`,
  )
}

/** Whether another document of the Business holds this payment reference already (references are unique in it). */
export async function paymentReferenceTaken(tx: Tx, businessId: number, ref: string): Promise<boolean> {
  const row = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.businessId, businessId), eq(documents.paymentReference, ref)))
    .get()
  return row !== undefined
}

/**
 * Issued documents of the Business named by any of these payment references or document numbers (a bank entry's
 * remittance read for them): at most a few per entry, found through the two unique indexes.
 */
export async function documentsNamed(
  q: SqlTx,
  businessId: number,
  references: string[],
  numbers: string[],
): Promise<Array<{ id: number; paymentReference: string | null; documentNumber: string | null }>> {
  if (references.length === 0 && numbers.length === 0) return []
  const byRef = references.length
    ? sql`payment_reference IN (${sql.join(
        references.map((r) => sql`${r}`),
        sql`, `,
      )})`
    : sql`0`
  const byNumber = numbers.length
    ? sql`document_number IN (${sql.join(
        numbers.map((n) => sql`${n}`),
        sql`, `,
      )})`
    : sql`0`
  return q.all(
    sql`SELECT id, payment_reference AS paymentReference, document_number AS documentNumber FROM documents WHERE business_id = ${businessId} AND (${byRef} OR ${byNumber})`,
  )
}

/** A Credit Note's amount refunded (extensions §20), as its completed Refunds now sum. */
export async function writeAmountRefunded(
  tx: Tx,
  id: number,
  amountRefunded: string,
  updatedAt: string,
): Promise<void> {
  await tx.update(documents).set({ amountRefunded, updatedAt }).where(eq(documents.id, id))
}

/** The Credit Notes (Drafts included) that credit each of `ids`, oldest first. */
export async function creditNoteIdsOf(
  q: Queryable,
  businessId: number,
  ids: number[],
  hot: HotReader | null = null,
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>()
  if (ids.length === 0) return out
  const where = and(eq(documents.businessId, businessId), inArray(documents.creditedDocumentId, ids))
  const rows = hot
    ? hotSelect(hot, creditShape, documents, where, 'ORDER BY "id"')
    : await q.select(creditColumns).from(documents).where(where).orderBy(asc(documents.id))
  for (const r of rows) (out.get(r.of!) ?? out.set(r.of!, []).get(r.of!)!).push(r.id)
  return out
}

/** How many Lines of the Business's newest `limit` documents use each VAT rate above 0 (rates as stored: "19.00"). */
export async function lineVatRateCounts(
  q: Queryable,
  businessId: number,
  limit: number,
): Promise<Array<{ rate: string; uses: number }>> {
  return q.all<{ rate: string; uses: number }>(
    sql`SELECT vat_rate AS rate, count(*) AS uses FROM document_lines
        WHERE document_id IN (SELECT id FROM documents WHERE business_id = ${businessId} ORDER BY id DESC LIMIT ${limit})
          AND CAST(vat_rate AS REAL) > 0
        GROUP BY vat_rate`,
  )
}
