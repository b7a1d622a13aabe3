// A document's amount paid and status follow its completed Payments (and, for a converted Invoice, its Proforma's).
import type { SqlTx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { currencyScale } from '../../shared/currencies'
import { format, fromMinor } from '../../shared/money'
import { raiseEvent } from '../webhooks'
import { completedPaidMinor, findPaymentTarget, writeSettlement, type PaymentTarget } from './documents.repo'
import { countedDocumentIds, paidState } from './paid'

/**
 * Recomputes amount_paid and status of a document inside `tx`, and of the Invoice a Proforma was converted into.
 * Takes the document as the caller has just read it in the same transaction (recording a Payment), or its id.
 * Raises document.paid when the amount due reaches zero by a recorded Payment; an amend raises no event (`raisePaid: false`).
 */
export async function settleDocument(
  tx: SqlTx,
  clock: Clock,
  businessId: number,
  target: number | PaymentTarget,
  opts: { raisePaid?: boolean } = {},
): Promise<void> {
  const doc = typeof target === 'number' ? (await findPaymentTarget(tx, businessId, target))! : target
  const scale = currencyScale(doc.currency)
  const minor = await completedPaidMinor(tx, countedDocumentIds(doc))
  const paid = fromMinor(minor, scale)
  const amountPaid = format(paid, scale)
  const { status } = paidState(doc, paid)
  await writeSettlement(tx, doc.id, amountPaid, minor, status, clock.now().toISOString())
  if (status === 'paid' && doc.status !== 'paid' && opts.raisePaid !== false)
    await raiseEvent(tx, clock, businessId, 'document.paid', doc.id)
  if (doc.type === 'proforma' && doc.convertedIntoId !== null)
    await settleDocument(tx, clock, businessId, doc.convertedIntoId, opts)
}
