// Gathers what the lifecycle judge needs about a document, from the reader or inside a writing transaction.
import { issuingLimited } from '../../platform/policy'
import type { Queryable } from '../../db/client'
import type { BusinessRow } from '../business'
import { findClient } from '../clients'
import { findDocument, invoicesIssuedInYear, type DocumentRow } from './documents.repo'
import type { ConvertIssueFacts, Facts, LinkedProforma, SendFacts } from './lifecycle'
import { judge, numberingFor, receiptNumbering } from '../numbering'

export interface FactsOptions {
  today: string
  /** How the Business would send mail now (null: no way). */
  mailVia: string | null
  /** Where the Business stands for a Send (mailbox, daily count) and the Send judged; absent: a default Send, nothing counted. */
  send?: Partial<SendFacts>
}

/** A Send as `actions` predicts it: to the Client alone, nothing sent yet today unless told. */
const DEFAULT_SEND: SendFacts = { mailboxLost: false, sentToday: 0, dailyLimit: null, resumesOn: '', recipients: 1, toGiven: false }

export function yearOf(doc: Pick<DocumentRow, 'issueDate'>, today: string): number {
  return Number((doc.issueDate ?? today).slice(0, 4))
}

export async function linkedProforma(q: Queryable, businessId: number, proformaId: number | null): Promise<LinkedProforma | null> {
  if (proformaId === null) return null
  const row = await findDocument(q, businessId, proformaId)
  return row ? { deleted: false, row } : { deleted: true }
}

export async function gatherFacts(q: Queryable, business: BusinessRow, doc: DocumentRow, o: FactsOptions): Promise<Facts> {
  const year = yearOf(doc, o.today)
  const client = await findClient(q, business.id, doc.clientId)
  let invoice: Facts['invoice'] = null
  if (doc.type === 'proforma' && doc.convertedIntoId !== null) {
    const inv = await findDocument(q, business.id, doc.convertedIntoId)
    invoice = { id: doc.convertedIntoId, document_number: inv?.documentNumber ?? null }
  }
  const draft = doc.status === 'draft'
  const limited = draft && doc.type === 'invoice' && issuingLimited(business)
  let numbering: Facts['numbering'] = null
  if (draft) {
    const j = await judge(q, await numberingFor(q, business, doc.type, year), doc.requestedDocumentNumber)
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
    invoicesIssuedInYear: limited ? await invoicesIssuedInYear(q, business.id, year) : 0,
    year,
    numbering,
    receiptNumbering: await receiptRefusal(q, business, doc, o.today),
    convertIssue: await convertIssueFacts(q, business, doc, o.today),
  }
}

/**
 * What issuing the Invoice a Convert creates would need, read only for a Proforma that can convert (the same states
 * the judge lets through). The new Invoice takes today as its issue date and the next number, none requested.
 */
async function convertIssueFacts(q: Queryable, business: BusinessRow, doc: DocumentRow, today: string): Promise<ConvertIssueFacts | null> {
  const converts = doc.type === 'proforma' && doc.status !== 'draft' && doc.status !== 'cancelled' && doc.convertedIntoId === null
  if (!converts) return null
  const year = Number(today.slice(0, 4))
  const limited = issuingLimited(business)
  const j = await judge(q, await numberingFor(q, business, 'invoice', year), null)
  return {
    invoicesIssuedInYear: limited ? await invoicesIssuedInYear(q, business.id, year) : 0,
    year,
    numbering: j.ok ? null : j.refusal,
  }
}

/** The Receipt numbering matters only where a Payment could otherwise be recorded. */
async function receiptRefusal(q: Queryable, business: BusinessRow, doc: DocumentRow, today: string) {
  const takes = (doc.type === 'invoice' || doc.type === 'proforma') && (doc.status === 'issued' || doc.status === 'partially_paid') && doc.convertedIntoId === null
  if (!takes) return null
  const j = await receiptNumbering(q, business, today)
  return j.ok ? null : j.refusal
}
