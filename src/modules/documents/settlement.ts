// A document's amount paid and status follow its completed Payments (and, for a converted Invoice, its Proforma's).
import type { Tx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { currencyScale } from '../../shared/currencies'
import { Dec, format, stored } from '../../shared/money'
import { raiseEvent } from '../webhooks'
import { completedPaidMinor, findDocument, updateDocumentRow, writeSettlement, type DocumentRow, type PaymentTarget } from './documents.repo'

export function statusFor(doc: Pick<DocumentRow, 'status' | 'total'>, paid: string): DocumentRow['status'] {
  if (doc.status === 'draft' || doc.status === 'cancelled') return doc.status
  const p = stored(paid)
  if (p.gt(new Dec('0')) && p.gte(stored(doc.total))) return 'paid'
  return p.gt(new Dec('0')) ? 'partially_paid' : 'issued'
}

/**
 * Recomputes amount_paid and status of a document inside `tx`, and of the Invoice a Proforma was converted into.
 * Raises document.paid when the amount due reaches zero by a recorded Payment; an amend raises no event (`raisePaid: false`).
 */
export async function settleDocument(tx: Tx, clock: Clock, businessId: number, documentId: number, opts: { raisePaid?: boolean } = {}): Promise<DocumentRow> {
  const doc = (await findDocument(tx, businessId, documentId))!
  const ids = doc.type === 'invoice' && doc.proformaId !== null ? [doc.id, doc.proformaId] : [doc.id]
  const scale = currencyScale(doc.currency)
  // Only completed Payments count anywhere; voided, pending and failed count nowhere.
  const minor = await completedPaidMinor(tx, ids)
  const amountPaid = format(new Dec(minor).div(new Dec('1' + '0'.repeat(scale))), scale)
  const status = statusFor(doc, amountPaid)
  const updated = (await updateDocumentRow(tx, businessId, doc.id, { amountPaid, paidMinor: minor, status, updatedAt: clock.now().toISOString() }))!
  if (status === 'paid' && doc.status !== 'paid' && opts.raisePaid !== false) await raiseEvent(tx, clock, businessId, 'document.paid', doc.id)
  if (doc.type === 'proforma' && doc.convertedIntoId !== null) await settleDocument(tx, clock, businessId, doc.convertedIntoId, opts)
  return updated
}

/**
 * settleDocument for a document the caller has just read in the same transaction (recording a Payment): the same
 * sums and rules, without reading it again or returning the row.
 */
export async function settleTarget(tx: Tx, clock: Clock, businessId: number, doc: PaymentTarget): Promise<void> {
  // A converted Proforma settles its Invoice too; that rare path takes the general function.
  if (doc.type === 'proforma' && doc.convertedIntoId !== null) {
    await settleDocument(tx, clock, businessId, doc.id)
    return
  }
  const ids = doc.type === 'invoice' && doc.proformaId !== null ? [doc.id, doc.proformaId] : [doc.id]
  const scale = currencyScale(doc.currency)
  const minor = await completedPaidMinor(tx, ids)
  const amountPaid = format(new Dec(minor).div(new Dec('1' + '0'.repeat(scale))), scale)
  const status = statusFor(doc, amountPaid)
  await writeSettlement(tx, doc.id, amountPaid, minor, status, clock.now().toISOString())
  if (status === 'paid' && doc.status !== 'paid') await raiseEvent(tx, clock, businessId, 'document.paid', doc.id)
}
