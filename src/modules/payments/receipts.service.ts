// Reading Receipts and rendering their PDF.
import type { Actor } from '../../platform/actor'
import type { Database, Queryable } from '../../db/client'
import { NotFound } from '../../shared/errors'
import { currencyScale } from '../../shared/currencies'
import { fromMinor } from '../../shared/money'
import { getBusiness } from '../business'
import { countedDocumentIds, findDocument, paidState, paymentCounts, sellerOfDocument } from '../documents'
import { findClient } from '../clients'
import { brandingOf, receiptPdf } from '../pdf'
import { findPayment, findReceipt, paidUpTo, receiptOfPayment, type PaymentRow, type ReceiptRow } from './payments.repo'
import { presentReceipt } from './payments.present'

export async function getReceipt(db: Database, c: Actor, id: number) {
  const found = await findReceipt(db.read, c.businessId, id)
  if (!found) throw new NotFound('No such Receipt.')
  return presentReceipt(found.receipt, found.payment)
}

export async function receiptPdfOf(
  db: Database,
  c: Pick<Actor, 'businessId'>,
  id: number,
): Promise<{ name: string; bytes: Uint8Array }> {
  const found = await findReceipt(db.read, c.businessId, id)
  if (!found) throw new NotFound('No such Receipt.')
  const view = presentReceipt(found.receipt, found.payment)
  const business = await getBusiness(db.read, c.businessId)
  const doc = (await findDocument(db.read, c.businessId, found.receipt.documentId))!
  // Paid in full counts what counts on the document (completed Payments, its Proforma's too) up to this one.
  const upTo = fromMinor(
    await paidUpTo(db.read, countedDocumentIds(doc), found.payment.id),
    currencyScale(doc.currency),
  )
  const snapshot = doc.clientSnapshot
    ? (JSON.parse(doc.clientSnapshot) as { name: string; legal_name: string | null })
    : null
  const clientName = snapshot
    ? (snapshot.legal_name ?? snapshot.name)
    : ((await findClient(db.read, c.businessId, doc.clientId))?.name ?? '')
  // The seller as the paid document shows it: kept at its issue, like the document's own PDF.
  const seller = await sellerOfDocument(db.read, business, doc)
  const bytes = await receiptPdf({
    business,
    seller,
    branding: await brandingOf(db.read, business),
    receipt: view,
    document: { type: doc.type, document_number: doc.documentNumber, total: doc.total, client_name: clientName },
    paidInFull: paymentCounts(found.payment) && paidState({ status: 'issued', total: doc.total }, upTo).inFull,
    // The paid document's language, fixed at its issue (a Receipt is only ever of an issued document).
    language: doc.language ?? business.language,
  })
  return { name: view.receipt_number.replace(/[^A-Za-z0-9._-]/g, '_'), bytes }
}

/** A Payment of the Business and its Receipt (none for a Payment recorded before Receipts existed). */
export async function paymentWithReceipt(
  q: Queryable,
  businessId: number,
  paymentId: number,
): Promise<{ payment: PaymentRow; receipt: ReceiptRow | undefined }> {
  const payment = await findPayment(q, businessId, paymentId)
  if (!payment) throw new NotFound('No such Payment.')
  return { payment, receipt: await receiptOfPayment(q, payment.id) }
}
