// The document PDF: branding, seller and Client blocks, Lines, VAT breakdown in words, totals, due date, bank accounts,
// every fixed word, date, amount and country name in the document's language (extensions §18).
import type { Queryable } from '../../db/client'
import { businessLogo, type BusinessRow } from '../business'
import { findDocument, showsDueDate, type DocumentView } from '../documents'
import { words, type Words } from '../words'
import { drawBand, drawLogo, drawTitle, type Branding } from './branding'
import { A4, MARGIN, PageWriter } from './layout'
import { printedReference } from '../../shared/creditor-reference'
import { epcPayload, epcPaymentOf, qrMatrix } from '../../shared/epc-qr'

/** SAMPLE across every page of a Test business's document; DRAFT on a Draft (in the document's language). */
export function watermarkOf(isTest: boolean, status: string, w: Words = words('en')): string | null {
  if (isTest) return w.sample
  return status === 'draft' ? w.draft : null
}

/** The Business's branding as its PDFs draw it (the logo is read only when there is one). */
export async function brandingOf(q: Queryable, business: BusinessRow): Promise<Branding> {
  return { logo: await businessLogo(q, business), color: business.brandColor ?? null }
}

/** The lines of a postal address block: street lines, postcode and city, the country by name in the language. */
export function addressLines(
  a: {
    address: string | null
    postal_code: string | null
    city: string | null
    country: string | null
  },
  w: Words,
): string[] {
  return [
    ...(a.address ?? '').split(/\r?\n/),
    [a.postal_code, a.city].filter(Boolean).join(' '),
    a.country ? w.country(a.country) : '',
  ]
    .map((s) => s.trim())
    .filter(Boolean)
}

export async function documentPdf(q: Queryable, business: BusinessRow, doc: DocumentView): Promise<Uint8Array> {
  const brand = await brandingOf(q, business)
  // The seller and its accounts as the document shows them (kept at issue; the XML names the same accounts).
  const s = doc.seller
  const accounts = s.bank_accounts
  const credited =
    doc.type === 'credit_note' && doc.credited_document_id !== null
      ? await findDocument(q, business.id, doc.credited_document_id)
      : undefined
  const t = words(doc.language)
  const typeTitle = t.titles[doc.type as keyof Words['titles']] ?? doc.type
  const title = `${typeTitle} ${doc.document_number ?? t.draftNumber}`
  const w = await PageWriter.create(title, watermarkOf(business.isTest || doc.is_test, doc.status, t))
  const right = A4[0] - MARGIN
  drawBand(w, brand)
  await drawLogo(w, brand)

  // Seller block (left) and document heading (right).
  w.text(s.legal_name ?? s.name, MARGIN, { size: 14, bold: true, maxWidth: 280 })
  drawTitle(w, brand, typeTitle, right)
  w.down(18)
  const sellerLines = [
    ...(s.legal_name && s.legal_name !== s.name ? [s.name] : []),
    ...addressLines(s, t),
    s.vat_number ? `${t.vatId} ${s.vat_number}` : null,
    s.company_id ? `${t.companyId} ${s.company_id}` : null,
    s.email,
  ].filter((x): x is string => !!x)
  // A Credit Note names the Invoice it credits and has no due date: nothing is to be paid on it.
  const heading = [
    `${t.no} ${doc.document_number ?? t.draft}`,
    doc.issue_date ? `${t.issueDate} ${t.date(doc.issue_date)}` : null,
    doc.due_date && showsDueDate(doc.type) ? `${t.dueDate} ${t.date(doc.due_date)}` : null,
    doc.delivery_date ? `${t.deliveryDate} ${t.date(doc.delivery_date)}` : null,
    credited ? t.credits(credited.documentNumber ?? '', credited.issueDate ? t.date(credited.issueDate) : null) : null,
  ].filter((x): x is string => !!x)
  // Every seller line is wrapped, never cut: a long address takes as many rows as it needs; so is every heading line
  // (a Credit Note's reference to its Invoice is longer than the column in some languages).
  const wrapped = sellerLines.flatMap((x) => w.wrap(x, 9, 280))
  const headed = heading.flatMap((x, i) => w.wrap(x, 10, 240, i === 0).map((line) => ({ line, bold: i === 0 })))
  const rows = Math.max(wrapped.length, headed.length)
  for (let i = 0; i < rows; i++) {
    w.ensure(13)
    if (wrapped[i]) w.text(wrapped[i]!, MARGIN, { size: 9 })
    const h = headed[i]
    if (h) w.text(h.line, right, { size: 10, right: true, bold: h.bold, maxWidth: 240 })
    w.down(13)
    await w.breathe()
  }

  // Client block.
  w.down(12)
  w.text(doc.type === 'credit_note' ? t.creditTo : t.billTo, MARGIN, { size: 9, bold: true })
  w.down(14)
  const c = doc.client
  for (const line of [
    c.legal_name ?? c.name,
    c.legal_name && c.legal_name !== c.name ? c.name : null,
    ...addressLines(c, t),
    c.vat_number ? `${t.vatId} ${c.vat_number}` : null,
    c.email,
  ]) {
    if (!line) continue
    w.ensure(13)
    await w.paragraph(line, MARGIN, { size: 10, maxWidth: 300, lineHeight: 13 })
  }

  // Lines.
  w.down(14)
  const cols = { desc: MARGIN, qty: 300, price: 375, vat: 450, net: right }
  const header = () => {
    w.text(t.description, cols.desc, { size: 9, bold: true })
    w.text(t.quantity, cols.qty, { size: 9, bold: true, right: true })
    w.text(t.unitPrice, cols.price, { size: 9, bold: true, right: true })
    w.text(t.vat, cols.vat, { size: 9, bold: true, right: true })
    w.text(`${t.net} (${doc.currency})`, cols.net, { size: 9, bold: true, right: true })
    w.down(5)
    w.rule()
    w.down(13)
  }
  header()
  // A Line's description and notes are wrapped in full; a page they continue onto starts with the header again.
  w.onNewPage = header
  for (const l of doc.lines) {
    w.ensure(l.notes ? 40 : 28)
    w.figure(t, l.quantity, cols.qty, { size: 9, right: true, maxWidth: 60 }, ` ${l.unit}`)
    w.figure(t, l.unit_price, cols.price, { size: 9, right: true, maxWidth: 70 })
    w.text(t.lineVat(l.vat_category, l.vat_rate), cols.vat, { size: 9, right: true, maxWidth: 70 })
    w.figure(t, l.net_amount, cols.net, { size: 9, right: true })
    await w.paragraph(l.description, cols.desc, { size: 9, maxWidth: 190, lineHeight: 12 })
    if (l.notes) {
      w.ensure(11)
      await w.paragraph(l.notes, cols.desc + 8, { size: 8, maxWidth: 400, lineHeight: 11 })
    }
  }
  w.onNewPage = null
  w.rule()
  w.down(16)

  // VAT breakdown, in words, and totals.
  w.ensure(30 + doc.vat_breakdown.length * 13 + 60)
  for (const b of doc.vat_breakdown) {
    const codes = doc.lines
      .filter((l) => l.vat_category === b.category && l.vat_rate === b.rate)
      .map((l) => l.vat_exemption_code)
    w.text(t.band(t.vatWords(b.category, b.rate, codes), t.number(b.net)), 420, {
      size: 9,
      right: true,
      maxWidth: 370,
    })
    w.figure(t, b.vat, right, { size: 9, right: true })
    w.down(13)
  }
  const totals: Array<[string, string, boolean]> = [
    [t.netTotal, doc.net_total, false],
    [t.vatTotal, doc.vat_total, false],
    [`${t.total} ${doc.currency}`, doc.total, true],
  ]
  if (doc.amount_paid !== doc.amount_due && doc.amount_paid.replace(/[0.]/g, '') !== '') {
    totals.push([t.paid, doc.amount_paid, false], [t.amountDue, doc.amount_due, true])
  }
  for (const [label, value, strong] of totals) {
    w.text(label, 420, { size: 10, right: true, bold: strong })
    w.figure(t, value, right, { size: 10, right: true, bold: strong })
    w.down(15)
  }
  // A document in another currency states its VAT in the Business's too, with the rate (extensions §16).
  if (doc.exchange_rate && doc.accounting_currency && doc.vat_total_accounting !== null) {
    w.ensure(16)
    const line = t.vatInAccounting(
      doc.accounting_currency,
      t.number(doc.vat_total_accounting),
      doc.currency,
      t.number(doc.exchange_rate),
    )
    w.text(line, right, { size: 9, right: true, maxWidth: right - MARGIN })
    w.down(14)
  }
  if (doc.vat_breakdown.some((b) => b.category === 'AE')) {
    w.ensure(16)
    // Wrapped, never cut: the wording some languages' law asks for is longer than a line.
    await w.paragraph(t.reverseChargeNote, MARGIN, { size: 9, maxWidth: right - MARGIN, lineHeight: 12 })
    w.down(2)
  }

  // Payment details: what to pay, by when, and where.
  const takesPayment = doc.type === 'invoice' || doc.type === 'proforma'
  if ((doc.due_date && takesPayment) || (accounts.length && doc.type !== 'credit_note') || doc.notes) w.down(10)
  if (doc.due_date && takesPayment) {
    w.ensure(20)
    w.text(t.pleasePay(t.money(doc.amount_due, doc.currency), t.date(doc.due_date)), MARGIN, { size: 10 })
    w.down(16)
  }
  if (doc.type !== 'credit_note') {
    for (const a of accounts) {
      w.ensure(20)
      w.text(`${a.name}: IBAN ${a.iban}${a.bic ? `  BIC ${a.bic}` : ''}`, MARGIN, { size: 9, maxWidth: right - MARGIN })
      w.down(13)
    }
  }
  if (doc.payment_reference) drawPayByTransfer(w, doc, right, t)
  if (doc.notes) {
    w.down(6)
    w.ensure(14)
    await w.paragraph(doc.notes, MARGIN, { size: 9, maxWidth: right - MARGIN, lineHeight: 12 })
  }
  return w.save()
}

/** Side of the EPC QR code on the page, in points (quiet zone included): about 4 cm, as banking apps scan it well. */
const QR_SIZE = 112

/**
 * The reference to quote with a transfer and, where extensions §15 puts one, the EPC QR code for the amount due as
 * this PDF is made (banking apps scan it and fill the transfer).
 */
function drawPayByTransfer(w: PageWriter, doc: DocumentView, right: number, t: Words): void {
  const payment = epcPaymentOf({
    type: doc.type,
    status: doc.status,
    currency: doc.currency,
    amountDue: doc.amount_due,
    reference: doc.payment_reference,
    name: doc.seller.name,
    accounts: doc.seller.bank_accounts,
  })
  w.ensure(payment ? QR_SIZE + 8 : 20)
  w.down(4)
  w.text(`${t.paymentReference} ${printedReference(doc.payment_reference!)}`, MARGIN, { size: 10, bold: true })
  if (!payment) {
    w.down(16)
    return
  }
  // The code sits at the right margin beside the reference; its quiet zone is part of QR_SIZE.
  w.qr(qrMatrix(epcPayload(payment)), right - QR_SIZE, w.y + 10, QR_SIZE)
  w.down(14)
  w.text(t.scanToPay, MARGIN, { size: 8 })
  w.down(QR_SIZE - 4)
}
