// Document use cases: create and update Drafts, delete, issue, cancel, convert; read with actions.
import { hotFor } from '../../db/hot-shape'
import type { Actor } from '../../platform/actor'
import { blank } from '../../shared/text'
import { randomBytes } from 'node:crypto'
import type { Database, Queryable, Tx } from '../../db/client'
import type { DocumentType } from '../../db/schema'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, InvalidRequest, NotFound, Refusal } from '../../shared/errors'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { addDays, isDate, LAST_DATE, utcDay } from '../../shared/dates'
import {
  foreignBankAccountIds,
  getBusiness,
  listBankAccounts,
  type BankAccountRow,
  type BusinessRow,
  type Role,
} from '../business'
import { findClient, findClients, type ClientRow } from '../clients'
import type { DocumentCreateInput, DocumentUpdateInput } from './documents.model'
import {
  bandsOf,
  creditNoteIdsOf,
  deleteDraftRow,
  documentSearchText,
  findDocument,
  insertDocument,
  linesOf,
  listDocuments,
  paymentReferenceTaken,
  replaceLines,
  setBandsAccounting,
  updateDocumentRow,
  type DocumentFilter,
  type DocumentInsert,
  type DocumentRow,
} from './documents.repo'
import {
  accountsShown,
  presentDocument,
  sellerSnapshotOf,
  snapshotOf,
  type DocumentView,
  type SellerSnapshot,
} from './documents.present'
import { FactsMemo, gatherFacts, linkedProforma, type FactsOptions } from './facts'
import { proformaLinkRefusal, refusalFor, type ActionName, type Facts, type RefusalInfo } from './lifecycle'
import { copiedLine, resolveAgain, resolveLines, writtenLine, type LineInput } from './lines'
import { numberingFor, take } from '../numbering'
import { computeTotals, totalColumns } from './totals'
import { paidState } from './paid'
import { stored } from '../../shared/money'
import { creditorReference, referenceBodyOf } from '../../shared/creditor-reference'
import { raiseEvent } from '../webhooks'
import { accountingFigures, parseRate, referenceRate } from '../fx'
import { mailStateOf, providerOf, type MailboxInfo, type MailState } from '../mailbox'
import { journalDocument } from '../journal'

export interface DocumentDeps {
  db: Database
  clock: Clock
  config: { mailRelay: string | null }
}

/** More accounts than any Business keeps: a document's accounts are chosen from all of them in one read. */
const ACCOUNTS_PAGE = 1000

function allBankAccounts(q: Queryable, businessId: number): Promise<BankAccountRow[]> {
  return listBankAccounts(q, businessId, 0, ACCOUNTS_PAGE)
}

/** The seller a document shows: its snapshot once issued, else the Business and its accounts as they now stand. */
export async function sellerOfDocument(q: Queryable, business: BusinessRow, doc: DocumentRow): Promise<SellerSnapshot> {
  if (doc.sellerSnapshot) return JSON.parse(doc.sellerSnapshot) as SellerSnapshot
  return sellerSnapshotOf(
    business,
    accountsShown(JSON.parse(doc.bankAccountIds) as number[], doc.currency, await allBankAccounts(q, business.id)),
  )
}

function today(deps: DocumentDeps): string {
  return utcDay(deps.clock.now())
}

/** How the Business sends mail now: its own mailbox (smtp, or a hosted kind), else the service's own server when it has an address of its own. */
function mailViaOf(business: BusinessRow, mailRelay: string | null, mailbox: MailboxInfo | null = null): string | null {
  return providerOf(business, mailRelay, mailbox)?.kind ?? null
}

/** The Send facts of a Business's mail state, for the default Send `actions` predicts unless a Send says more. */
export function sendFactsOf(mail: MailState): FactsOptions['send'] {
  return {
    mailboxLost: mail.mailboxLost,
    sentToday: mail.sentToday,
    dailyLimit: mail.dailyLimit,
    resumesOn: mail.resumesOn,
    noMail: mail.noMail,
  }
}

export function throwRefusal(r: RefusalInfo): never {
  throw Refusal.of(r)
}

type DueCause = 'payment_terms' | 'issue_date' | 'due_date'

/** Why a due date counted from `issueDate` cannot be written, in the words of the field that causes it. */
function dueDateTooLate(cause: DueCause, issueDate: string, terms: number): string {
  if (cause === 'issue_date')
    return `with payment_terms of ${terms} days puts the due date past ${LAST_DATE}; send an earlier issue_date or a due_date`
  if (cause === 'due_date')
    return `is needed: payment_terms of ${terms} days from the issue date ${issueDate} fall past ${LAST_DATE}`
  return `puts the due date past ${LAST_DATE} (counted from the issue date ${issueDate}); send fewer days or a due_date`
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export async function viewDocuments(
  deps: DocumentDeps,
  q: Queryable,
  business: BusinessRow,
  role: Role,
  docs: DocumentRow[],
): Promise<DocumentView[]> {
  return (await viewDocumentsWithFacts(deps, q, business, role, docs)).map((v) => v.view)
}

/**
 * The documents as the API answers them, with what they were judged by (the lifecycle facts, the Client, the Business's
 * mail state), so a caller that judges more (the application's own actions) reads nothing twice.
 */
export async function viewDocumentsWithFacts(
  deps: DocumentDeps,
  q: Queryable,
  business: BusinessRow,
  role: Role,
  docs: DocumentRow[],
) {
  const ids = docs.map((d) => d.id)
  const hot = hotFor(deps.db, q)
  const [lines, bands, credits] = await Promise.all([
    linesOf(q, ids, hot),
    bandsOf(q, ids, hot),
    creditNoteIdsOf(q, business.id, ids, hot),
  ])
  const day = today(deps)
  // Once per Business, not per document: its mailbox and today's count decide every document's `actions.send`.
  const mail = await mailStateOf(q, business, deps.config.mailRelay, day, 'client')
  const memo = new FactsMemo()
  // The page's Clients in one query; each document's facts find its own among them.
  const clients = await findClients(
    q,
    business.id,
    docs.map((d) => d.clientId),
    hot,
  )
  for (const d of docs) memo.keep(`client:${d.clientId}`, clients.get(d.clientId))
  // A Draft shows the seller as the Business now stands; the accounts are read only when a Draft is among the rows.
  const accounts = docs.some((d) => d.sellerSnapshot === null) ? await allBankAccounts(q, business.id) : []
  const out: { view: DocumentView; facts: Facts; client: ClientRow | undefined; mail: MailState }[] = []
  for (const doc of docs) {
    const client = await memo.once(`client:${doc.clientId}`, () => findClient(q, business.id, doc.clientId))
    const facts = await gatherFacts(q, business, doc, { today: day, mailVia: mail.via, send: sendFactsOf(mail), memo })
    const seller = sellerSnapshotOf(
      business,
      doc.sellerSnapshot === null
        ? accountsShown(JSON.parse(doc.bankAccountIds) as number[], doc.currency, accounts)
        : [],
    )
    const view = presentDocument({
      doc,
      lines: lines.get(doc.id) ?? [],
      bands: bands.get(doc.id) ?? [],
      client,
      seller,
      facts,
      role,
      today: day,
      businessCurrency: business.currency,
      draftLanguage: client?.language ?? business.language,
      creditNoteIds: credits.get(doc.id),
    })
    out.push({ view, facts, client, mail })
  }
  return out
}

export async function viewDocument(deps: DocumentDeps, q: Queryable, c: Actor, id: number): Promise<DocumentView> {
  const business = await getBusiness(q, c.businessId)
  const doc = await findDocument(q, c.businessId, id, hotFor(deps.db, q))
  if (!doc) throw new NotFound('No such document.')
  return (await viewDocuments(deps, q, business, c.role, [doc]))[0]!
}

export async function listDocumentViews(
  deps: DocumentDeps,
  c: Actor,
  afterId: number,
  limit: number,
  filter: DocumentFilter,
) {
  const rows = await listDocuments(deps.db.read, c.businessId, afterId, limit, filter, deps.db.hot)
  const business = await getBusiness(deps.db.read, c.businessId)
  return viewDocuments(deps, deps.db.read, business, c.role, rows)
}

// ---------------------------------------------------------------------------------------------------------------
// Drafts

interface DraftPlan {
  set: Partial<DocumentInsert>
  lines: Awaited<ReturnType<typeof resolveLines>> | null
}

/** Validates the fields of a create or update against the document as it would stand; collects field errors. */
async function planDraft(
  deps: DocumentDeps,
  business: BusinessRow,
  type: DocumentType,
  input: DocumentUpdateInput,
  current: DocumentRow | null,
): Promise<DraftPlan> {
  const q = deps.db.read
  const bag = new FieldErrorBag()
  const set: Partial<DocumentInsert> = {}

  let client: ClientRow | undefined
  const clientId = input.client_id ?? current?.clientId
  if (clientId !== undefined) {
    client = await findClient(q, business.id, clientId)
    if (!client) bag.add('client_id', 'is not a Client of this Business')
    else if (input.client_id !== undefined) set.clientId = client.id
  }

  let currency = current?.currency
  const sentCurrency = blank(input.currency)?.toUpperCase()
  if (sentCurrency) {
    if (!isCurrency(sentCurrency)) bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
    else currency = set.currency = sentCurrency
  } else if (!current && client) currency = set.currency = client.currency

  for (const f of ['issue_date', 'due_date', 'delivery_date'] as const) {
    const v = input[f]
    if (v === undefined) continue
    if (v !== null && !isDate(v)) bag.add(f, 'must be a real date written YYYY-MM-DD')
    else set[f === 'issue_date' ? 'issueDate' : f === 'due_date' ? 'dueDate' : 'deliveryDate'] = v
  }
  const issueDate = set.issueDate !== undefined ? set.issueDate : current?.issueDate
  const dueDate = set.dueDate !== undefined ? set.dueDate : current?.dueDate
  if (issueDate && dueDate && dueDate < issueDate) bag.add('due_date', 'must not be before the issue date')

  if (input.payment_terms !== undefined && input.payment_terms !== null) set.paymentTerms = input.payment_terms
  else if (!current && client) set.paymentTerms = client.paymentTerms

  // The due date issue will count must be writable (years up to 9999): refused now, before anything is saved.
  if (!dueDate && !bag.errors.issue_date && !bag.errors.due_date) {
    const from = issueDate ?? today(deps)
    const terms = set.paymentTerms ?? current?.paymentTerms ?? 30
    if (addDays(from, terms) === null) {
      // Name the field this request sent that pushes the date out; a stored Draft with none sent is its terms'.
      const cause: DueCause =
        input.payment_terms != null
          ? 'payment_terms'
          : input.issue_date != null
            ? 'issue_date'
            : input.due_date === null
              ? 'due_date'
              : 'payment_terms'
      bag.add(cause, dueDateTooLate(cause, from, terms))
    }
  }

  if (input.bank_account_ids !== undefined && input.bank_account_ids !== null) {
    const foreign = await foreignBankAccountIds(q, business.id, input.bank_account_ids)
    input.bank_account_ids.forEach(
      (id, i) => foreign.has(id) && bag.add(`bank_account_ids.${i}`, "is not one of the Business's bank accounts"),
    )
    set.bankAccountIds = JSON.stringify([...new Set(input.bank_account_ids)].sort((a, b) => a - b))
  } else if (!current && client) set.bankAccountIds = client.preferredBankAccountIds

  // The rate (extensions §16) is only for a document in another currency than the Business's; a kept rate goes with
  // a change of currency, which it no longer describes.
  if (input.exchange_rate !== undefined && input.exchange_rate !== null) {
    const r = parseRate(input.exchange_rate)
    if (!r.ok) bag.add('exchange_rate', r.message)
    else if (currency === business.currency)
      bag.add('exchange_rate', `is only for a document in another currency than the Business's (${business.currency})`)
    else set.exchangeRate = r.rate
  } else if (input.exchange_rate === null) set.exchangeRate = null
  else if (current?.exchangeRate && set.currency !== undefined && set.currency !== current.currency)
    set.exchangeRate = null

  if (input.document_number !== undefined) set.requestedDocumentNumber = blank(input.document_number) ?? null
  if (input.notes !== undefined) set.notes = blank(input.notes) ?? null
  if (input.buyer_reference !== undefined) set.buyerReference = blank(input.buyer_reference) ?? null
  if (input.order_reference !== undefined) set.orderReference = blank(input.order_reference) ?? null

  if (input.proforma_id !== undefined) {
    if (input.proforma_id === null) set.proformaId = null
    else {
      const p = await findDocument(q, business.id, input.proforma_id)
      if (!p || p.type !== 'proforma') bag.add('proforma_id', 'is not a Proforma Invoice of this Business')
      else set.proformaId = p.id
    }
  }
  // The credited Invoice: the one sent, or the one kept when this update moves the Client or the currency.
  let credited: DocumentRow | undefined
  if (input.credited_document_id !== undefined) {
    if (input.credited_document_id === null) set.creditedDocumentId = null
    else if (type !== 'credit_note') bag.add('credited_document_id', 'is taken only by a Credit Note')
    else {
      credited = await findDocument(q, business.id, input.credited_document_id)
      if (!credited || credited.type !== 'invoice' || credited.status === 'draft')
        bag.add('credited_document_id', 'is not an issued Invoice of this Business')
      else set.creditedDocumentId = credited.id
    }
  } else if (
    type === 'credit_note' &&
    current?.creditedDocumentId &&
    (set.clientId !== undefined || set.currency !== undefined)
  ) {
    credited = await findDocument(q, business.id, current.creditedDocumentId)
  }
  // A Credit Note credits its own Client's Invoice, in that Invoice's currency.
  if (credited && !bag.errors.credited_document_id) {
    if (client && credited.clientId !== client.id)
      bag.add('credited_document_id', "is an Invoice of another Client; a Credit Note credits its own Client's Invoice")
    else if (currency && credited.currency !== currency)
      bag.add(
        'credited_document_id',
        `is an Invoice in ${credited.currency}; a Credit Note is written in its Invoice's currency`,
      )
  }

  let lines: DraftPlan['lines'] = null
  if (input.lines !== undefined && currency && isCurrency(currency)) {
    lines = await resolveLines(q, business.id, currency, currencyScale(currency), input.lines as LineInput[], bag)
  }
  bag.throwIfAny()

  // A changed currency re-prices nothing by itself, but its scale must fit the Lines kept.
  if (lines === null && current && set.currency && set.currency !== current.currency) {
    lines = await copiedLines(q, business.id, current.id, set.currency)
  }
  // A new Credit Note made from an Invoice with no Lines of its own starts with that Invoice's Lines (extensions §20).
  if (lines === null && !current && type === 'credit_note' && credited && input.lines === undefined && currency) {
    lines = await copiedLines(q, business.id, credited.id, currency)
  }

  // A Draft linked to a Proforma is saved only while the link holds.
  const proformaId = set.proformaId !== undefined ? set.proformaId : (current?.proformaId ?? null)
  if (proformaId !== null && client && currency) {
    const link = proformaLinkRefusal(type, currency, client.id, await linkedProforma(q, business.id, proformaId))
    if (link) throwRefusal(link)
  }
  return { set, lines }
}

/** A document's Lines resolved again as a Draft's, in `currency` (whose scale they must fit), Products kept. */
async function copiedLines(q: Queryable, businessId: number, fromId: number, currency: string) {
  const kept = (await linesOf(q, [fromId])).get(fromId) ?? []
  return resolveAgain(q, businessId, currency, kept.map(writtenLine))
}

function applyTotals(set: Partial<DocumentInsert>, currency: string, lines: DraftPlan['lines']) {
  const totals = computeTotals(lines ?? [], currencyScale(currency))
  Object.assign(set, totalColumns(totals))
  return totals
}

export async function createDocument(deps: DocumentDeps, c: Actor, input: DocumentCreateInput): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  const { set, lines } = await planDraft(deps, business, input.type, input, null)
  const now = deps.clock.now().toISOString()
  const totals = computeTotals(lines ?? [], currencyScale(set.currency!))
  return deps.db.write(async (tx) => {
    const row: DocumentInsert = {
      businessId: business.id,
      type: input.type,
      status: 'draft',
      clientId: set.clientId!,
      currency: set.currency!,
      paymentTerms: set.paymentTerms ?? 30,
      isTest: business.isTest,
      createdAt: now,
      updatedAt: now,
      ...set,
      ...totalColumns(totals),
    }
    const doc = await insertDocument(tx, row)
    await replaceLines(tx, doc.id, lines ?? [], totals)
    // Read inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
    return viewDocument(deps, tx, c, doc.id)
  })
}

export async function updateDocument(
  deps: DocumentDeps,
  c: Actor,
  id: number,
  input: DocumentUpdateInput,
): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  const current = await findDocument(deps.db.read, c.businessId, id)
  if (!current) throw new NotFound('No such document.')
  if (current.status !== 'draft') throw Refusal.say('issued_not_changed')
  const { set, lines } = await planDraft(deps, business, current.type, input, current)
  set.updatedAt = deps.clock.now().toISOString()
  await deps.db.write(async (tx) => {
    const now = await findDocument(tx, c.businessId, id)
    if (!now) throw Refusal.say('draft_deleted')
    if (now.status !== 'draft') throw Refusal.say('issued_not_changed')
    let totals = null
    if (lines !== null) totals = applyTotals(set, set.currency ?? now.currency, lines)
    // Notes are searched: their search text is rewritten from the row as it stands in this transaction.
    if (set.notes !== undefined) set.searchText = documentSearchText({ ...now, notes: set.notes })
    await updateDocumentRow(tx, c.businessId, id, set, 'draft')
    if (totals) await replaceLines(tx, id, lines!, totals)
  })
  return viewDocument(deps, deps.db.read, c, id)
}

export async function deleteDocument(deps: DocumentDeps, c: Actor, id: number): Promise<void> {
  await deps.db.write(async (tx) => {
    const doc = await findDocument(tx, c.businessId, id)
    if (!doc) throw new NotFound('No such document.')
    if (doc.status !== 'draft') throw Refusal.say('issued_not_deleted')
    await deleteDraftRow(tx, c.businessId, id)
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Lifecycle

/** Refuses with the lifecycle judge's answer for the document as it stands inside the transaction. */
async function judge(
  deps: DocumentDeps,
  tx: Tx,
  business: BusinessRow,
  doc: DocumentRow,
  action: ActionName,
): Promise<void> {
  const facts = await gatherFacts(tx, business, doc, {
    today: today(deps),
    mailVia: mailViaOf(business, deps.config.mailRelay),
  })
  const refusal = refusalFor(action, facts)
  if (refusal) throwRefusal(refusal)
}

/** The Business's document `id` (404 when there is none), its action judged inside the transaction. */
async function documentJudged(
  deps: DocumentDeps,
  tx: Tx,
  business: BusinessRow,
  id: number,
  action: ActionName,
): Promise<DocumentRow> {
  const doc = await findDocument(tx, business.id, id)
  if (!doc) throw new NotFound('No such document.')
  await judge(deps, tx, business, doc, action)
  return doc
}

/**
 * Issues a Draft inside `tx`: takes its number (requested or next), sets dates, freezes the Client snapshot and,
 * for an Invoice linked to a Proforma, completes the conversion. Used by Issue, Send and Convert alike.
 */
export async function issueInTx(deps: DocumentDeps, tx: Tx, business: BusinessRow, id: number): Promise<DocumentRow> {
  const doc = await findDocument(tx, business.id, id)
  if (!doc) throw Refusal.say('draft_deleted')
  await judge(deps, tx, business, doc, 'issue')
  const lineCount = (await linesOf(tx, [doc.id])).get(doc.id)?.length ?? 0
  if (lineCount === 0) {
    const bag = new FieldErrorBag()
    bag.add('lines', 'a document is issued with at least one Line')
    bag.throwIfAny()
  }
  const day = today(deps)
  const issueDate = doc.issueDate ?? day
  // Judged before a number is taken; a Draft saved before this check could still hold terms that overflow.
  const dueDate = doc.dueDate ?? addDays(issueDate, doc.paymentTerms)
  if (dueDate === null)
    throw new InvalidRequest({ payment_terms: [dueDateTooLate('payment_terms', issueDate, doc.paymentTerms)] })
  const taken = await take(
    tx,
    await numberingFor(tx, business, doc.type, Number(issueDate.slice(0, 4))),
    doc.requestedDocumentNumber,
  )
  if (!taken.ok) throwRefusal(taken.refusal)
  const client = await findClient(tx, business.id, doc.clientId)
  const clientSnapshot = client ? JSON.stringify(snapshotOf(client)) : null
  // The seller as it stands now, read in this transaction: what the issued document shows from here on.
  const seller = await getBusiness(tx, business.id)
  const sellerSnapshot = JSON.stringify(
    sellerSnapshotOf(
      seller,
      accountsShown(JSON.parse(doc.bankAccountIds) as number[], doc.currency, await allBankAccounts(tx, business.id)),
    ),
  )
  const set: Partial<DocumentInsert> = {
    status: 'issued',
    documentNumber: taken.number,
    paymentReference: await paymentReferenceFor(tx, business.id, doc, taken.number),
    issueDate,
    dueDate,
    deliveryDate: doc.deliveryDate ?? issueDate,
    clientSnapshot,
    sellerSnapshot,
    // Written in the Client's language (else the Business's) as they stand now, and so from here on.
    language: client?.language ?? seller.language,
    // The number and the Client name as issued become searchable with the issue.
    searchText: documentSearchText({ documentNumber: taken.number, notes: doc.notes, clientSnapshot }),
    // The Client's page link: unguessable, 192 random bits.
    publicToken: randomBytes(24).toString('base64url'),
    updatedAt: deps.clock.now().toISOString(),
  }
  Object.assign(set, await fixAccounting(tx, business, doc, issueDate))
  const linked = doc.type === 'invoice' && doc.proformaId !== null
  if (linked) {
    // The conversion completes here: the Proforma's Payments count on the Invoice from now on.
    const proforma = (await findDocument(tx, business.id, doc.proformaId!))!
    set.amountPaid = proforma.amountPaid
    set.paidMinor = proforma.paidMinor
    set.status = paidState({ status: 'issued', total: doc.total }, stored(proforma.amountPaid)).status
    await updateDocumentRow(tx, business.id, proforma.id, { convertedIntoId: doc.id, updatedAt: set.updatedAt })
  }
  const issued = await updateDocumentRow(tx, business.id, id, set, 'draft')
  if (!issued) throw Refusal.say('draft_deleted')
  // Every way a document is issued (Issue, Send, conversion, a schedule) passes here: its journal entry commits with it.
  await journalDocument(tx, deps.clock, business.id, 'document.issued', id)
  // document.issued carries the document already paid; document.paid follows it.
  await raiseEvent(tx, deps.clock, business.id, 'document.issued', id)
  if (issued.status === 'paid') await raiseEvent(tx, deps.clock, business.id, 'document.paid', id)
  return issued
}

/**
 * The ISO 11649 reference an issued Invoice or Proforma is paid by (extensions §15): made from its number's letters and
 * digits; when another document of the Business gives the same (INV-1 and INV1), from its number and its id, which no
 * other document has. Quotes and Credit Notes take no Payment and carry none.
 */
async function paymentReferenceFor(
  tx: Tx,
  businessId: number,
  doc: DocumentRow,
  number: string,
): Promise<string | null> {
  if (doc.type !== 'invoice' && doc.type !== 'proforma') return null
  const plain = creditorReference(referenceBodyOf(number))
  if (!(await paymentReferenceTaken(tx, businessId, plain))) return plain
  const id = `D${doc.id}`
  return creditorReference(`${referenceBodyOf(number).slice(0, 21 - id.length)}${id}`)
}

/**
 * Fixes a document's exchange rate at issue (extensions §16): the one sent, else the reference rate of the issue date;
 * writes its bands' VAT in the Business's currency and answers the document's columns. Nothing for the same currency.
 * The bands are written first, while the document is still a Draft, so the report triggers read them at the issue.
 */
async function fixAccounting(
  tx: Tx,
  business: BusinessRow,
  doc: DocumentRow,
  issueDate: string,
): Promise<Partial<DocumentInsert>> {
  if (doc.currency === business.currency) return { exchangeRate: null, accountingCurrency: null }
  const rate = doc.exchangeRate ?? (await referenceRate(tx, issueDate, doc.currency, business.currency))?.rate
  if (!rate)
    throw Refusal.say('exchange_rate_missing', {
      currency: doc.currency,
      accounting: business.currency,
      date: issueDate,
    })
  const bands = (await bandsOf(tx, [doc.id])).get(doc.id) ?? []
  const figures = accountingFigures(doc, bands, rate, business.currency)
  await setBandsAccounting(
    tx,
    doc.id,
    bands.map((b, i) => ({
      category: b.category,
      rate: b.rate,
      vatAccounting: figures.bands[i]!.vat,
      netAccountingMinor: figures.bands[i]!.netMinor,
      vatAccountingMinor: figures.bands[i]!.vatMinor,
    })),
  )
  return {
    exchangeRate: rate,
    accountingCurrency: business.currency,
    vatTotalAccounting: figures.vatTotal,
    netAccountingMinor: figures.netMinor,
    vatAccountingMinor: figures.vatMinor,
  }
}

/**
 * Records a Send that went out: `last_sent` and document.sent commit together. It is also the newest send by email,
 * which `last_sent` returns to when a mark made by hand is taken back (app-actions.service.ts).
 */
export async function recordSentInTx(
  deps: DocumentDeps,
  tx: Tx,
  businessId: number,
  id: number,
  lastSent: { at: string; recipients: string[]; via: string },
): Promise<void> {
  const sent = JSON.stringify(lastSent)
  await updateDocumentRow(tx, businessId, id, {
    lastSent: sent,
    lastMailed: sent,
    updatedAt: deps.clock.now().toISOString(),
  })
  await raiseEvent(tx, deps.clock, businessId, 'document.sent', id)
}

export async function issueDocument(deps: DocumentDeps, c: Actor, id: number): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  if (!(await findDocument(deps.db.read, c.businessId, id))) throw new NotFound('No such document.')
  await deps.db.write((tx) => issueInTx(deps, tx, business, id))
  return viewDocument(deps, deps.db.read, c, id)
}

export async function cancelDocument(deps: DocumentDeps, c: Actor, id: number): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  await deps.db.write(async (tx) => {
    await documentJudged(deps, tx, business, id, 'cancel')
    await updateDocumentRow(tx, c.businessId, id, { status: 'cancelled', updatedAt: deps.clock.now().toISOString() })
    await journalDocument(tx, deps.clock, c.businessId, 'document.cancelled', id)
    await raiseEvent(tx, deps.clock, c.businessId, 'document.cancelled', id)
  })
  return viewDocument(deps, deps.db.read, c, id)
}

/** Converts an issued Proforma into an issued Invoice with the same Client, currency and Lines. */
export async function convertDocument(deps: DocumentDeps, c: Actor, id: number): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  return deps.db.write(async (tx) => {
    const proforma = await documentJudged(deps, tx, business, id, 'convert')
    const lines = (await linesOf(tx, [proforma.id])).get(proforma.id) ?? []
    const now = deps.clock.now().toISOString()
    const draft = await insertDocument(tx, {
      businessId: business.id,
      type: 'invoice',
      status: 'draft',
      clientId: proforma.clientId,
      currency: proforma.currency,
      paymentTerms: proforma.paymentTerms,
      deliveryDate: proforma.deliveryDate,
      notes: proforma.notes,
      buyerReference: proforma.buyerReference,
      orderReference: proforma.orderReference,
      bankAccountIds: proforma.bankAccountIds,
      proformaId: proforma.id,
      isTest: business.isTest,
      // The Invoice takes today's reference rate at its issue; the Proforma's own where none is held.
      exchangeRate:
        proforma.currency === business.currency ||
        (await referenceRate(tx, today(deps), proforma.currency, business.currency))
          ? null
          : proforma.exchangeRate,
      netTotal: proforma.netTotal,
      vatTotal: proforma.vatTotal,
      total: proforma.total,
      netMinor: proforma.netMinor,
      vatMinor: proforma.vatMinor,
      totalMinor: proforma.totalMinor,
      createdAt: now,
      updatedAt: now,
    })
    const totals = computeTotals(lines, currencyScale(proforma.currency))
    await replaceLines(tx, draft.id, lines.map(copiedLine), totals)
    await issueInTx(deps, tx, business, draft.id)
    // Read inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
    return viewDocument(deps, tx, c, draft.id)
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Drafts made by a recurring invoice (extensions §13)

/** A Draft as a recurring invoice's template writes it for one date: Lines already resolved and filled in. */
export interface DraftFromTemplate {
  clientId: number
  currency: string
  /** null: the Client's terms as they stand now. */
  paymentTerms: number | null
  bankAccountIds: string
  notes: string | null
  buyerReference: string | null
  orderReference: string | null
  deliveryDate: string
  lines: LineInput[]
  recurringInvoiceId: number
}

/**
 * Writes the Draft of one date inside `tx`, the transaction that also moves the schedule on, so that the date and its
 * Draft commit together. The Lines are judged again (a Product's rules, the currency's scale); a fault is thrown as
 * the request's would be.
 */
export async function insertDraftInTx(
  deps: DocumentDeps,
  tx: Tx,
  business: BusinessRow,
  t: DraftFromTemplate,
): Promise<DocumentRow> {
  const client = await findClient(tx, business.id, t.clientId)
  if (!client) throw new InvalidRequest({ client_id: ['is not a Client of this Business'] })
  // The template holds each Line whole (a Product's values were filled in when it was saved): judged again here with
  // the Product left out, so a Product deleted since costs no date, and its id put back, as a Draft keeps it.
  const lines = await resolveAgain(tx, business.id, t.currency, t.lines)
  const totals = computeTotals(lines, currencyScale(t.currency))
  const now = deps.clock.now().toISOString()
  const row: DocumentInsert = {
    businessId: business.id,
    type: 'invoice',
    status: 'draft',
    clientId: client.id,
    currency: t.currency,
    paymentTerms: t.paymentTerms ?? client.paymentTerms,
    deliveryDate: t.deliveryDate,
    notes: t.notes,
    buyerReference: t.buyerReference,
    orderReference: t.orderReference,
    bankAccountIds: t.bankAccountIds,
    recurringInvoiceId: t.recurringInvoiceId,
    isTest: business.isTest,
    createdAt: now,
    updatedAt: now,
    ...totalColumns(totals),
  }
  const doc = await insertDocument(tx, row)
  await replaceLines(tx, doc.id, lines, totals)
  return doc
}
