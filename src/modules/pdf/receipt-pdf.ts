// The Receipt PDF: number, dates, amount, method, reference and the document it pays, in the document PDF's branding.
import type { BusinessRow } from '../business'
import type { SellerSnapshot } from '../documents'
import { drawBand, drawLogo, drawTitle, NO_BRANDING, type Branding } from './branding'
import { addressLines } from './document-pdf'
import { A4, MARGIN, PageWriter } from './layout'

const METHODS: Record<string, string> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  check: 'Check',
  credit_card: 'Credit card',
  debit_card: 'Debit card',
  other: 'Other',
}

export interface ReceiptPdfInput {
  business: BusinessRow
  /** The seller as the paid document shows it (kept at its issue). */
  seller: SellerSnapshot
  branding?: Branding
  receipt: {
    receipt_number: string
    issue_date: string
    amount: string
    currency: string
    payment_date: string
    payment_method: string
    reference: string | null
    voided_at: string | null
  }
  document: { type: string; document_number: string | null; total: string; client_name: string }
  /** The Payments up to this one reached the document's Total. */
  paidInFull: boolean
}

export async function receiptPdf(i: ReceiptPdfInput): Promise<Uint8Array> {
  const voided = i.receipt.voided_at !== null
  // A Test business's PDFs always say SAMPLE; a voided Receipt says VOID as well, never instead.
  const watermark = [...(i.business.isTest ? ['SAMPLE'] : []), ...(voided ? ['VOID'] : [])]
  const w = await PageWriter.create(`Receipt ${i.receipt.receipt_number}`, watermark)
  const right = A4[0] - MARGIN
  const brand = i.branding ?? NO_BRANDING
  drawBand(w, brand)
  await drawLogo(w, brand)
  const s = i.seller
  w.text(s.legal_name ?? s.name, MARGIN, { size: 14, bold: true, maxWidth: 280 })
  drawTitle(w, brand, 'Receipt', right)
  w.down(18)
  for (const line of [...addressLines(s), s.vat_number ? `VAT ${s.vat_number}` : null]) {
    if (!line) continue
    w.text(line, MARGIN, { size: 9 })
    w.down(12)
  }
  w.down(16)
  const rows: Array<[string, string]> = [
    ['Receipt number', i.receipt.receipt_number],
    ['Issued', i.receipt.issue_date],
    ['Received from', i.document.client_name],
    ['Payment date', i.receipt.payment_date],
    ['Amount', `${i.receipt.amount} ${i.receipt.currency}`],
    ['Method', METHODS[i.receipt.payment_method] ?? i.receipt.payment_method],
    ['Reference', i.receipt.reference ?? '-'],
    [
      'For',
      `${i.document.type === 'proforma' ? 'Proforma Invoice' : 'Invoice'} ${i.document.document_number ?? ''} (total ${i.document.total} ${i.receipt.currency})`,
    ],
  ]
  for (const [label, value] of rows) {
    w.text(label, MARGIN, { size: 10, bold: true })
    w.text(value, MARGIN + 130, { size: 10, maxWidth: right - MARGIN - 130 })
    w.down(16)
  }
  w.down(10)
  if (voided) {
    w.text(`This Receipt is void: its Payment was reversed on ${i.receipt.voided_at!.slice(0, 10)}.`, MARGIN, {
      size: 11,
      bold: true,
    })
  } else if (i.paidInFull) {
    w.text('Paid in full.', MARGIN, { size: 11, bold: true })
  }
  return w.save()
}
