// Bank statement import (extensions §15): a CAMT file's booked credits matched to issued documents by their payment
// reference or number, each match recorded as a Payment exactly as Record a Payment records it (the payments module's
// own functions, in the import's transaction); the rest listed unmatched, to match by hand.
//
// One transaction per file: the statement, every entry and every Payment commit together or not at all, so a crash
// in the middle leaves nothing and importing the file again records each entry once; a keyed import's answer commits
// with it. Each entry sits in a savepoint, so a Payment the Record judge refuses (more than is due, a cancelled
// document) rolls back that entry's writes alone and the entry is kept unmatched. The transaction lets other requests
// in every few milliseconds: reads are answered meanwhile; other writes wait for it (bench/camt.ts: 10,000 entries took
// 29 s on a loaded 2-core machine).
import { createHash } from 'node:crypto'
import type { Actor } from '../../platform/actor'
import type { SqlTx } from '../../db/client'
import { InvalidRequest, NotFound, Refusal } from '../../shared/errors'
import { compactReference, isCreditorReference, referencesIn } from '../../shared/creditor-reference'
import { utcDay } from '../../shared/dates'
import { Dec } from '../../shared/money'
import { listBankAccounts } from '../business'
import { documentsNamed, findDocument } from '../documents'
import { planPayment, recordPlannedPayment, type PaymentDeps, type PlannedPayment } from '../payments'
import { parseCamt, type CamtEntry } from './camt'
import {
  entriesOf,
  findEntry,
  findStatement,
  insertEntry,
  insertStatement,
  savepoint,
  setEntryMatched,
  type EntryInsert,
  type EntryRow,
} from './banking.repo'
import type { MatchInput } from './banking.model'
import { presentEntry, presentStatement, type EntryView, type StatementView } from './banking.present'
import { timeSlices } from '../../shared/turns'

/** How long the import may hold the thread before it lets other requests in. */
const SLICE_MS = 5

/**
 * What makes an entry the same in a later import (§15): the bank's own reference of it, or else its booking date,
 * amount, currency, direction, counterparty and remittance text.
 */
export function fingerprintOf(e: CamtEntry): string {
  if (e.entryReference) return `ref:${e.entryReference}`
  const amount = new Dec(e.amount).toString()
  const parts = [e.bookedOn, amount, e.currency, e.credit ? 'C' : 'D', e.counterparty, e.remittance]
  return `sum:${createHash('sha256').update(JSON.stringify(parts)).digest('base64url')}`
}

/** Words of a remittance text that may be document numbers: those with a digit, punctuation trimmed from their ends. */
function numbersIn(text: string): string[] {
  const out = new Set<string>()
  for (const raw of text.split(/[\s,;()]+/)) {
    const w = raw.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
    if (w.length < 2 || w.length > 100 || !/[0-9]/.test(w)) continue
    out.add(w)
    out.add(w.toUpperCase())
    if (out.size >= 40) break
  }
  return [...out]
}

/**
 * The issued document of the Business an entry names, by the first of: its structured reference (an RF reference,
 * or a document number written there), an RF reference in its remittance text, a document number in that text.
 */
async function documentNamedBy(deps: PaymentDeps, businessId: number, e: CamtEntry): Promise<number | null> {
  const structured = e.structuredReference ? compactReference(e.structuredReference) : null
  const refs = [
    ...(structured && isCreditorReference(structured) ? [structured] : []),
    ...(e.remittance ? referencesIn(e.remittance) : []),
  ]
  const numbers = [
    ...(e.structuredReference ? [e.structuredReference.trim()] : []),
    ...(e.remittance ? numbersIn(e.remittance) : []),
  ]
  const found = await documentsNamed(deps.db.read, businessId, refs, numbers)
  if (found.length === 0) return null
  for (const r of refs) {
    const d = found.find((f) => f.paymentReference === r)
    if (d) return d.id
  }
  for (const n of numbers) {
    const d = found.find((f) => f.documentNumber === n)
    if (d) return d.id
  }
  return null
}

/** The Payment a matched entry records, as Record a Payment's body would say it; null when the body is refused. */
async function plannedFor(
  deps: PaymentDeps,
  c: Actor,
  documentId: number,
  e: Pick<CamtEntry, 'amount' | 'currency' | 'bookedOn' | 'entryReference'>,
  accountId: number,
): Promise<PlannedPayment> {
  return planPayment(deps, c, documentId, {
    amount: e.amount,
    payment_date: e.bookedOn ?? utcDay(deps.clock.now()),
    payment_method: 'bank_transfer',
    bank_account_id: accountId,
    reference: e.entryReference?.slice(0, 255) ?? null,
    currency: e.currency,
  })
}

/** A refusal or a body error of Record a Payment: the entry stays unmatched. Anything else is a fault and is thrown. */
function isRecordRefusal(e: unknown): boolean {
  return e instanceof Refusal || e instanceof NotFound || e instanceof InvalidRequest
}

export async function importStatement(deps: PaymentDeps, c: Actor, xml: string): Promise<StatementView> {
  const file = await parseCamt(xml)
  const accounts = await listBankAccounts(deps.db.read, c.businessId, 0, 1000)
  const account = accounts.find((a) => a.iban === file.iban)
  if (!account)
    throw new InvalidRequest({
      account: [`the statement is of ${file.iban}, which is not one of the Business's bank accounts`],
    })
  // Read before the transaction, so the write lock is held for writing: the document each credit names and its
  // Payment as Record would take it (judged again against the document inside the transaction).
  const plans: Array<PlannedPayment | null> = []
  const slice = timeSlices(SLICE_MS)
  for (const e of file.entries) {
    let plan: PlannedPayment | null = null
    if (e.credit && e.booked) {
      const documentId = await documentNamedBy(deps, c.businessId, e)
      if (documentId !== null) {
        try {
          plan = await plannedFor(deps, c, documentId, e, account.id)
        } catch (err) {
          if (!isRecordRefusal(err)) throw err
        }
      }
    }
    plans.push(plan)
    await slice()
  }
  const now = deps.clock.now().toISOString()
  return deps.db.writePrepared(async (tx) => {
    const statement = {
      businessId: c.businessId,
      bankAccountId: account.id,
      message: file.message,
      statementRef: file.statementRef,
      fromDate: file.from,
      toDate: file.to,
      createdAt: now,
    }
    const statementId = await insertStatement(tx, statement)
    const entries: EntryView[] = []
    const sliceWriting = timeSlices(SLICE_MS)
    for (let i = 0; i < file.entries.length; i++) {
      const e = file.entries[i]!
      const base: EntryInsert = {
        businessId: c.businessId,
        statementId,
        bankAccountId: account.id,
        position: i,
        bookedOn: e.bookedOn,
        amount: e.amount,
        currency: e.currency,
        credit: e.credit,
        booked: e.booked,
        counterparty: e.counterparty,
        remittance: e.remittance,
        structuredReference: e.structuredReference,
        entryReference: e.entryReference,
        fingerprint: fingerprintOf(e),
        status: 'unmatched',
        documentId: null,
        paymentId: null,
        createdAt: now,
        updatedAt: now,
      }
      const row = await recordEntry(deps, tx, c, base, e.credit && e.booked, plans[i] ?? null)
      entries.push(presentEntry(row))
      await sliceWriting()
    }
    return presentStatement({ id: statementId, ...statement }, entries)
  })
}

/** Writes one entry, in a savepoint: ignored, a duplicate, matched with its Payment, or unmatched. */
async function recordEntry(
  deps: PaymentDeps,
  tx: SqlTx,
  c: Actor,
  base: EntryInsert,
  bookedCredit: boolean,
  plan: PlannedPayment | null,
): Promise<EntryRow> {
  const as = async (status: EntryInsert['status'], more: Partial<EntryInsert> = {}): Promise<EntryRow | null> => {
    const row = { ...base, status, ...more }
    const id = await insertEntry(tx, row)
    return id === null ? null : ({ ...row, id } as EntryRow)
  }
  if (!bookedCredit) return (await as('ignored'))!
  if (plan) {
    await savepoint.open(tx)
    try {
      const held = await as('matched', { documentId: plan.documentId })
      if (held) {
        const payment = await recordPlannedPayment(deps, tx, c, plan)
        await setEntryMatched(tx, c.businessId, held.id, plan.documentId, payment.id, base.createdAt, 'matched')
        await savepoint.release(tx)
        return { ...held, paymentId: payment.id }
      }
      await savepoint.release(tx)
      return (await as('duplicate'))!
    } catch (err) {
      if (!isRecordRefusal(err)) throw err
      await savepoint.rollback(tx)
    }
  }
  return (await as('unmatched')) ?? (await as('duplicate'))!
}

export async function getStatement(deps: PaymentDeps, c: Actor, id: number): Promise<StatementView> {
  const s = await findStatement(deps.db.read, c.businessId, id)
  if (!s) throw new NotFound('No such bank statement.')
  return presentStatement(s, (await entriesOf(deps.db.read, s.id)).map(presentEntry))
}

/**
 * Records an unmatched entry by hand on a document (§15): a Payment as Record a Payment records it, its refusals
 * answered as Record's; an entry in another currency than the document's is payment_currency_mismatch.
 */
export async function matchEntry(deps: PaymentDeps, c: Actor, id: number, input: MatchInput): Promise<EntryView> {
  const entry = await findEntry(deps.db.read, c.businessId, id)
  if (!entry) throw new NotFound('No such bank statement entry.')
  if (entry.status !== 'unmatched') throw Refusal.say('bank_entry_not_unmatched', { status: entry.status })
  const doc = await findDocument(deps.db.read, c.businessId, input.document_id)
  if (!doc) throw new NotFound('No such document.')
  if (doc.currency !== entry.currency)
    throw Refusal.say('payment_currency_mismatch', { document: doc.currency, sent: entry.currency })
  const plan = await plannedFor(deps, c, doc.id, entry, entry.bankAccountId)
  const now = deps.clock.now().toISOString()
  return deps.db.writePrepared(async (tx) => {
    const payment = await recordPlannedPayment(deps, tx, c, plan)
    // Conditional: two hands matching one entry at once record one Payment; the other is refused and rolled back.
    if (!(await setEntryMatched(tx, c.businessId, id, doc.id, payment.id, now, 'unmatched')))
      throw Refusal.say('bank_entry_not_unmatched', { status: 'matched' })
    return presentEntry({ ...entry, status: 'matched', documentId: doc.id, paymentId: payment.id, updatedAt: now })
  })
}
