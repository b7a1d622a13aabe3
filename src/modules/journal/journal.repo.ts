// SQL of the journal: its entries (appended only), and the records they speak of, read as they stand.
import { sql } from 'drizzle-orm'
import type { SqlTx } from '../../db/client'
import type { RowReader } from '../../db/snapshot'
import type { BandRecordRow, BusinessRecordRow, DocumentRecordRow, LineRecordRow, PaymentRecordRow } from './records'

export interface EntryRow {
  seq: number
  at: string
  kind: string
  record_type: string
  record_id: number
  record_number: string | null
  data: string
  prev_hash: string
  hash: string
}

export interface Head {
  seq: number
  hash: string
  at: string
}

export async function headOf(tx: SqlTx, businessId: number): Promise<Head | undefined> {
  return (
    await tx.all<Head>(
      sql`SELECT seq, hash, at FROM journal_entries WHERE business_id = ${businessId} ORDER BY seq DESC LIMIT 1`,
    )
  )[0]
}

export async function insertEntry(tx: SqlTx, businessId: number, e: EntryRow): Promise<void> {
  await tx.run(
    sql`INSERT INTO journal_entries (business_id, seq, at, kind, record_type, record_id, record_number, data, prev_hash, hash)
        VALUES (${businessId}, ${e.seq}, ${e.at}, ${e.kind}, ${e.record_type}, ${e.record_id}, ${e.record_number}, ${e.data}, ${e.prev_hash}, ${e.hash})`,
  )
}

const ENTRY_COLUMNS = 'seq, at, kind, record_type, record_id, record_number, data, prev_hash, hash'

/** Entries after `afterSeq`, oldest first. */
export function entryPage(r: RowReader, businessId: number, afterSeq: number, limit: number): Promise<EntryRow[]> {
  return r.all<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM journal_entries WHERE business_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    [businessId, afterSeq, limit],
  )
}

/** Entries as entryPage reads them, read as arrays: verify walks every entry, and an object per row was a third of it. */
export async function entryRows(
  r: RowReader,
  businessId: number,
  afterSeq: number,
  limit: number,
): Promise<EntryRow[]> {
  const rows = await r.rows(
    `SELECT ${ENTRY_COLUMNS} FROM journal_entries WHERE business_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    [businessId, afterSeq, limit],
  )
  return rows.map((c) => ({
    seq: c[0] as number,
    at: c[1] as string,
    kind: c[2] as string,
    record_type: c[3] as string,
    record_id: c[4] as number,
    record_number: c[5] as string | null,
    data: c[6] as string,
    prev_hash: c[7] as string,
    hash: c[8] as string,
  }))
}

/**
 * The newest seq of each record that has more than one entry (a Payment amended, a document cancelled), keyed
 * `type:id`: one pass over the record index, where a seek per entry cost verify more. Any other entry is its
 * record's newest.
 */
export async function newestOfRecordsWithSeveral(r: RowReader, businessId: number): Promise<Map<string, number>> {
  const rows = await r.rows(
    `SELECT record_type, record_id, max(seq) FROM journal_entries WHERE business_id = ?
     GROUP BY record_type, record_id HAVING count(*) > 1`,
    [businessId],
  )
  return new Map(rows.map((c) => [`${c[0]}:${c[1]}`, c[2] as number]))
}

/** The head of every Business's chain (those with entries), by Business. */
export function allHeads(r: RowReader): Promise<(Head & { business_id: number; public_id: string })[]> {
  return r.all(
    `SELECT e.business_id, b.public_id, e.seq, e.hash, e.at FROM journal_entries e
     JOIN (SELECT business_id, max(seq) AS seq FROM journal_entries GROUP BY business_id) h
       ON h.business_id = e.business_id AND h.seq = e.seq
     JOIN businesses b ON b.id = e.business_id
     ORDER BY e.business_id`,
  )
}

export async function publicIdOf(r: RowReader, businessId: number): Promise<string | null> {
  return (
    (await r.all<{ public_id: string }>('SELECT public_id FROM businesses WHERE id = ?', [businessId]))[0]?.public_id ??
    null
  )
}

export function businessIdsWithEntries(r: RowReader): Promise<{ business_id: number }[]> {
  return r.all('SELECT DISTINCT business_id FROM journal_entries ORDER BY business_id')
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',')

export interface DocumentRecord {
  doc: DocumentRecordRow
  lines: LineRecordRow[]
  bands: BandRecordRow[]
}

const DOCUMENT_COLUMNS = `id, type, document_number, issue_date, due_date, delivery_date, currency, client_snapshot,
  seller_snapshot, buyer_reference, order_reference, notes, proforma_id, credited_document_id, net_total, vat_total, total`

/** Issued documents of a Business by id, with their Lines and VAT bands; a Draft or another Business's is absent. */
export async function documentRecords(
  r: RowReader,
  businessId: number,
  ids: number[],
): Promise<Map<number, DocumentRecord>> {
  const out = new Map<number, DocumentRecord>()
  if (ids.length === 0) return out
  const docs = await r.all<DocumentRecordRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE business_id = ? AND status <> 'draft' AND id IN (${marks(ids.length)})`,
    [businessId, ...ids],
  )
  if (docs.length === 0) return out
  for (const d of docs) out.set(d.id, { doc: d, lines: [], bands: [] })
  const found = docs.map((d) => d.id)
  const lines = await r.all<LineRecordRow & { document_id: number }>(
    `SELECT document_id, id, position, description, quantity, unit, unit_price, vat_rate, vat_category,
       vat_exemption_code, notes, net_amount FROM document_lines WHERE document_id IN (${marks(found.length)})`,
    found,
  )
  for (const l of lines) out.get(l.document_id)!.lines.push(l)
  const bands = await r.all<BandRecordRow & { document_id: number }>(
    `SELECT document_id, category, rate, net, vat FROM document_vat_bands WHERE document_id IN (${marks(found.length)})`,
    found,
  )
  for (const b of bands) out.get(b.document_id)!.bands.push(b)
  return out
}

/** Payments of a Business by id, with their document's number and their Receipt's. */
export async function paymentRecords(
  r: RowReader,
  businessId: number,
  ids: number[],
): Promise<Map<number, PaymentRecordRow>> {
  const out = new Map<number, PaymentRecordRow>()
  if (ids.length === 0) return out
  const rows = await r.all<PaymentRecordRow>(
    `SELECT p.id, p.amount, p.currency, p.payment_date, p.payment_method, p.status, p.document_id,
       d.document_number, r.receipt_number
     FROM payments p LEFT JOIN documents d ON d.id = p.document_id LEFT JOIN receipts r ON r.payment_id = p.id
     WHERE p.business_id = ? AND p.id IN (${marks(ids.length)})`,
    [businessId, ...ids],
  )
  for (const p of rows) out.set(p.id, p)
  return out
}

export async function businessRecord(r: RowReader, businessId: number): Promise<BusinessRecordRow | undefined> {
  return (
    await r.all<BusinessRecordRow>(
      `SELECT name, legal_name, vat_number, is_vat_payer, company_id, email, address, city, postal_code, country,
         electronic_address_scheme, electronic_address, contact_name, contact_phone, contact_email, tax_registration_id
       FROM businesses WHERE id = ?`,
      [businessId],
    )
  )[0]
}

// ---- The entries of what a Business had before the journal (migrations/0024_journal.sql)

export function businessesToBackfill(r: RowReader): Promise<{ business_id: number }[]> {
  return r.all('SELECT business_id FROM journal_backfill ORDER BY business_id')
}

/** Claims a Business's backfill inside the write transaction that makes its entries: false when another did it. */
export async function claimBackfill(tx: SqlTx, businessId: number): Promise<boolean> {
  const r = await tx.run(sql`DELETE FROM journal_backfill WHERE business_id = ${businessId}`)
  return r.rowsAffected > 0
}

/** What happened before the journal, oldest first: issues, cancellations, Payments and their reversals. */
export async function pastEvents(
  r: RowReader,
  businessId: number,
): Promise<{ at: string; kind: string; id: number }[]> {
  // A document's issue is dated by its issue date (the moment is not kept), a cancellation and a reversal by the
  // row's last change, a Payment by its recording. Ties keep the order the records were made in.
  return r.all(
    `SELECT at, kind, id FROM (
       SELECT issue_date || 'T00:00:00.000Z' AS at, 'document.issued' AS kind, id, 0 AS rank FROM documents
         WHERE business_id = ? AND status <> 'draft' AND document_number IS NOT NULL
       UNION ALL
       SELECT updated_at, 'document.cancelled', id, 1 FROM documents WHERE business_id = ? AND status = 'cancelled'
         AND document_number IS NOT NULL
       UNION ALL
       SELECT created_at, 'payment.recorded', id, 2 FROM payments WHERE business_id = ?
       UNION ALL
       SELECT updated_at, 'payment.reversed', id, 3 FROM payments WHERE business_id = ? AND status = 'voided'
     ) ORDER BY at, rank, id`,
    [businessId, businessId, businessId, businessId],
  )
}
