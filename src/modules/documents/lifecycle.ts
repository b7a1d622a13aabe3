// The document lifecycle's one judge: for each Action, the Refusal it would answer, used both to refuse a request
// and to predict it in `actions`, so the two can never disagree.
import { issuingLimited, roleAllows } from '../../platform/policy'
import type { Role } from '../business'
import { Dec, stored } from '../../shared/money'
import type { DocumentRow } from './documents.repo'
import { amountDue } from './paid'
import { remindRefusal } from './app-actions'

export const ACTIONS = ['issue', 'send', 'cancel', 'convert', 'record_payment', 'delete', 'remind'] as const
export type ActionName = (typeof ACTIONS)[number]

/**
 * Where a person acts on a remedy: the application's mailbox and billing pages (extensions §9), under the service's
 * public URL. Set once at start (setRemedyBase); the pages ask which Business when the person has several.
 */
export const REMEDY_URLS: { connect_mail_provider: string; choose_plan: string } = {
  connect_mail_provider: 'http://localhost:8080/app/settings/mailbox',
  choose_plan: 'http://localhost:8080/app/settings/billing',
}

/** The service's public URL that links in answers start with (`public_url`, remedies); set with setRemedyBase. */
export const LINK_BASE = { url: 'http://127.0.0.1:8080' }

/** Points the remedy URLs and `public_url` at this service's public URL (config.ts publicBaseUrl, extensions §8). */
export function setRemedyBase(base: string): void {
  LINK_BASE.url = base
  REMEDY_URLS.connect_mail_provider = `${base}/app/settings/mailbox`
  REMEDY_URLS.choose_plan = `${base}/app/settings/billing`
}

export type { RefusalInfo } from '../../shared/errors'
import type { RefusalInfo } from '../../shared/errors'

/** A linked Proforma as an Invoice Draft sees it. */
export type LinkedProforma =
  | { deleted: true }
  | { deleted: false; row: Pick<DocumentRow, 'id' | 'type' | 'status' | 'currency' | 'clientId' | 'convertedIntoId'> }

/** What a Send is judged by besides the provider's presence (see `mailVia`). */
export interface SendFacts {
  /** The Business's mailbox is one this edition cannot reach: its account counts as lost. */
  mailboxLost: boolean
  /** Recipients already sent through the service's own mail server this UTC day. */
  sentToday: number
  /** The daily recipient limit of the service's own mail server; null when another provider sends. */
  dailyLimit: number | null
  /** The UTC day the count starts again. */
  resumesOn: string
  /** Recipients this Send would have (To, Cc and Bcc each count); 1, the Client, when predicting. */
  recipients: number
  /** The Send names its own `to`, so the Client's email is not needed. */
  toGiven: boolean
  /** With nothing to send through, why (the refusal names the real cause); unknown where not gathered. */
  noMail?: 'no_relay' | 'no_address' | null
}

/** Everything the judge needs, fetched beforehand (inside the transaction when a change follows). */
export interface Facts {
  doc: Pick<
    DocumentRow,
    | 'type'
    | 'status'
    | 'convertedIntoId'
    | 'proformaId'
    | 'total'
    | 'amountPaid'
    | 'issueDate'
    | 'clientId'
    | 'currency'
  >
  business: { isTest: boolean; plan: string; issuingLimit: number }
  /** The address the document would be sent to (the Client's email). */
  clientEmail: string | null
  /** How the Business would send: null when it has no way to. */
  mailVia: string | null
  send: SendFacts
  proforma: LinkedProforma | null
  /** The Invoice a converted Proforma became (for payment_goes_to_its_invoice). */
  invoice: { id: number; document_number: string | null } | null
  /** Invoices this Business issued in the year an issue would fall in. */
  invoicesIssuedInYear: number
  year: number
  /** What taking the document's number would answer (requested number checks, numbering_at_its_end). */
  numbering: RefusalInfo | null
  /**
   * exchange_rate_missing when a Draft in another currency than the Business's has no rate sent and no reference rate
   * is held for its issue date or before (extensions §16); null otherwise. Absent where no issue is judged.
   */
  exchangeRate?: RefusalInfo | null
  /** What taking the next Receipt number would answer. */
  receiptNumbering: RefusalInfo | null
  /**
   * What issuing the Invoice a Convert creates would answer: gathered only for a Proforma that can convert (the
   * extra reads are paid there alone); absent or null elsewhere.
   */
  convertIssue?: ConvertIssueFacts | null
}

/** The Invoice a Convert creates is issued at once (issue date today), so Convert answers what its Issue would. */
export interface ConvertIssueFacts {
  /** Invoices this Business issued in today's year; 0 when no limit binds it. */
  invoicesIssuedInYear: number
  /** Today's year, the new Invoice's issue year. */
  year: number
  /** What taking the next Invoice number would answer (numbering_at_its_end). */
  numbering: RefusalInfo | null
  /** exchange_rate_missing for the new Invoice: no reference rate today and none on the Proforma. */
  exchangeRate?: RefusalInfo | null
}

import { refusalInfo as r } from '../../shared/errors'

/** Refusals of saving a Draft linked to a Proforma (create, update, and issue again before the number is taken). */
export function proformaLinkRefusal(
  type: string,
  currency: string,
  clientId: number,
  proforma: LinkedProforma | null,
): RefusalInfo | null {
  if (!proforma) return null
  if (proforma.deleted) return r('proforma_deleted')
  const p = proforma.row
  if (p.type !== 'proforma') return r('not_a_proforma')
  if (type !== 'invoice') return r('only_into_an_invoice')
  if (p.status === 'cancelled') return r('cancelled_not_converted')
  if (p.currency !== currency) return r('proforma_other_currency', { proforma: p.currency, document: currency })
  if (p.clientId !== clientId) return r('proforma_other_client')
  return null
}

function issueRefusal(f: Facts): RefusalInfo | null {
  const d = f.doc
  if (d.status !== 'draft') return r('already_issued')
  if (d.proformaId !== null) {
    const link = proformaLinkRefusal(d.type, d.currency, d.clientId, f.proforma)
    if (link) return link
    const p = f.proforma && !f.proforma.deleted ? f.proforma.row : null
    if (p?.status === 'draft') return r('draft_not_converted')
    if (p?.convertedIntoId) return r('already_converted')
  }
  if (d.type === 'invoice') {
    const limit = issuingLimitRefusal(f.business, f.invoicesIssuedInYear, f.year)
    if (limit) return limit
  }
  return f.exchangeRate ?? f.numbering
}

/** The yearly issuing limit binds a Test business and the Free plan, on Invoices (Issue, Send of a Draft, Convert). */
function issuingLimitRefusal(business: Facts['business'], issuedInYear: number, year: number): RefusalInfo | null {
  if (!issuingLimited(business) || issuedInYear < business.issuingLimit) return null
  const refusal = r('issuing_limit_reached', { limit: business.issuingLimit, year })
  return business.isTest ? refusal : { ...refusal, remedy: 'choose_plan', remedy_url: REMEDY_URLS.choose_plan }
}

/** Whether the document is of a kind and state that holds Payments at all (Record and Amend both ask). */
export function takesPaymentsRefusal(d: Pick<DocumentRow, 'type' | 'status'>): RefusalInfo | null {
  if (d.type === 'credit_note' || d.type === 'quote') return r('type_takes_no_payments', { type: d.type })
  if (d.status === 'draft') return r('draft_takes_no_payments')
  if (d.status === 'cancelled') return r('cancelled_takes_no_payments')
  return null
}

export function refusalFor(action: ActionName, f: Facts): RefusalInfo | null {
  const d = f.doc
  switch (action) {
    case 'issue':
      return issueRefusal(f)
    case 'send': {
      if (d.status === 'cancelled') return r('cancelled_not_sent')
      if (!f.clientEmail && !f.send.toGiven) return r('no_client_address')
      const mailRemedy = { remedy: 'connect_mail_provider', remedy_url: REMEDY_URLS.connect_mail_provider }
      if (!f.mailVia) return { ...r('no_mail_provider', { why: f.send.noMail ?? null }), ...mailRemedy }
      if (f.send.mailboxLost) return { ...r('mail_account_lost', { via: f.mailVia }), ...mailRemedy }
      const s = f.send
      if (s.dailyLimit !== null && s.sentToday + s.recipients > s.dailyLimit) {
        return {
          ...r('sending_limit_reached', {
            limit: s.dailyLimit,
            sentToday: s.sentToday,
            recipients: s.recipients,
            resumesOn: s.resumesOn,
          }),
          ...mailRemedy,
        }
      }
      return d.status === 'draft' ? issueRefusal(f) : null
    }
    case 'cancel':
      if (d.status === 'draft') return r('draft_not_cancelled')
      if (d.status === 'cancelled') return r('already_cancelled')
      if (d.status === 'paid') return r('paid_not_cancelled')
      if (stored(d.amountPaid).gt(new Dec('0'))) return r('holds_money')
      return null
    case 'convert':
      if (d.type !== 'proforma') return r('not_a_proforma')
      if (d.status === 'draft') return r('draft_not_converted')
      if (d.status === 'cancelled') return r('cancelled_not_converted')
      if (d.convertedIntoId !== null) return r('already_converted')
      // Then what issuing the new Invoice would answer, in Issue's order: the issuing limit, then its number.
      if (!f.convertIssue) return null
      return (
        issuingLimitRefusal(f.business, f.convertIssue.invoicesIssuedInYear, f.convertIssue.year) ??
        f.convertIssue.exchangeRate ??
        f.convertIssue.numbering
      )
    case 'record_payment': {
      const kind = takesPaymentsRefusal(d)
      if (kind) return kind
      if (d.type === 'proforma' && d.convertedIntoId !== null) {
        return {
          ...r('payment_goes_to_its_invoice', { invoiceNumber: f.invoice?.document_number ?? null }),
          remedy: 'record_on_its_invoice',
          extra: { invoice: f.invoice },
        }
      }
      if (amountDue(d).lte(new Dec('0'))) return r('nothing_due')
      return f.receiptNumbering
    }
    case 'delete':
      return d.status === 'draft' ? null : r('issued_not_deleted')
    case 'remind':
      // The application's Remind judge (app-actions.ts), for a reminder by hand to the Client (extensions §14).
      return remindRefusal(
        {
          doc: { ...d, lastSent: null, lastRemindedAt: null },
          clientExists: true,
          clientEmail: f.clientEmail,
          mailVia: f.mailVia,
          send: f.send,
          recipients: 1,
        },
        false,
      )
  }
}

export type ActionEntry = { open: true } | { open: false; code: string; remedy?: string; remedy_url?: string }

/** The `actions` map for a credential's Role: role_forbidden for a Viewer, else each Action's refusal or open. */
export function actionsOf(f: Facts, role: Role): Record<ActionName, ActionEntry> {
  return judgeActions(ACTIONS, role, (a) => refusalFor(a, f))
}

/**
 * The one judge of an `actions` map, the API's and the application's alike: role_forbidden for a Role that only
 * reads (the platform's roleAllows), else each action's refusal (its code and remedy) or open.
 */
export function judgeActions<A extends string>(
  names: readonly A[],
  role: Role,
  refusal: (a: A) => RefusalInfo | null,
): Record<A, ActionEntry> {
  const out = {} as Record<A, ActionEntry>
  const mayChange = roleAllows(role, 'write')
  for (const a of names) {
    if (!mayChange) {
      out[a] = { open: false, code: 'role_forbidden' }
      continue
    }
    const refused = refusal(a)
    if (!refused) out[a] = { open: true }
    else {
      const entry: ActionEntry = { open: false, code: refused.code }
      if (refused.remedy) entry.remedy = refused.remedy
      if (refused.remedy_url) entry.remedy_url = refused.remedy_url
      out[a] = entry
    }
  }
  return out
}
