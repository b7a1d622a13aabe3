// The document PDF: Business and Client blocks, Lines, VAT breakdown, totals, due date, bank accounts.
import type { Queryable } from '../../db/client'
import type { BusinessRow } from '../business'
import { DOCUMENT_TITLES, type DocumentView } from '../documents'
import { A4, MARGIN, PageWriter } from './layout'


/** SAMPLE across every page of a Test business's document; DRAFT on a Draft. */
export function watermarkOf(isTest: boolean, status: string): string | null {
  if (isTest) return 'SAMPLE'
  return status === 'draft' ? 'DRAFT' : null
}

export async function documentPdf(q: Queryable, business: BusinessRow, doc: DocumentView): Promise<Uint8Array> {
  // The seller and its accounts as the document shows them (kept at issue; the XML names the same accounts).
  const s = doc.seller
  const accounts = s.bank_accounts
  const title = `${DOCUMENT_TITLES[doc.type] ?? doc.type} ${doc.document_number ?? '(draft)'}`
  const w = await PageWriter.create(title, watermarkOf(business.isTest || doc.is_test, doc.status))
  const right = A4[0] - MARGIN

  // Seller block (left) and document heading (right).
  w.text(s.legal_name ?? s.name, MARGIN, { size: 14, bold: true, maxWidth: 280 })
  w.text(DOCUMENT_TITLES[doc.type] ?? doc.type, right, { size: 18, bold: true, right: true })
  w.down(18)
  const seller = [s.address, [s.postal_code, s.city].filter(Boolean).join(' '), s.country, s.vat_number ? `VAT ${s.vat_number}` : null, s.company_id ? `Reg. ${s.company_id}` : null, s.email]
  const heading = [
    `No. ${doc.document_number ?? 'DRAFT'}`,
    doc.issue_date ? `Issue date ${doc.issue_date}` : null,
    doc.due_date ? `Due date ${doc.due_date}` : null,
    doc.delivery_date ? `Delivery date ${doc.delivery_date}` : null,
  ].filter((s): s is string => !!s)
  const rows = Math.max(seller.filter(Boolean).length, heading.length)
  const sellerLines = seller.filter((s): s is string => !!s)
  for (let i = 0; i < rows; i++) {
    if (sellerLines[i]) w.text(sellerLines[i]!, MARGIN, { size: 9, maxWidth: 280 })
    if (heading[i]) w.text(heading[i]!, right, { size: 10, right: true, bold: i === 0 })
    w.down(13)
  }

  // Client block.
  w.down(12)
  w.text('Bill to', MARGIN, { size: 9, bold: true })
  w.down(14)
  const c = doc.client
  for (const line of [c.legal_name ?? c.name, c.legal_name && c.legal_name !== c.name ? c.name : null, c.address, [c.postal_code, c.city].filter(Boolean).join(' '), c.country, c.vat_number ? `VAT ${c.vat_number}` : null, c.email]) {
    if (!line) continue
    w.text(line, MARGIN, { size: 10, maxWidth: 300 })
    w.down(13)
  }

  // Lines.
  w.down(14)
  const cols = { desc: MARGIN, qty: 330, price: 410, vat: 460, net: right }
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
  for (const l of doc.lines) {
    w.ensure(l.notes ? 40 : 28)
    if (w.y > A4[1] - MARGIN - 1) header()
    w.text(l.description, cols.desc, { size: 9, maxWidth: 230 })
    w.text(`${l.quantity} ${l.unit}`, cols.qty, { size: 9, right: true, maxWidth: 90 })
    w.text(l.unit_price, cols.price, { size: 9, right: true })
    w.text(l.vat_category === 'S' ? `${l.vat_rate}%` : `${l.vat_category} ${l.vat_rate}%`, cols.vat, { size: 9, right: true })
    w.text(l.net_amount, cols.net, { size: 9, right: true })
    w.down(12)
    if (l.notes) {
      w.text(l.notes, cols.desc + 8, { size: 8, maxWidth: 400 })
      w.down(11)
    }
  }
  w.rule()
  w.down(16)

  // VAT breakdown and totals.
  w.ensure(30 + doc.vat_breakdown.length * 13 + 60)
  for (const b of doc.vat_breakdown) {
    w.text(`VAT ${b.category} ${b.rate}% on ${b.net}`, 380, { size: 9, right: true })
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
    w.text(label, 380, { size: 10, right: true, bold: strong })
    w.text(value, right, { size: 10, right: true, bold: strong })
    w.down(15)
  }

  // Payment details.
  if (doc.due_date || accounts.length || doc.notes) w.down(10)
  if (doc.due_date && doc.type !== 'credit_note' && doc.type !== 'quote') {
    w.ensure(20)
    w.text(`Please pay ${doc.amount_due} ${doc.currency} by ${doc.due_date}.`, MARGIN, { size: 10 })
    w.down(16)
  }
  for (const a of accounts) {
    w.ensure(20)
    w.text(`${a.name}: IBAN ${a.iban}${a.bic ? `  BIC ${a.bic}` : ''}`, MARGIN, { size: 9, maxWidth: right - MARGIN })
    w.down(13)
  }
  if (doc.notes) {
    w.down(6)
    for (const para of doc.notes.split(/\r?\n/).slice(0, 30)) {
      w.ensure(14)
      w.text(para, MARGIN, { size: 9, maxWidth: right - MARGIN })
      w.down(12)
    }
  }
  return w.save()
}
