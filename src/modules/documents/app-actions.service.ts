// The application-only document actions that send no email: mark sent, take the mark back, duplicate into a Draft.
// Each judges the document inside its one transaction and writes nothing when refused (see app-actions.ts).
import type { Queryable, Tx } from '../../db/client'
import { hotFor } from '../../db/hot-shape'
import { FieldErrorBag, inAppWords, NotFound } from '../../shared/errors'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { utcDay } from '../../shared/dates'
import type { Actor } from '../../platform/actor'
import { getBusiness, type BusinessRow } from '../business'
import { findClient } from '../clients'
import { mailStateOf, type MailState } from '../mailbox'
import { raiseEvent } from '../webhooks'
import {
  APP_ACTIONS,
  appActionsOf,
  appRefusalFor,
  duplicateRefusal,
  lastSentOf,
  markSentRefusal,
  receiptEmailRefusal,
  receiptSendingRefusal,
  unmarkSentRefusal,
  type AppFacts,
} from './app-actions'
import { ACTIONS, refusalFor } from './lifecycle'
import {
  findDocument,
  insertDocument,
  recordReminderRow,
  linesOf,
  listDocuments,
  replaceLines,
  updateDocumentRow,
  type DocumentFilter,
  type DocumentRow,
} from './documents.repo'
import { overdue } from './documents.present'
import { amountDue } from './paid'
import { format } from '../../shared/money'
import { throwRefusal, viewDocuments, viewDocumentsWithFacts, type DocumentDeps } from './documents.service'
import type { DocumentView } from './documents.present'
import { computeTotals, totalColumns } from './totals'
import { copiedLine, resolveLines, type LineInput } from './lines'

/** Who acts: the Actor's Business and Role are all these actions read. */
export type Acting = Pick<Actor, 'businessId' | 'role'>

/** The facts of the application-only actions for one document, from the reader or inside a transaction. */
export async function gatherAppFacts(
  q: Queryable,
  business: BusinessRow,
  doc: DocumentRow,
  mailRelay: string | null,
  today: string,
): Promise<AppFacts> {
  const client = await findClient(q, business.id, doc.clientId)
  return appFactsOf(doc, client, await mailStateOf(q, business, mailRelay, today, 'client'))
}

/** The facts the application-only actions judge: the document, its Client (undefined: gone), the mail state. */
function appFactsOf(doc: DocumentRow, client: { email: string | null } | undefined, mail: MailState): AppFacts {
  return {
    doc,
    clientExists: client !== undefined,
    clientEmail: client?.email ?? null,
    mailVia: mail.via,
    send: {
      mailboxLost: mail.mailboxLost,
      sentToday: mail.sentToday,
      dailyLimit: mail.dailyLimit,
      resumesOn: mail.resumesOn,
    },
  }
}

/** Why no Receipt of the Business can be emailed now (null: it can), in the refusal's words, for the Receipts list. */
export async function receiptMailClosed(deps: DocumentDeps, who: Acting): Promise<string | null> {
  const business = await getBusiness(deps.db.read, who.businessId)
  const mail = await mailStateOf(deps.db.read, business, deps.config.mailRelay, utcDay(deps.clock.now()), 'client')
  return receiptSendingRefusal({ mailVia: mail.via, send: mail })?.message ?? null
}

/**
 * A document with both its API `actions` and the application-only actions, each closed one with the refusal's words,
 * for the application's document page: the buttons and the actions use the same judges.
 */
/** A document as the application's page shows it. */
export type AppDocument = Awaited<ReturnType<typeof viewDocumentForApp>>

export async function viewDocumentForApp(deps: DocumentDeps, who: Acting, id: number) {
  const q = deps.db.read
  // The document through the hot reader, as the API's viewDocument reads it: a row has 49 columns since this round,
  // and the query builder's mapping of them had made this page slower than it was before issue 34.
  const hot = hotFor(deps.db, q)
  const business = await getBusiness(q, who.businessId)
  const doc = await findDocument(q, who.businessId, id, hot)
  if (!doc) throw new NotFound('No such document.')
  // One read of the document, its Client and the Business's mail state serves both judges.
  const [{ view, facts: apiFacts, client, mail }] = (await viewDocumentsWithFacts(deps, q, business, who.role, [
    doc,
  ])) as [Awaited<ReturnType<typeof viewDocumentsWithFacts>>[number]]
  const facts = appFactsOf(doc, client, mail)
  // Why each closed action is closed, in the application's words (a person reads them beside the button).
  const reasons: Record<string, string> = {}
  for (const a of ACTIONS) {
    const r = refusalFor(a, apiFacts)
    if (r) reasons[a] = inAppWords(r.code, r.message)
  }
  for (const a of APP_ACTIONS) {
    const r = appRefusalFor(a, facts)
    if (r) reasons[a] = inAppWords(r.code, r.message)
  }
  // The numbers of the documents it links (the credited Invoice, its Credit Notes), for the links' words.
  const linked = [...(doc.creditedDocumentId ? [doc.creditedDocumentId] : []), ...view.credit_note_ids]
  const numbers: Record<string, string> = {}
  for (const other of await Promise.all(linked.map((l) => findDocument(q, who.businessId, l, hot))))
    if (other?.documentNumber) numbers[String(other.id)] = other.documentNumber
  return {
    document: view,
    app_actions: appActionsOf(facts, who.role),
    reasons,
    last_reminded_at: doc.lastRemindedAt,
    business,
    // Why "Email the Receipt" cannot send now, whatever the Receipt (the button is closed with it, not failing after).
    receipt_mail_closed: receiptEmailRefusal({ voidedAt: null }, facts)?.message ?? null,
    credited_number: doc.creditedDocumentId ? (numbers[String(doc.creditedDocumentId)] ?? null) : null,
    credit_note_numbers: numbers,
  }
}

async function viewOne(deps: DocumentDeps, who: Acting, id: number): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, who.businessId)
  const doc = await findDocument(deps.db.read, who.businessId, id)
  if (!doc) throw new NotFound('No such document.')
  return (await viewDocuments(deps, deps.db.read, business, who.role, [doc]))[0]!
}

async function documentIn(tx: Tx, who: Acting, id: number): Promise<DocumentRow> {
  const doc = await findDocument(tx, who.businessId, id)
  if (!doc) throw new NotFound('No such document.')
  return doc
}

/**
 * Marks an issued document sent by hand (it went out by post, or from another mailbox): `last_sent` becomes
 * `{at, recipients: [], via: "marked"}` and document.sent is raised, in one transaction.
 */
export async function markSent(deps: DocumentDeps, who: Acting, id: number): Promise<DocumentView> {
  await deps.db.write(async (tx) => {
    const doc = await documentIn(tx, who, id)
    const refusal = markSentRefusal(doc)
    if (refusal) throwRefusal(refusal)
    const at = deps.clock.now().toISOString()
    await updateDocumentRow(tx, who.businessId, id, {
      lastSent: JSON.stringify({ at, recipients: [], via: 'marked' }),
      updatedAt: at,
    })
    await raiseEvent(tx, deps.clock, who.businessId, 'document.sent', id)
  })
  return viewOne(deps, who, id)
}

/** Takes a mark made by hand back: `last_sent` becomes the newest send that went out by email, or null. Raises nothing. */
export async function unmarkSent(deps: DocumentDeps, who: Acting, id: number): Promise<DocumentView> {
  await deps.db.write(async (tx) => {
    const doc = await documentIn(tx, who, id)
    const refusal = unmarkSentRefusal(doc)
    if (refusal) throwRefusal(refusal)
    await updateDocumentRow(tx, who.businessId, id, {
      lastSent: doc.lastMailed,
      updatedAt: deps.clock.now().toISOString(),
    })
  })
  return viewOne(deps, who, id)
}

/**
 * A new Draft of the same type for the same Client (as the Client now stands, active or not), currency, payment
 * terms, Lines (Products kept, prices as written), notes, bank accounts and credited Invoice; no number, no dates,
 * no Proforma link. Refused `client_deleted` when the Client is gone. Creating a Draft raises no event.
 */
export async function duplicateDocument(deps: DocumentDeps, who: Acting, id: number): Promise<DocumentView> {
  const newId = await deps.db.write(async (tx) => {
    const doc = await documentIn(tx, who, id)
    const refusal = duplicateRefusal({
      clientExists: (await findClient(tx, who.businessId, doc.clientId)) !== undefined,
    })
    if (refusal) throwRefusal(refusal)
    const lines = (await linesOf(tx, [doc.id])).get(doc.id) ?? []
    const totals = computeTotals(lines, currencyScale(doc.currency))
    const now = deps.clock.now().toISOString()
    const draft = await insertDocument(tx, {
      businessId: who.businessId,
      type: doc.type,
      status: 'draft',
      clientId: doc.clientId,
      currency: doc.currency,
      paymentTerms: doc.paymentTerms,
      notes: doc.notes,
      bankAccountIds: doc.bankAccountIds,
      creditedDocumentId: doc.creditedDocumentId,
      isTest: doc.isTest,
      ...totalColumns(totals),
      createdAt: now,
      updatedAt: now,
    })
    await replaceLines(tx, draft.id, lines.map(copiedLine), totals)
    return draft.id
  })
  return viewOne(deps, who, newId)
}

/** Records that the Client was reminded now (after the reminder went out). */
/**
 * Records a reminder that went out (extensions §14): `last_reminded` (`step_days` null: by hand, else the schedule's
 * step), one more in `reminders_sent`, and document.reminded, in one transaction.
 */
export async function recordRemindedInTx(
  deps: DocumentDeps,
  tx: Tx,
  businessId: number,
  id: number,
  recipients: string[],
  stepDays: number | null = null,
): Promise<void> {
  const at = deps.clock.now().toISOString()
  await recordReminderRow(tx, businessId, id, at, JSON.stringify({ at, step_days: stepDays, recipients }))
  await raiseEvent(tx, deps.clock, businessId, 'document.reminded', id)
}

export { lastSentOf }

/**
 * The totals a Draft's Lines would have, as the editor shows them while a person types: the same Line rules and
 * money math as saving (resolveLines, computeTotals); field errors come back instead of totals.
 */
export async function previewTotals(deps: DocumentDeps, businessId: number, currency: string, lines: LineInput[]) {
  const bag = new FieldErrorBag()
  if (!isCurrency(currency))
    return { errors: { currency: ['must be an ISO 4217 currency code such as EUR'] } as Record<string, string[]> }
  const resolved = await resolveLines(deps.db.read, businessId, currency, currencyScale(currency), lines, bag)
  if (!bag.empty) return { errors: bag.errors }
  const t = computeTotals(resolved, currencyScale(currency))
  return {
    totals: {
      net: t.net,
      vat: t.vat,
      total: t.total,
      lines: t.lineNets,
      bands: t.bands.map((b) => ({ category: b.category, rate: b.rate, net: b.net, vat: b.vat })),
    },
  }
}

/** A document as a list row shows it: the application's documents list reads one query, not a full answer per row. */
export interface DocumentSummary {
  id: number
  type: string
  status: string
  document_number: string | null
  client_name: string
  currency: string
  issue_date: string | null
  due_date: string | null
  total: string
  amount_due: string
  is_overdue: boolean
}

export async function documentSummaries(
  deps: DocumentDeps,
  businessId: number,
  afterId: number,
  limit: number,
  filter: DocumentFilter,
): Promise<DocumentSummary[]> {
  const q = deps.db.read
  // Through the hot reader, as the API's list reads them: since issue 34's round a row has 49 columns (38 before),
  // and the query builder's per-column mapping made this list 20% slower than it was.
  const rows = await listDocuments(q, businessId, afterId, limit, filter, hotFor(deps.db, q))
  const today = utcDay(deps.clock.now())
  // A Draft shows its Client as it now stands; an issued document the name it was issued to.
  const names = new Map<number, string>()
  for (const r of rows) {
    if (r.clientSnapshot || names.has(r.clientId)) continue
    names.set(r.clientId, (await findClient(q, businessId, r.clientId))?.name ?? '')
  }
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    status: r.status,
    document_number: r.documentNumber,
    client_name: r.clientSnapshot
      ? ((JSON.parse(r.clientSnapshot) as { name?: string }).name ?? '')
      : (names.get(r.clientId) ?? ''),
    currency: r.currency,
    issue_date: r.issueDate,
    due_date: r.dueDate,
    total: r.total,
    amount_due: format(amountDue(r), currencyScale(r.currency)),
    is_overdue: overdue(r, today).is,
  }))
}
