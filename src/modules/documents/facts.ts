// Gathers what the lifecycle judge needs about a document, from the reader or inside a writing transaction.
import { issuingLimited } from '../../platform/policy'
import type { Queryable } from '../../db/client'
import type { BusinessRow } from '../business'
import { findClient } from '../clients'
import { findDocument, invoicesIssuedInYear, type DocumentRow } from './documents.repo'
import type { ConvertIssueFacts, Facts, LinkedProforma, RefusalInfo, SendFacts } from './lifecycle'
import { refusalInfo } from '../../shared/errors'
import { referenceRate } from '../fx'
import { judge, numberingFor, receiptNumbering } from '../numbering'

export interface FactsOptions {
  today: string
  /** How the Business would send mail now (null: no way). */
  mailVia: string | null
  /** Where the Business stands for a Send (mailbox, daily count) and the Send judged; absent: a default Send, nothing counted. */
  send?: Partial<SendFacts>
  /** Reads shared by the documents of one answer (a list page); absent: each read is made for this document alone. */
  memo?: FactsMemo
}

/**
 * Reads that many documents of one answer share, made once per answer: a page of 100 issued Invoices asked the same
 * Receipt numbering 100 times, and each Draft the same pattern and counter (about 8 queries a row before this).
 * Kept only for one answer, so nothing read here outlives the request.
 */
export class FactsMemo {
  private readonly kept = new Map<string, Promise<unknown>>()
  once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.kept.get(key) as Promise<T> | undefined
    if (!p) this.kept.set(key, (p = read()))
    return p
  }
  /** Keeps a value read beforehand (a page's Clients, read in one query). */
  keep(key: string, value: unknown): void {
    this.kept.set(key, Promise.resolve(value))
  }
}

/** No memo: every read is made. */
const EACH_TIME: Pick<FactsMemo, 'once'> = { once: (_key, read) => read() }

/** A Send as `actions` predicts it: to the Client alone, nothing sent yet today unless told. */
const DEFAULT_SEND: SendFacts = {
  mailboxLost: false,
  sentToday: 0,
  dailyLimit: null,
  resumesOn: '',
  recipients: 1,
  toGiven: false,
}

export function yearOf(doc: Pick<DocumentRow, 'issueDate'>, today: string): number {
  return Number((doc.issueDate ?? today).slice(0, 4))
}

export async function linkedProforma(
  q: Queryable,
  businessId: number,
  proformaId: number | null,
): Promise<LinkedProforma | null> {
  if (proformaId === null) return null
  const row = await findDocument(q, businessId, proformaId)
  return row ? { deleted: false, row } : { deleted: true }
}

export async function gatherFacts(
  q: Queryable,
  business: BusinessRow,
  doc: DocumentRow,
  o: FactsOptions,
): Promise<Facts> {
  const year = yearOf(doc, o.today)
  const memo = o.memo ?? EACH_TIME
  const client = await memo.once(`client:${doc.clientId}`, () => findClient(q, business.id, doc.clientId))
  let invoice: Facts['invoice'] = null
  if (doc.type === 'proforma' && doc.convertedIntoId !== null) {
    const inv = await findDocument(q, business.id, doc.convertedIntoId)
    invoice = { id: doc.convertedIntoId, document_number: inv?.documentNumber ?? null }
  }
  const draft = doc.status === 'draft'
  const limited = draft && doc.type === 'invoice' && issuingLimited(business)
  let numbering: Facts['numbering'] = null
  if (draft) {
    const j = await judgeNumber(q, memo, business, doc.type, year, doc.requestedDocumentNumber)
    numbering = j.ok ? null : j.refusal
  }
  return {
    doc,
    business: { isTest: business.isTest, plan: business.plan, issuingLimit: business.issuingLimit },
    clientEmail: client?.email ?? null,
    mailVia: o.mailVia,
    send: { ...DEFAULT_SEND, ...o.send },
    proforma: draft ? await linkedProforma(q, business.id, doc.proformaId) : null,
    invoice,
    invoicesIssuedInYear: limited ? await issuedInYear(q, memo, business, year) : 0,
    year,
    numbering,
    exchangeRate: draft ? await rateRefusal(q, memo, business, doc, doc.issueDate ?? o.today) : null,
    receiptNumbering: await receiptRefusal(q, memo, business, doc, o.today),
    convertIssue: await convertIssueFacts(q, memo, business, doc, o.today),
  }
}

/** A number judged for a document type and year; with none requested the answer is the same for every Draft. */
async function judgeNumber(
  q: Queryable,
  memo: Pick<FactsMemo, 'once'>,
  business: BusinessRow,
  type: DocumentRow['type'],
  year: number,
  requested: string | null,
) {
  const numbering = await memo.once(`numbering:${type}:${year}`, () => numberingFor(q, business, type, year))
  return requested === null
    ? memo.once(`judged:${type}:${year}`, () => judge(q, numbering, null))
    : judge(q, numbering, requested)
}

function issuedInYear(
  q: Queryable,
  memo: Pick<FactsMemo, 'once'>,
  business: BusinessRow,
  year: number,
): Promise<number> {
  return memo.once(`issued:${year}`, () => invoicesIssuedInYear(q, business.id, year))
}

/**
 * What issuing the Invoice a Convert creates would need, read only for a Proforma that can convert (the same states
 * the judge lets through). The new Invoice takes today as its issue date and the next number, none requested.
 */
async function convertIssueFacts(
  q: Queryable,
  memo: Pick<FactsMemo, 'once'>,
  business: BusinessRow,
  doc: DocumentRow,
  today: string,
): Promise<ConvertIssueFacts | null> {
  const converts =
    doc.type === 'proforma' && doc.status !== 'draft' && doc.status !== 'cancelled' && doc.convertedIntoId === null
  if (!converts) return null
  const year = Number(today.slice(0, 4))
  const limited = issuingLimited(business)
  const j = await judgeNumber(q, memo, business, 'invoice', year, null)
  return {
    invoicesIssuedInYear: limited ? await issuedInYear(q, memo, business, year) : 0,
    year,
    numbering: j.ok ? null : j.refusal,
    // The new Invoice takes today's reference rate, else the Proforma's own (documents.service.ts convertDocument).
    exchangeRate: await rateRefusal(q, memo, business, doc, today),
  }
}

/**
 * exchange_rate_missing for a document in another currency than the Business's that carries no rate of its own when
 * no reference rate is held for `date` or before (extensions §16); null otherwise.
 */
async function rateRefusal(
  q: Queryable,
  memo: Pick<FactsMemo, 'once'>,
  business: BusinessRow,
  doc: DocumentRow,
  date: string,
): Promise<RefusalInfo | null> {
  if (doc.currency === business.currency || doc.exchangeRate !== null) return null
  const held = await memo.once(`fx:${date}:${doc.currency}`, () =>
    referenceRate(q, date, doc.currency, business.currency),
  )
  return held
    ? null
    : refusalInfo('exchange_rate_missing', { currency: doc.currency, accounting: business.currency, date })
}

/** The Receipt numbering matters only where a Payment could otherwise be recorded. */
async function receiptRefusal(
  q: Queryable,
  memo: Pick<FactsMemo, 'once'>,
  business: BusinessRow,
  doc: DocumentRow,
  today: string,
) {
  const takes =
    (doc.type === 'invoice' || doc.type === 'proforma') &&
    (doc.status === 'issued' || doc.status === 'partially_paid') &&
    doc.convertedIntoId === null
  if (!takes) return null
  const j = await memo.once(`receipts:${today}`, () => receiptNumbering(q, business, today))
  return j.ok ? null : j.refusal
}
