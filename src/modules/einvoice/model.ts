// The EN16931 semantic model of one document (business terms BT-n, groups BG-n), built from the document as the API
// answers it: the rule table judges this model and the UBL writer writes exactly it, so what is checked is what is sent.
import type { BusinessRow } from '../business'
import type { DocumentView } from '../documents'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { isCountry } from '../../shared/countries'
import { Dec, decimalsOf, stored } from '../../shared/money'
import type { XmlFormat } from '../../shared/einvoice-formats'
import { CATEGORY_REASON, SEPA_COUNTRIES, unitCodeOf, vatexText } from './codes'

/** BT-24: the EN16931 core, with no CIUS or extension. */
const SPECIFICATION_ID = 'urn:cen.eu:en16931:2017'
/** BT-24 of the German CIUS (XRechnung 3.0). */
const XRECHNUNG_ID = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0'
/** BT-24 of Peppol BIS Billing 3.0. */
const PEPPOL_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'
/** BT-23: the Peppol billing process, which XRechnung's rules ask for too (PEPPOL-EN16931-R001). */
const PEPPOL_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'

/** What each format writes as BT-24 and BT-23, and its syntax. */
export const FORMAT_PROFILE: Readonly<
  Record<XmlFormat, { specificationId: string; processId: string | null; syntax: 'ubl' | 'cii' }>
> = {
  ubl: { specificationId: SPECIFICATION_ID, processId: null, syntax: 'ubl' },
  cii: { specificationId: SPECIFICATION_ID, processId: null, syntax: 'cii' },
  'xrechnung-ubl': { specificationId: XRECHNUNG_ID, processId: PEPPOL_PROCESS, syntax: 'ubl' },
  'xrechnung-cii': { specificationId: XRECHNUNG_ID, processId: PEPPOL_PROCESS, syntax: 'cii' },
  peppol: { specificationId: PEPPOL_ID, processId: PEPPOL_PROCESS, syntax: 'ubl' },
}

export interface PostalAddress {
  street: string | null
  additionalStreet: string | null
  city: string | null
  postalCode: string | null
  /** ISO 3166-1 alpha-2; null when unknown. */
  country: string | null
}

export interface Party {
  /** BT-27 / BT-44: the legal name. */
  name: string
  /** BT-28 / BT-45: the name it trades under, when it differs from the legal name. */
  tradingName: string | null
  /** BT-29 / BT-46: an identifier with no scheme. */
  identifier: string | null
  /** BT-30 / BT-47: legal registration identifier. */
  legalRegistrationId: string | null
  /** BT-31 / BT-48: VAT identifier as written (prefixed when it can be). */
  vatId: string | null
  address: PostalAddress
  /** BT-34 / BT-49: electronic address (EAS scheme and value). */
  electronicAddress: { scheme: string; value: string } | null
  /** BT-32: tax registration identifier (Seller only). */
  taxRegistrationId: string | null
  /** BG-6 / BG-9: contact point (BT-41/56), telephone (BT-42/57), email (BT-43/58); null writes none. */
  contact: { name: string | null; phone: string | null; email: string | null } | null
}

export interface ModelLine {
  /** BT-126 */
  id: string
  /** BT-127 */
  note: string | null
  /** BT-129 */
  quantity: string
  /** BT-130, UN/ECE Rec 20 */
  unitCode: string
  /** BT-131, as written */
  netAmount: string
  /** BT-153 */
  name: string
  /** BT-146 */
  price: string
  /** BT-151 */
  category: string
  /** BT-152 as written; null when not written (category O). */
  rate: string | null
  /** The Line's VATEX code; it reaches the XML through its band's breakdown. */
  exemptionCode: string | null
}

/** BG-20 / BG-21. The service writes none; the model carries them so the rule table reads as the standard's. */
export interface DocumentLevelAmount {
  amount: string
  category: string
  rate: string | null
  reason: string | null
  reasonCode: string | null
}

export interface Breakdown {
  /** BT-116 */
  taxable: string
  /** BT-117 */
  tax: string
  /** BT-118 */
  category: string
  /** BT-119; null when not written (category O). */
  rate: string | null
  /** BT-121 */
  exemptionCode: string | null
  /** BT-120 */
  exemptionText: string | null
}

export interface BankAccount {
  /** BT-84: the IBAN. */
  iban: string
  /** BT-85 */
  name: string | null
  /** BT-86 */
  bic: string | null
}

export interface EInvoiceModel {
  kind: 'invoice' | 'credit_note'
  /** The format asked: which syntax writes it and which CIUS rules judge it. */
  format: XmlFormat
  /** BT-24 */
  specificationId: string
  /** BT-23: business process; null when the format writes none. */
  processId: string | null
  /** BT-10 */
  buyerReference: string | null
  /** BT-13 */
  orderReference: string | null
  /** BT-1 */
  number: string | null
  /** BT-2 */
  issueDate: string | null
  /** BT-3: 380 commercial invoice, 381 credit note (UNTDID 1001). */
  typeCode: string
  /** BT-5 */
  currency: string
  /** BT-9 */
  dueDate: string | null
  /** BT-22 */
  note: string | null
  /** BG-3: the Invoice a Credit Note corrects. */
  precedingInvoice: { number: string | null; issueDate: string | null } | null
  seller: Party
  buyer: Party
  /** BG-13: actual delivery date (BT-72) and, where written, the deliver-to address (BG-15). */
  delivery: { date: string | null; partyName: string | null; address: PostalAddress | null }
  /** BG-14: the service writes none. */
  invoicingPeriod: { start: string | null; end: string | null } | null
  /** BG-16: payment means code (BT-81), remittance information (BT-83) and credit transfer accounts (BG-17). */
  payment: { code: string; paymentId: string | null; accounts: BankAccount[] }
  /** BT-20 */
  paymentTerms: string | null
  allowances: DocumentLevelAmount[]
  charges: DocumentLevelAmount[]
  /** BT-110 */
  taxTotal: string
  /**
   * BT-6 and BT-111 (extensions §16): the VAT accounting currency (the Business's) and the VAT total in it, for a
   * document in another currency; null when the currencies are the same.
   */
  taxCurrency: { code: string; taxTotal: string } | null
  breakdown: Breakdown[]
  /** BG-22 */
  totals: {
    lineNet: string
    allowances: string | null
    charges: string | null
    taxExclusive: string
    taxInclusive: string
    prepaid: string | null
    rounding: string | null
    payable: string
  }
  lines: ModelLine[]
}

export interface ModelSource {
  view: DocumentView
  /** Only its public id is read: the seller's name, numbers, address and accounts come from `view.seller` (kept at issue). */
  business: BusinessRow
  /** The Invoice a Credit Note corrects, when it names one that still exists. */
  credited: { number: string | null; issueDate: string | null } | null
  /** The format asked (default ubl). */
  format?: XmlFormat
}

/** An amount as EN16931 writes it: at most two decimals (the currency's own when fewer); a third non-zero decimal stays, so BR-DEC refuses it. */
function amountText(value: string, currency: string): string {
  const v = stored(value)
  const scale = isCurrency(currency) ? currencyScale(currency) : 2
  const d = decimalsOf(v)
  return d <= 2 ? v.toFixed(Math.min(scale, 2)) : v.toFixed(d)
}

/** A unit price (BT-146, no decimals limit) at least at the currency's scale up to two: "10.00", "9.123456". */
function priceText(value: string, currency: string): string {
  const v = stored(value)
  const scale = isCurrency(currency) ? currencyScale(currency) : 2
  return v.toFixed(Math.max(decimalsOf(v), Math.min(scale, 2)))
}

/** A VAT rate as a plain number ("19", "7.5"). */
function percentText(rate: string): string {
  return stored(rate).toFixed()
}

/**
 * A VAT identifier as written: separators dropped; a number stored with no country code takes the country's code
 * first; one that starts with two letters keeps them as they are, so BR-CO-09 judges a wrong or lower-case prefix.
 */
export function vatIdOf(raw: string, country: string | null): string {
  const compact = raw.replace(/[\s.\-/]/g, '')
  if (/^[A-Za-z]{2}/.test(compact)) return compact.slice(0, 2) + compact.slice(2).toUpperCase()
  const cc = (country ?? '').trim().toUpperCase()
  return isCountry(cc) ? cc + compact.toUpperCase() : compact.toUpperCase()
}

/** Characters XML 1.0 cannot carry; the writer drops them, so the model drops them first and the rules judge what is written. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** User text as the XML carries it. */
function writable(s: string): string {
  return s.replace(NOT_XML, '')
}

/** Optional user text as the XML carries it, trimmed; null when nothing is left. */
function writableOrNull(s: string | null | undefined): string | null {
  return s ? writable(s).trim() || null : null
}

function addressOf(
  address: string | null,
  city: string | null,
  postalCode: string | null,
  country: string | null,
): PostalAddress {
  const lines = writable(address ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean)
  return {
    street: lines[0] ?? null,
    additionalStreet: lines.slice(1).join(', ') || null,
    city: writableOrNull(city),
    postalCode: writableOrNull(postalCode),
    country: country?.trim() || null,
  }
}

function paymentOf(view: DocumentView): EInvoiceModel['payment'] {
  // The accounts the document shows (its PDF names the same): those it names, else the Business's in its currency.
  const chosen = view.seller.bank_accounts
  const paymentId = view.document_number
  if (chosen.length === 0) return { code: '1', paymentId, accounts: [] }
  // SEPA carries euros between SEPA countries; any other transfer to an IBAN is a plain credit transfer.
  const sepa = view.currency === 'EUR' && chosen.every((a) => SEPA_COUNTRIES.has(a.iban.slice(0, 2)))
  return {
    code: sepa ? '58' : '30',
    paymentId,
    accounts: chosen.map((a) => ({ iban: a.iban, name: a.name, bic: a.bic })),
  }
}

const DAY_MS = 86_400_000

/**
 * BT-20 in words that agree with the due date: the days counted from the issue date to the due date (a due date
 * set by hand may differ from the Client's payment_terms), else the terms when either date is missing.
 */
function termsOf(view: Pick<DocumentView, 'payment_terms' | 'issue_date' | 'due_date'>): string {
  const days =
    view.issue_date && view.due_date
      ? Math.round((Date.parse(view.due_date) - Date.parse(view.issue_date)) / DAY_MS)
      : view.payment_terms
  const words = days === 0 ? 'Payment due on receipt' : `Payment within ${days} day${days === 1 ? '' : 's'}`
  return view.due_date ? `${words} (due ${view.due_date})` : words
}

/** One breakdown per VAT band; a 0% band whose Lines name different exemption codes is split by code (and BR-x-01 then refuses it). */
function breakdownOf(view: DocumentView, format: XmlFormat, sellerCountry: string): Breakdown[] {
  // XRechnung asks every breakdown for its rate (BR-DE-14), O's too, written 0, and so does Peppol of a German
  // seller (DE-R-014); the EN core leaves O's out.
  const oRate =
    format === 'xrechnung-ubl' || format === 'xrechnung-cii' || (format === 'peppol' && sellerCountry === 'DE')
      ? '0'
      : null
  const out: Breakdown[] = []
  for (const band of view.vat_breakdown) {
    const rate = stored(band.rate)
    const inBand = view.lines.filter((l) => l.vat_category === band.category && stored(l.vat_rate).eq(rate))
    const codes = [...new Set(inBand.map((l) => l.vat_exemption_code))]
    const written = band.category === 'O' ? oRate : percentText(band.rate)
    if (codes.length <= 1) {
      const code = codes[0] ?? null
      out.push({
        taxable: amountText(band.net, view.currency),
        tax: amountText(band.vat, view.currency),
        category: band.category,
        rate: written,
        exemptionCode: code,
        exemptionText: code ? (vatexText(code) ?? CATEGORY_REASON[band.category]?.text ?? null) : null,
      })
      continue
    }
    for (const code of codes) {
      const net = inBand
        .filter((l) => l.vat_exemption_code === code)
        .reduce((s, l) => s.plus(stored(l.net_amount)), new Dec('0'))
      out.push({
        taxable: amountText(net.toFixed(), view.currency),
        tax: amountText('0', view.currency),
        category: band.category,
        rate: written,
        exemptionCode: code,
        exemptionText: code ? vatexText(code) : null,
      })
    }
  }
  return out
}

/** BG-6: the seller's contact as kept at issue; null when it has none of the three. */
function sellerContactOf(s: DocumentView['seller']): Party['contact'] {
  const contact = {
    name: writableOrNull(s.contact.name),
    phone: writableOrNull(s.contact.phone),
    email: writableOrNull(s.contact.email),
  }
  return contact.name || contact.phone || contact.email ? contact : null
}

export function buildModel({ view, business, credited, format = 'ubl' }: ModelSource): EInvoiceModel {
  const c = view.client
  const s = view.seller
  const profile = FORMAT_PROFILE[format]
  const onlyO = view.lines.length > 0 && view.lines.every((l) => l.vat_category === 'O')
  // A document wholly outside the scope of VAT names no VAT identifier (BR-O-02); a Non-VAT Payer's is shown nowhere.
  const sellerVat = !onlyO && s.vat_number?.trim() ? vatIdOf(s.vat_number, s.country) : null
  const buyerVat = !onlyO && c.vat_number?.trim() ? vatIdOf(c.vat_number, c.country) : null
  const sellerName = writableOrNull(s.legal_name) ?? writable(s.name)
  const buyerName = writableOrNull(c.legal_name) ?? writable(c.name)
  const sellerTradingName = writable(s.name)
  const buyerTradingName = writableOrNull(c.name)
  const money = (s: string) => amountText(s, view.currency)

  const lines: ModelLine[] = view.lines.map((l) => ({
    id: String(l.position),
    note: writableOrNull(l.notes),
    quantity: l.quantity,
    unitCode: unitCodeOf(l.unit),
    netAmount: money(l.net_amount),
    name: writable(l.description),
    price: priceText(l.unit_price, view.currency),
    category: l.vat_category,
    rate: l.vat_category === 'O' ? null : percentText(l.vat_rate),
    exemptionCode: l.vat_exemption_code,
  }))
  const buyerAddress = addressOf(c.address, c.city, c.postal_code, c.country)
  const intraCommunity = view.lines.some((l) => l.vat_category === 'K')

  return {
    kind: view.type === 'credit_note' ? 'credit_note' : 'invoice',
    format,
    specificationId: profile.specificationId,
    processId: profile.processId,
    buyerReference: writableOrNull(view.buyer_reference),
    orderReference: writableOrNull(view.order_reference),
    number: view.document_number,
    issueDate: view.issue_date,
    typeCode: view.type === 'credit_note' ? '381' : '380',
    currency: view.currency,
    dueDate: view.due_date,
    note: writableOrNull(view.notes),
    precedingInvoice: view.type === 'credit_note' && credited ? credited : null,
    seller: {
      name: sellerName,
      tradingName: sellerTradingName && sellerTradingName !== sellerName ? sellerTradingName : null,
      // Every document names its Seller (BR-CO-26), also one of only O Lines, which carries no VAT identifier.
      identifier: s.company_id?.trim() ? null : business.publicId,
      legalRegistrationId: s.company_id?.trim() || null,
      vatId: sellerVat,
      address: addressOf(s.address, s.city, s.postal_code, s.country),
      electronicAddress: s.electronic_address
        ? { scheme: s.electronic_address.scheme, value: writable(s.electronic_address.value) }
        : null,
      taxRegistrationId: writableOrNull(s.tax_registration_id),
      contact: sellerContactOf(s),
    },
    buyer: {
      name: buyerName,
      tradingName: buyerTradingName && buyerTradingName !== buyerName ? buyerTradingName : null,
      identifier: null,
      legalRegistrationId: null,
      vatId: buyerVat,
      address: buyerAddress,
      electronicAddress: c.electronic_address
        ? { scheme: c.electronic_address.scheme, value: writable(c.electronic_address.value) }
        : null,
      taxRegistrationId: null,
      contact: c.email ? { name: null, phone: null, email: c.email } : null,
    },
    // Goods supplied within the EU are delivered to the Client's address, which the receiver's VAT return needs (BR-IC-11, BR-IC-12).
    delivery: {
      date: view.delivery_date,
      partyName: intraCommunity ? buyerName : null,
      address: intraCommunity ? buyerAddress : null,
    },
    invoicingPeriod: null,
    payment: paymentOf(view),
    paymentTerms: termsOf(view),
    allowances: [],
    charges: [],
    taxTotal: money(view.vat_total),
    taxCurrency:
      view.accounting_currency && view.vat_total_accounting !== null
        ? { code: view.accounting_currency, taxTotal: amountText(view.vat_total_accounting, view.accounting_currency) }
        : null,
    breakdown: breakdownOf(view, format, business.country),
    totals: {
      lineNet: money(view.net_total),
      allowances: null,
      charges: null,
      taxExclusive: money(view.net_total),
      taxInclusive: money(view.total),
      // The document as issued: Payments recorded later do not change the e-invoice.
      prepaid: null,
      rounding: null,
      payable: money(view.total),
    },
    lines,
  }
}
