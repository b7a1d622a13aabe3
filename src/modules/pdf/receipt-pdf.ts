// The Receipt PDF: number, dates, amount, method, reference and the document it pays, in the document PDF's branding
// and in the paid document's language (extensions §18).
import type { BusinessRow } from '../business'
import type { SellerSnapshot } from '../documents'
import { words, type Catalog } from '../words'
import { drawBand, drawLogo, drawTitle, NO_BRANDING, type Branding } from './branding'
import { addressLines } from './document-pdf'
import { A4, MARGIN, PageWriter } from './layout'

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
  /** The paid document's language (fixed at its issue); English when not given. */
  language?: string | null
}

export async function receiptPdf(i: ReceiptPdfInput): Promise<Uint8Array> {
  const t = words(i.language)
  const voided = i.receipt.voided_at !== null
  // A Test business's PDFs always say SAMPLE; a voided Receipt says VOID as well, never instead.
  const watermark = [...(i.business.isTest ? [t.sample] : []), ...(voided ? [t.void] : [])]
  const w = await PageWriter.create(`${t.receipt} ${i.receipt.receipt_number}`, watermark)
  const right = A4[0] - MARGIN
  const brand = i.branding ?? NO_BRANDING
  drawBand(w, brand)
  await drawLogo(w, brand)
  const s = i.seller
  w.text(s.legal_name ?? s.name, MARGIN, { size: 14, bold: true, maxWidth: 280 })
  drawTitle(w, brand, t.receipt, right)
  w.down(18)
  for (const line of [...addressLines(s, t), s.vat_number ? `${t.vatId} ${s.vat_number}` : null]) {
    if (!line) continue
    w.text(line, MARGIN, { size: 9 })
    w.down(12)
  }
  w.down(16)
  const rows: Array<[string, string]> = [
    [t.receiptNumber, i.receipt.receipt_number],
    [t.issued, t.date(i.receipt.issue_date)],
    [t.receivedFrom, i.document.client_name],
    [t.paymentDate, t.date(i.receipt.payment_date)],
    [t.amount, t.money(i.receipt.amount, i.receipt.currency)],
    [t.method, t.methods[i.receipt.payment_method as keyof Catalog['methods']] ?? i.receipt.payment_method],
    [t.reference, i.receipt.reference ?? '-'],
    [
      t.for,
      t.receiptFor(
        t.titles[i.document.type === 'proforma' ? 'proforma' : 'invoice'],
        i.document.document_number ?? '',
        t.money(i.document.total, i.receipt.currency),
      ),
    ],
  ]
  for (const [label, value] of rows) {
    w.text(label, MARGIN, { size: 10, bold: true })
    w.text(value, MARGIN + 130, { size: 10, maxWidth: right - MARGIN - 130 })
    w.down(16)
  }
  w.down(10)
  if (voided) {
    await w.paragraph(t.receiptVoid(t.date(i.receipt.voided_at!.slice(0, 10))), MARGIN, {
      size: 11,
      bold: true,
      maxWidth: right - MARGIN,
      lineHeight: 14,
    })
  } else if (i.paidInFull) {
    w.text(t.paidInFull, MARGIN, { size: 11, bold: true })
  }
  return w.save()
}
