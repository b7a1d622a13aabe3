// A document as the API answers it: Lines, VAT breakdown, money, actions for the credential's Role, overdue state.
import { einvoiceIdentity, type BankAccountRow, type BusinessRow, type Role } from '../business'
import { electronicAddressOf, type ClientRow } from '../clients'
import { currencyScale } from '../../shared/currencies'
import { format, stored } from '../../shared/money'
import type { BandRow, DocumentRow, LineRow } from './documents.repo'
import { actionsOf, LINK_BASE, refusalFor, type Facts } from './lifecycle'
import { amountDue } from './paid'
import { writtenLine } from './lines'
import { categoryRank } from './totals'
import { accountingFigures } from '../fx'
import { words } from '../words'

/**
 * A document type as people read it in English (the application's words); what a Client reads takes the document's
 * language: `words(doc.language).titles`.
 */
export const DOCUMENT_TITLES: Record<string, string> = words('en').titles

export interface ClientSnapshot {
  name: string
  legal_name: string | null
  email: string | null
  address: string | null
  city: string | null
  postal_code: string | null
  country: string
  vat_number: string | null
  /** Taken at issue since the e-invoice formats; older snapshots lack them and read as null. */
  electronic_address?: { scheme: string; value: string } | null
  buyer_reference?: string | null
}

export function snapshotOf(c: ClientRow): ClientSnapshot {
  return {
    name: c.name,
    legal_name: c.legalName,
    email: c.email,
    address: c.address,
    city: c.city,
    postal_code: c.postalCode,
    country: c.country,
    vat_number: c.vatNumber,
    electronic_address: electronicAddressOf(c),
    buyer_reference: c.buyerReference,
  }
}

/** A bank account as a document shows it (kept in the seller snapshot: a later change to the account changes no issued document). */
export interface ShownBankAccount {
  id: number
  name: string
  iban: string
  bic: string | null
  currency: string | null
}

/**
 * The seller as a document shows it: taken at issue and kept, so a later change to the Business changes no issued
 * document (its PDF, XML, public page and webhook bodies all read this). `vat_number` is null for a Non-VAT Payer.
 */
export interface SellerSnapshot {
  name: string
  legal_name: string | null
  vat_number: string | null
  company_id: string | null
  email: string | null
  address: string | null
  city: string | null
  postal_code: string | null
  country: string
  bank_accounts: ShownBankAccount[]
  /** BT-34; taken at issue since the e-invoice formats (older snapshots read as EM with the email). */
  electronic_address?: { scheme: string; value: string } | null
  /** BG-6, the seller contact (XRechnung needs all three); the email defaults to the Business email. */
  contact?: { name: string | null; phone: string | null; email: string | null }
  /** BT-32, the seller's tax registration id. */
  tax_registration_id?: string | null
}

/** A seller snapshot with the e-invoice fields always answered: an older snapshot's from its email alone. */
function withEInvoiceFields(s: SellerSnapshot): Required<SellerSnapshot> {
  return {
    ...s,
    electronic_address: s.electronic_address ?? (s.email ? { scheme: 'EM', value: s.email } : null),
    contact: s.contact ?? { name: null, phone: null, email: s.email },
    tax_registration_id: s.tax_registration_id ?? null,
  }
}

/**
 * The one rule for which of the Business's accounts a document shows (PDF and XML alike): those it names, else the
 * Business's accounts in its currency or with none, else all of them. (The migration 0009 backfill follows it too.)
 */
export function accountsShown(ids: number[], currency: string, accounts: BankAccountRow[]): ShownBankAccount[] {
  const byId = new Map(accounts.map((a) => [a.id, a]))
  let chosen = ids.map((id) => byId.get(id)).filter((a): a is BankAccountRow => a !== undefined)
  if (chosen.length === 0) {
    const same = accounts.filter((a) => a.currency === null || a.currency === currency)
    chosen = same.length ? same : accounts
  }
  return chosen.map((a) => ({ id: a.id, name: a.name, iban: a.iban, bic: a.bic, currency: a.currency }))
}

export function sellerSnapshotOf(b: BusinessRow, accounts: ShownBankAccount[]): Required<SellerSnapshot> {
  return {
    name: b.name,
    legal_name: b.legalName,
    vat_number: b.isVatPayer ? b.vatNumber : null,
    company_id: b.companyId,
    email: b.email,
    address: b.address,
    city: b.city,
    postal_code: b.postalCode,
    country: b.country,
    bank_accounts: accounts,
    ...einvoiceIdentity(b),
  }
}

const DAY_MS = 86_400_000

/** Overdue: an issued Invoice or unconverted Proforma, past its due date, neither paid nor cancelled (UTC today). */
export function overdue(
  doc: Pick<DocumentRow, 'type' | 'status' | 'dueDate' | 'convertedIntoId'>,
  today: string,
): { is: boolean; days: number | null } {
  const open = doc.status === 'issued' || doc.status === 'partially_paid'
  const kind = doc.type === 'invoice' || (doc.type === 'proforma' && doc.convertedIntoId === null)
  if (!open || !kind || !doc.dueDate || doc.dueDate >= today) return { is: false, days: null }
  return { is: true, days: Math.round((Date.parse(today) - Date.parse(doc.dueDate)) / DAY_MS) }
}

export interface PresentInput {
  doc: DocumentRow
  lines: LineRow[]
  bands: BandRow[]
  /** The Client as it now stands, shown on a Draft. */
  client: ClientRow | undefined
  /** The seller as it now stands (the Business and its accounts), shown on a Draft. */
  seller: SellerSnapshot
  facts: Facts
  role: Role
  today: string
  /** The Credit Notes that credit this document (extensions §20). */
  creditNoteIds?: number[]
  /** The Business's currency now: a Draft in another currency states its VAT in it (extensions §16). */
  businessCurrency: string
  /** The language a Draft follows: its Client's, else the Business's (an issued document keeps its own). */
  draftLanguage: string
}

/**
 * A document's figures in the Business's currency (extensions §16): fixed at issue and read as stored; on a Draft,
 * computed from the rate sent (none sent: the rate and amounts are null until issue fixes them). All null when the
 * currencies are the same, or for a document issued before rates existed.
 */
function accountingOf(doc: DocumentRow, bands: BandRow[], businessCurrency: string) {
  const none = { rate: null, currency: null, vat: null, bands: bands.map(() => null) }
  if (doc.status !== 'draft') {
    if (!doc.accountingCurrency) return none
    return {
      rate: doc.exchangeRate,
      currency: doc.accountingCurrency,
      vat: doc.vatTotalAccounting,
      bands: bands.map((b) => b.vatAccounting),
    }
  }
  if (doc.currency === businessCurrency) return none
  if (!doc.exchangeRate) return { ...none, currency: businessCurrency }
  const f = accountingFigures(doc, bands, doc.exchangeRate, businessCurrency)
  return { rate: doc.exchangeRate, currency: businessCurrency, vat: f.vatTotal, bands: f.bands.map((b) => b.vat) }
}

export function presentDocument({
  doc,
  lines,
  bands,
  client,
  seller,
  facts,
  role,
  today,
  businessCurrency,
  draftLanguage,
  creditNoteIds = [],
}: PresentInput) {
  const scale = currencyScale(doc.currency)
  const sortedBands = [...bands].sort(
    (a, b) => stored(b.rate).cmp(stored(a.rate)) || categoryRank(a.category) - categoryRank(b.category),
  )
  const accounting = accountingOf(doc, sortedBands, businessCurrency)
  const snapshot: ClientSnapshot = doc.clientSnapshot
    ? (JSON.parse(doc.clientSnapshot) as ClientSnapshot)
    : client
      ? snapshotOf(client)
      : {
          name: '',
          legal_name: null,
          email: null,
          address: null,
          city: null,
          postal_code: null,
          country: '',
          vat_number: null,
        }
  const od = overdue(doc, today)
  return {
    id: doc.id,
    type: doc.type,
    status: doc.status,
    document_number: doc.documentNumber,
    payment_reference: doc.paymentReference,
    requested_document_number: doc.requestedDocumentNumber,
    client_id: doc.clientId,
    client: {
      ...snapshot,
      electronic_address:
        snapshot.electronic_address ?? (snapshot.email ? { scheme: 'EM', value: snapshot.email } : null),
      buyer_reference: snapshot.buyer_reference ?? null,
    },
    seller: withEInvoiceFields(doc.sellerSnapshot ? (JSON.parse(doc.sellerSnapshot) as SellerSnapshot) : seller),
    currency: doc.currency,
    issue_date: doc.issueDate,
    due_date: doc.dueDate,
    delivery_date: doc.deliveryDate ?? doc.issueDate,
    payment_terms: doc.paymentTerms,
    lines: lines.map((l) => ({ id: l.id, position: l.position, ...writtenLine(l), net_amount: l.netAmount })),
    vat_breakdown: sortedBands.map((b, i) => ({
      category: b.category,
      rate: b.rate,
      net: b.net,
      vat: b.vat,
      vat_accounting: accounting.bands[i] ?? null,
    })),
    net_total: doc.netTotal,
    vat_total: doc.vatTotal,
    total: doc.total,
    exchange_rate: accounting.rate,
    accounting_currency: accounting.currency,
    vat_total_accounting: accounting.vat,
    amount_paid: format(stored(doc.amountPaid), scale),
    amount_due: format(amountDue(doc), scale),
    still_takes_payment: refusalFor('record_payment', facts) === null,
    actions: actionsOf(facts, role),
    last_sent: doc.lastSent ? (JSON.parse(doc.lastSent) as { at: string; recipients: string[]; via: string }) : null,
    last_reminded: doc.lastReminded
      ? (JSON.parse(doc.lastReminded) as { at: string; step_days: number | null; recipients: string[] })
      : null,
    reminders_sent: doc.remindersSent,
    is_overdue: od.is,
    days_overdue: od.days,
    proforma_id: doc.proformaId,
    converted_into_id: doc.convertedIntoId,
    credited_document_id: doc.creditedDocumentId,
    recurring_invoice_id: doc.recurringInvoiceId,
    credit_note_ids: creditNoteIds,
    amount_refunded: format(stored(doc.amountRefunded), scale),
    is_test: doc.isTest,
    // Always absolute (extensions §8): a Client is sent it as is.
    public_url: doc.publicToken ? `${LINK_BASE.url}/p/${doc.publicToken}` : null,
    bank_account_ids: JSON.parse(doc.bankAccountIds) as number[],
    notes: doc.notes,
    // BT-10 defaults to the Client's: as it stood at issue, or as it now stands on a Draft.
    buyer_reference: doc.buyerReference ?? snapshot.buyer_reference ?? null,
    order_reference: doc.orderReference,
    language: doc.language ?? draftLanguage,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
  }
}

export type DocumentView = ReturnType<typeof presentDocument>
