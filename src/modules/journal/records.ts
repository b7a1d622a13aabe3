// What an entry says of its record (extensions §17 `data`): one function per kind of record, used when an entry is
// appended and again by verify over the records as they stand, so a record changed behind the service's back no
// longer gives its entry's data.
import { canonical, sha256Hex } from './chain'

/** An issued document's row as the journal reads it (column names as stored). */
export interface DocumentRecordRow {
  id: number
  type: string
  document_number: string | null
  issue_date: string | null
  due_date: string | null
  delivery_date: string | null
  currency: string
  client_snapshot: string | null
  seller_snapshot: string | null
  buyer_reference: string | null
  order_reference: string | null
  notes: string | null
  proforma_id: number | null
  credited_document_id: number | null
  net_total: string
  vat_total: string
  total: string
}

export interface LineRecordRow {
  id: number
  position: number
  description: string
  quantity: string
  unit: string
  unit_price: string
  vat_rate: string
  vat_category: string
  vat_exemption_code: string | null
  notes: string | null
  net_amount: string
}

export interface BandRecordRow {
  category: string
  rate: string
  net: string
  vat: string
}

export interface PaymentRecordRow {
  id: number
  amount: string
  currency: string
  payment_date: string
  payment_method: string
  status: string
  document_id: number
  document_number: string | null
  receipt_number: string | null
}

/** The seller's details of a Business (the columns an issued document's seller is made of). */
export interface BusinessRecordRow {
  name: string
  legal_name: string | null
  vat_number: string | null
  is_vat_payer: number | boolean
  company_id: string | null
  email: string | null
  address: string | null
  city: string | null
  postal_code: string | null
  country: string | null
  electronic_address_scheme: string | null
  electronic_address: string | null
  contact_name: string | null
  contact_phone: string | null
  contact_email: string | null
  tax_registration_id: string | null
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The document's JSON as answered at issue, kept to what issue fixes (in the answer's field names): what moves
 * afterwards by the service's own rules (status, amounts paid and due, actions, sends, reminders, links made later)
 * is left out, so the hash holds for as long as nobody changes the document behind the service's back.
 */
export function issuedDocumentJson(doc: DocumentRecordRow, lines: LineRecordRow[], bands: BandRecordRow[]) {
  return {
    id: doc.id,
    type: doc.type,
    document_number: doc.document_number,
    issue_date: doc.issue_date,
    due_date: doc.due_date,
    delivery_date: doc.delivery_date ?? doc.issue_date,
    currency: doc.currency,
    client: doc.client_snapshot === null ? null : JSON.parse(doc.client_snapshot),
    seller: doc.seller_snapshot === null ? null : JSON.parse(doc.seller_snapshot),
    buyer_reference: doc.buyer_reference,
    order_reference: doc.order_reference,
    notes: doc.notes,
    proforma_id: doc.proforma_id,
    credited_document_id: doc.credited_document_id,
    lines: [...lines]
      .sort((a, b) => a.position - b.position)
      .map((l) => ({
        id: l.id,
        position: l.position,
        description: l.description,
        quantity: l.quantity,
        unit: l.unit,
        unit_price: l.unit_price,
        vat_rate: l.vat_rate,
        vat_category: l.vat_category,
        vat_exemption_code: l.vat_exemption_code,
        notes: l.notes,
        net_amount: l.net_amount,
      })),
    vat_breakdown: vatBreakdown(bands),
    net_total: doc.net_total,
    vat_total: doc.vat_total,
    total: doc.total,
  }
}

/** Bands in one order that needs no money arithmetic: by category, then by rate as written. */
function vatBreakdown(bands: BandRecordRow[]) {
  return [...bands]
    .sort((a, b) => byText(a.category, b.category) || byText(a.rate, b.rate))
    .map((b) => ({ category: b.category, rate: b.rate, net: b.net, vat: b.vat }))
}

/** `data` of a document's entry: what an auditor reads, and the SHA-256 of its issued JSON. */
export function documentData(doc: DocumentRecordRow, lines: LineRecordRow[], bands: BandRecordRow[]) {
  const client = (doc.client_snapshot ? JSON.parse(doc.client_snapshot) : {}) as {
    name?: string
    vat_number?: string | null
  }
  return {
    type: doc.type,
    number: doc.document_number,
    issue_date: doc.issue_date,
    client: { name: client.name ?? null, vat_number: client.vat_number ?? null },
    currency: doc.currency,
    net_total: doc.net_total,
    vat_total: doc.vat_total,
    total: doc.total,
    vat_breakdown: vatBreakdown(bands),
    document_sha256: sha256Hex(canonical(issuedDocumentJson(doc, lines, bands))),
  }
}

/**
 * `data` of a Payment's entry, as it stands after the change the entry records: written straight as canonical JSON
 * (keys in sorted order, each value as JSON writes it), since verify makes it for most entries of a chain.
 */
export function paymentDataText(p: PaymentRecordRow): string {
  const j = JSON.stringify
  return (
    `{"amount":${j(p.amount)},"currency":${j(p.currency)},"document":{"id":${j(p.document_id)},"number":${j(p.document_number)}},` +
    `"method":${j(p.payment_method)},"payment_date":${j(p.payment_date)},"receipt_number":${j(p.receipt_number)},"status":${j(p.status)}}`
  )
}

/** `data` of a business.changed entry: the seller's details as they now stand. */
export function businessData(b: BusinessRecordRow) {
  return {
    name: b.name,
    legal_name: b.legal_name,
    vat_number: b.vat_number,
    is_vat_payer: Boolean(b.is_vat_payer),
    company_id: b.company_id,
    email: b.email,
    address: b.address,
    city: b.city,
    postal_code: b.postal_code,
    country: b.country,
    electronic_address:
      b.electronic_address_scheme && b.electronic_address
        ? { scheme: b.electronic_address_scheme, value: b.electronic_address }
        : null,
    contact: { name: b.contact_name, phone: b.contact_phone, email: b.contact_email },
    tax_registration_id: b.tax_registration_id,
  }
}
