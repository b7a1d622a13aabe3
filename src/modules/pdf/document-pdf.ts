// The document PDF: branding, seller and Client blocks, Lines, VAT breakdown in words, totals, due date, bank accounts.
import type { Queryable } from '../../db/client'
import { countryName } from '../../shared/countries'
import { businessLogo, type BusinessRow } from '../business'
import { DOCUMENT_TITLES, findDocument, type DocumentView } from '../documents'
import { drawBand, drawLogo, drawTitle, type Branding } from './branding'
import { A4, MARGIN, PageWriter } from './layout'
import { lineVatWords, vatWords } from './vat-words'

/** SAMPLE across every page of a Test business's document; DRAFT on a Draft. */
export function watermarkOf(isTest: boolean, status: string): string | null {
  if (isTest) return 'SAMPLE'
  return status === 'draft' ? 'DRAFT' : null
}

/** The Business's branding as its PDFs draw it (the logo is read only when there is one). */
export async function brandingOf(q: Queryable, business: BusinessRow): Promise<Branding> {
  return { logo: await businessLogo(q, business), color: business.brandColor ?? null }
}

/** The lines of a postal address block: street lines, postcode and city, the country by name. */
export function addressLines(a: {
  address: string | null
  postal_code: string | null
  city: string | null
  country: string | null
}): string[] {
  return [
    ...(a.address ?? '').split(/\r?\n/),
    [a.postal_code, a.city].filter(Boolean).join(' '),
    a.country ? countryName(a.country) : '',
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
  const typeTitle = DOCUMENT_TITLES[doc.type] ?? doc.type
  const title = `${typeTitle} ${doc.document_number ?? '(draft)'}`
  const w = await PageWriter.create(title, watermarkOf(business.isTest || doc.is_test, doc.status))
  const right = A4[0] - MARGIN
  drawBand(w, brand)
  await drawLogo(w, brand)

  // Seller block (left) and document heading (right).
  w.text(s.legal_name ?? s.name, MARGIN, { size: 14, bold: true, maxWidth: 280 })
  drawTitle(w, brand, typeTitle, right)
  w.down(18)
  const sellerLines = [
    ...(s.legal_name && s.legal_name !== s.name ? [s.name] : []),
    ...addressLines(s),
    s.vat_number ? `VAT ${s.vat_number}` : null,
    s.company_id ? `Reg. ${s.company_id}` : null,
    s.email,
  ].filter((x): x is string => !!x)
  // A Credit Note names the Invoice it credits and has no due date: nothing is to be paid on it.
  const heading = [
    `No. ${doc.document_number ?? 'DRAFT'}`,
    doc.issue_date ? `Issue date ${doc.issue_date}` : null,
    doc.due_date && doc.type !== 'credit_note' ? `Due date ${doc.due_date}` : null,
    doc.delivery_date ? `Delivery date ${doc.delivery_date}` : null,
    credited
      ? `Credits Invoice ${credited.documentNumber ?? ''}${credited.issueDate ? ` of ${credited.issueDate}` : ''}`
      : null,
  ].filter((x): x is string => !!x)
  // Every seller line is wrapped, never cut: a long address takes as many rows as it needs.
  const wrapped = sellerLines.flatMap((x) => w.wrap(x, 9, 280))
  // So is each heading line ("Credits Invoice TEST-INV-2026-0006 of 2026-03-10" is wider than its column).
  const headingRows = heading.flatMap((x, i) => w.wrap(x, 10, 240).map((t) => ({ t, bold: i === 0 })))
  const rows = Math.max(wrapped.length, headingRows.length)
  for (let i = 0; i < rows; i++) {
    w.ensure(13)
    if (wrapped[i]) w.text(wrapped[i]!, MARGIN, { size: 9 })
    const h = headingRows[i]
    if (h) w.text(h.t, right, { size: 10, right: true, bold: h.bold, maxWidth: 240 })
    w.down(13)
    await w.breathe()
  }

  // Client block.
  w.down(12)
  w.text(doc.type === 'credit_note' ? 'Credit to' : 'Bill to', MARGIN, { size: 9, bold: true })
  w.down(14)
  const c = doc.client
  for (const line of [
    c.legal_name ?? c.name,
    c.legal_name && c.legal_name !== c.name ? c.name : null,
    ...addressLines(c),
    c.vat_number ? `VAT ${c.vat_number}` : null,
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
    w.text('Description', cols.desc, { size: 9, bold: true })
    w.text('Qty', cols.qty, { size: 9, bold: true, right: true })
    w.text('Unit price', cols.price, { size: 9, bold: true, right: true })
    w.text('VAT', cols.vat, { size: 9, bold: true, right: true })
    w.text(`Net (${doc.currency})`, cols.net, { size: 9, bold: true, right: true })
    w.down(5)
    w.rule()
    w.down(13)
  }
  header()
  // A Line's description and notes are wrapped in full; a page they continue onto starts with the header again.
  w.onNewPage = header
  for (const l of doc.lines) {
    w.ensure(l.notes ? 40 : 28)
    w.text(`${l.quantity} ${l.unit}`, cols.qty, { size: 9, right: true, maxWidth: 60 })
    w.text(l.unit_price, cols.price, { size: 9, right: true, maxWidth: 70 })
    w.text(lineVatWords(l.vat_category, l.vat_rate), cols.vat, { size: 9, right: true, maxWidth: 70 })
    w.text(l.net_amount, cols.net, { size: 9, right: true })
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
    w.text(`${vatWords(b.category, b.rate, codes)} on ${b.net}`, 420, { size: 9, right: true, maxWidth: 370 })
    w.text(b.vat, right, { size: 9, right: true })
    w.down(13)
  }
  const totals: Array<[string, string, boolean]> = [
    ['Net total', doc.net_total, false],
    ['VAT total', doc.vat_total, false],
    [`Total ${doc.currency}`, doc.total, true],
  ]
  if (doc.amount_paid !== doc.amount_due && doc.amount_paid.replace(/[0.]/g, '') !== '') {
    totals.push(['Paid', doc.amount_paid, false], ['Amount due', doc.amount_due, true])
  }
  for (const [label, value, strong] of totals) {
    w.text(label, 420, { size: 10, right: true, bold: strong })
    w.text(value, right, { size: 10, right: true, bold: strong })
    w.down(15)
  }
  if (doc.vat_breakdown.some((b) => b.category === 'AE')) {
    w.ensure(16)
    w.text('Reverse charge: the customer accounts for the VAT.', MARGIN, { size: 9 })
    w.down(14)
  }

  // Payment details: what to pay, by when, and where.
  const takesPayment = doc.type === 'invoice' || doc.type === 'proforma'
  if ((doc.due_date && takesPayment) || (accounts.length && doc.type !== 'credit_note') || doc.notes) w.down(10)
  if (doc.due_date && takesPayment) {
    w.ensure(20)
    w.text(`Please pay ${doc.amount_due} ${doc.currency} by ${doc.due_date}.`, MARGIN, { size: 10 })
    w.down(16)
  }
  if (doc.type !== 'credit_note') {
    for (const a of accounts) {
      w.ensure(20)
      w.text(`${a.name}: IBAN ${a.iban}${a.bic ? `  BIC ${a.bic}` : ''}`, MARGIN, { size: 9, maxWidth: right - MARGIN })
      w.down(13)
    }
  }
  if (doc.notes) {
    w.down(6)
    w.ensure(14)
    await w.paragraph(doc.notes, MARGIN, { size: 9, maxWidth: right - MARGIN, lineHeight: 12 })
  }
  return w.save()
}
