// The journal (extensions §17): entries appended inside the change's own write transaction, the chain verified
// against itself and against the records as they stand, exported as JSON Lines, and filled for older databases.
import type { Database, SqlTx } from '../../db/client'
import { txReader, withSnapshot, type RowReader } from '../../db/snapshot'
import type { Clock } from '../../shared/clock'
import { canonical, entryAt, entryHash, entryText, GENESIS, type Entry, type EntryKind, type RecordType } from './chain'
import {
  allHeads,
  businessIdsWithEntries,
  businessesToBackfill,
  businessRecord,
  claimBackfill,
  documentRecords,
  entryPage,
  entryRows,
  headOf,
  insertEntry,
  newestOfRecordsWithSeveral,
  pastEvents,
  publicIdOf,
  paymentRecords,
  type DocumentRecord,
  type EntryRow,
} from './journal.repo'
import { businessData, documentData, paymentDataText, type PaymentRecordRow } from './records'
import { nextTurn } from '../../shared/turns'

/**
 * Appends one entry at the head of the Business's chain. Inside the write transaction (BEGIN IMMEDIATE), so no
 * other writer of any process reads the same head; the primary key (business, seq) refuses a fork regardless.
 */
async function append(
  tx: SqlTx,
  businessId: number,
  at: string,
  kind: EntryKind,
  record: { type: RecordType; id: number; number: string | null },
  text: string,
): Promise<void> {
  const head = await headOf(tx, businessId)
  const seq = (head?.seq ?? 0) + 1
  const prev = head?.hash ?? GENESIS
  const hash = entryHash(prev, entryText(seq, at, kind, record, text, prev))
  await insertEntry(tx, businessId, {
    seq,
    at,
    kind,
    record_type: record.type,
    record_id: record.id,
    record_number: record.number,
    data: text,
    prev_hash: prev,
    hash,
  })
}

/** The entry of a document issued or cancelled, read in `tx` as the change left it. */
export async function journalDocument(
  tx: SqlTx,
  clock: Clock,
  businessId: number,
  kind: 'document.issued' | 'document.cancelled',
  id: number,
): Promise<void> {
  const found = (await documentRecords(txReader(tx), businessId, [id])).get(id)
  if (!found) throw new Error(`journal: document ${id} is not issued`)
  const data = documentData(found.doc, found.lines, found.bands)
  await append(
    tx,
    businessId,
    entryAt(clock.now()),
    kind,
    { type: 'document', id, number: data.number },
    canonical(data),
  )
}

/** The entry of a Payment recorded, from what the caller has just written (the Payment path reads nothing more). */
export async function journalPayment(
  tx: SqlTx,
  clock: Clock,
  businessId: number,
  kind: 'payment.recorded' | 'payment.amended' | 'payment.reversed',
  payment: PaymentRecordRow,
): Promise<void> {
  await append(
    tx,
    businessId,
    entryAt(clock.now()),
    kind,
    { type: 'payment', id: payment.id, number: payment.receipt_number },
    paymentDataText(payment),
  )
}

/** The entry of a Payment amended or reversed, read in `tx` as the change left it. */
export async function journalPaymentChange(
  tx: SqlTx,
  clock: Clock,
  businessId: number,
  kind: 'payment.amended' | 'payment.reversed',
  id: number,
): Promise<void> {
  const p = (await paymentRecords(txReader(tx), businessId, [id])).get(id)
  if (!p) throw new Error(`journal: no Payment ${id}`)
  await journalPayment(tx, clock, businessId, kind, p)
}

/** The seller's details as the journal writes them (canonical JSON), for a change to compare before and after. */
export async function sellerDetails(tx: SqlTx, businessId: number): Promise<string | null> {
  const b = await businessRecord(txReader(tx), businessId)
  return b ? canonical(businessData(b)) : null
}

/** A business.changed entry when the seller's details differ from `before` (sellerDetails before the change). */
export async function journalSellerChange(
  tx: SqlTx,
  clock: Clock,
  businessId: number,
  before: string | null,
): Promise<void> {
  const b = await businessRecord(txReader(tx), businessId)
  if (!b) return
  const text = canonical(businessData(b))
  if (text === before) return
  await append(
    tx,
    businessId,
    entryAt(clock.now()),
    'business.changed',
    { type: 'business', id: businessId, number: null },
    text,
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export function entryOf(r: EntryRow): Entry {
  return {
    seq: r.seq,
    at: r.at,
    kind: r.kind as EntryKind,
    record: { type: r.record_type as RecordType, id: r.record_id, number: r.record_number },
    data: JSON.parse(r.data) as Record<string, unknown>,
    prev_hash: r.prev_hash,
    hash: r.hash,
  }
}

export async function listEntries(db: Database, businessId: number, afterSeq: number, limit: number) {
  return (await withReader(db, (r) => entryPage(r, businessId, afterSeq, limit))).map(entryOf)
}

/** The head of the Business's chain now: what an auditor notes (seq 0 and 64 zeros while it is empty). */
export async function chainHead(
  db: Database,
  businessId: number,
): Promise<{ seq: number; hash: string; at: string | null }> {
  const head = await headOf(db.read as unknown as SqlTx, businessId)
  return head ?? { seq: 0, hash: GENESIS, at: null }
}

/** The reader for short reads: the server's own reader, no snapshot of its own. */
function withReader<T>(db: Database, fn: (r: RowReader) => Promise<T>): Promise<T> {
  return fn(txReader(db.read as unknown as SqlTx))
}

export type VerifyReason = 'entry_changed' | 'entry_removed' | 'chain_broken' | 'record_changed'

export interface Verdict {
  ok: boolean
  entries: number
  head: { seq: number; hash: string; at: string | null }
  first_bad_seq: number | null
  reason: VerifyReason | null
}

const VERIFY_PAGE = 2000

/**
 * Walks the Business's chain oldest first over one snapshot: each entry's seq follows the last, its prev_hash is the
 * last one's hash, its hash is its own content's; and each record's newest entry still says what the record says
 * now. The first problem (lowest seq) is the answer; the walk goes on to the head to count and name it.
 */
export async function verifyChain(r: RowReader, businessId: number): Promise<Verdict> {
  let prev = GENESIS
  let expected = 1
  let entries = 0
  let head: Verdict['head'] = { seq: 0, hash: GENESIS, at: null }
  let bad: { seq: number; reason: VerifyReason } | null = null
  let after = 0
  const several = await newestOfRecordsWithSeveral(r, businessId)
  for (;;) {
    const page = await entryRows(r, businessId, after, VERIFY_PAGE)
    if (page.length === 0) break
    const newest: EntryRow[] = []
    for (const e of page) {
      entries++
      if (bad === null) {
        if (e.seq !== expected) bad = { seq: expected, reason: 'entry_removed' }
        else if (e.prev_hash !== prev) bad = { seq: e.seq, reason: 'chain_broken' }
        else {
          const record = { type: e.record_type as RecordType, id: e.record_id, number: e.record_number }
          if (entryHash(e.prev_hash, entryText(e.seq, e.at, e.kind, record, e.data, e.prev_hash)) !== e.hash)
            bad = { seq: e.seq, reason: 'entry_changed' }
          else if ((several.get(`${e.record_type}:${e.record_id}`) ?? e.seq) === e.seq) newest.push(e)
        }
      }
      prev = e.hash
      expected = e.seq + 1
      head = { seq: e.seq, hash: e.hash, at: e.at }
    }
    after = page[page.length - 1]!.seq
    // A served verify of a long chain lets other requests in between its pages (shared/turns.ts).
    await nextTurn()
    if (newest.length > 0) {
      const changed = await firstChangedRecord(r, businessId, newest)
      if (changed !== null && (bad === null || changed < bad.seq)) bad = { seq: changed, reason: 'record_changed' }
    }
  }
  return { ok: bad === null, entries, head, first_bad_seq: bad?.seq ?? null, reason: bad?.reason ?? null }
}

/** The lowest seq among these newest entries whose record no longer gives the entry's data (or is gone). */
async function firstChangedRecord(r: RowReader, businessId: number, newest: EntryRow[]): Promise<number | null> {
  const ids = (type: string) => newest.filter((e) => e.record_type === type).map((e) => e.record_id)
  const docs = await documentRecords(r, businessId, ids('document'))
  const pays = await paymentRecords(r, businessId, ids('payment'))
  const seller = newest.some((e) => e.record_type === 'business') ? await businessRecord(r, businessId) : undefined
  for (const e of newest) {
    // What the record says now, as the canonical text its entry holds; undefined when the record is gone.
    let now: string | undefined
    if (e.record_type === 'document') {
      const d = docs.get(e.record_id)
      now = d && canonical(documentData(d.doc, d.lines, d.bands))
    } else if (e.record_type === 'payment') {
      const p = pays.get(e.record_id)
      now = p && paymentDataText(p)
    } else if (e.record_type === 'business') {
      now = e.record_id === businessId && seller ? canonical(businessData(seller)) : undefined
    }
    if (now !== e.data) return e.seq
  }
  return null
}

export function verifyBusiness(db: Database, businessId: number): Promise<Verdict> {
  return withSnapshot(db, (r) => verifyChain(r, businessId))
}

/** Every Business with entries, verified over one snapshot. */
export function verifyAll(
  db: Database,
  only?: number,
): Promise<{ business_id: number; public_id: string | null; verdict: Verdict }[]> {
  return withSnapshot(db, async (r) => {
    const out: { business_id: number; public_id: string | null; verdict: Verdict }[] = []
    const ids = only === undefined ? (await businessIdsWithEntries(r)).map((b) => b.business_id) : [only]
    for (const id of ids)
      out.push({ business_id: id, public_id: await publicIdOf(r, id), verdict: await verifyChain(r, id) })
    return out
  })
}

/** Writes each entry as one line of canonical JSON (hash included) through `write`, oldest first, over one snapshot. */
export function exportEntries(db: Database, businessId: number, write: (line: string) => void): Promise<number> {
  return withSnapshot(db, async (r) => {
    let after = 0
    let n = 0
    for (;;) {
      const page = await entryPage(r, businessId, after, VERIFY_PAGE)
      if (page.length === 0) return n
      for (const e of page) {
        const record = { type: e.record_type as RecordType, id: e.record_id, number: e.record_number }
        const text = entryText(e.seq, e.at, e.kind, record, e.data, e.prev_hash)
        // The entry without its hash is canonical; `hash` sorts last of its keys, so it is appended before the brace.
        write(`${text.slice(0, -1)},"hash":${JSON.stringify(e.hash)}}`)
        n++
      }
      after = page[page.length - 1]!.seq
    }
  })
}

/** The head of every Business's chain, read from a database file (a backup's copy) or the live one. */
export function headsOf(r: RowReader) {
  return allHeads(r)
}

// ---------------------------------------------------------------------------------------------------------------
// Databases from before the journal

/**
 * Gives each Business listed by migration 0024 the entries of what it had issued and recorded, in the order it
 * happened, in one write transaction per Business (claimed in it: two processes starting at once fill it once).
 * A Payment reversed since is recorded as it was then (completed) and reversed after.
 */
export async function backfillJournal(db: Database, clock: Clock): Promise<number> {
  // Asked at every start: a plain read on the writer's connection (Database.plain).
  const waiting = await db.plain((s) => businessesToBackfill(txReader(s)))
  let filled = 0
  for (const { business_id: businessId } of waiting) {
    await db.writePrepared(async (tx) => {
      if (!(await claimBackfill(tx, businessId))) return
      const r = txReader(tx)
      const events = await pastEvents(r, businessId)
      const docIds = [...new Set(events.filter((e) => e.kind.startsWith('document.')).map((e) => e.id))]
      const payIds = [...new Set(events.filter((e) => e.kind.startsWith('payment.')).map((e) => e.id))]
      const docs = new Map<number, DocumentRecord>()
      for (let i = 0; i < docIds.length; i += 500)
        for (const [k, v] of await documentRecords(r, businessId, docIds.slice(i, i + 500))) docs.set(k, v)
      const pays = new Map<number, PaymentRecordRow>()
      for (let i = 0; i < payIds.length; i += 500)
        for (const [k, v] of await paymentRecords(r, businessId, payIds.slice(i, i + 500))) pays.set(k, v)
      for (const e of events) {
        const at = entryAt(new Date(e.at))
        if (e.kind === 'document.issued' || e.kind === 'document.cancelled') {
          const d = docs.get(e.id)!
          const data = documentData(d.doc, d.lines, d.bands)
          await append(tx, businessId, at, e.kind, { type: 'document', id: e.id, number: data.number }, canonical(data))
        } else {
          const p = pays.get(e.id)!
          const asThen = e.kind === 'payment.recorded' ? { ...p, status: 'completed' } : p
          await append(
            tx,
            businessId,
            at,
            e.kind as EntryKind,
            { type: 'payment', id: p.id, number: p.receipt_number },
            paymentDataText(asThen),
          )
        }
      }
      filled++
    })
  }
  return filled
}
