// Operations of Payments and Receipts: record, list, get, amend, reverse; Receipts and their PDF.
import { Type as t } from '@sinclair/typebox'
import { NoBody } from '../../shared/schemas'
import {
  answersFromCommit,
  idOf,
  json,
  listOperation,
  listRun,
  type ApplicationOperation,
  type Operation,
  type OperationContext,
  type OperationInput,
  onRecord,
} from '../../platform/operation'
import type { Actor } from '../../platform/actor'
import { ListFilters } from '../../platform/list-filters'
import {
  AmendBody,
  ByDocumentQuery,
  PaymentList,
  PaymentSchema,
  ReceiptList,
  ReceiptSchema,
  RecordBody,
} from './payments.model'
import { presentPayment, presentReceipt } from './payments.present'
import { listPayments, listReceipts } from './payments.repo'
import { amendPayment, getPayment, recordPayment, reversePayment } from './payments.service'
import { getReceipt, receiptPdfOf } from './receipts.service'
import { RefundBody, RefundList, RefundQuery, RefundSchema } from './refunds.model'
import { listRefunds } from './refunds.repo'
import { presentRefund, recordRefund, reverseRefund } from './refunds.service'

const path = t.Object({ id: t.String() })
const TAKES_PAYMENTS = ['type_takes_no_payments', 'draft_takes_no_payments', 'cancelled_takes_no_payments'] as const

/** The `document_id` a list of Payments, Receipts or Refunds is narrowed to, if any. */
function documentIdOf(query: OperationInput['query']): number | undefined {
  const read = new ListFilters(query)
  return read.done(read.id('document_id', 'must be a document id'))
}

/** Rows paged by the id of one of their records (listPage reads a row's `id`). */
const keyedBy = <R>(rows: R[], idOf: (row: R) => number) => rows.map((row) => ({ id: idOf(row), ...row }))

/** A page of Receipts with their Payments (one document's, with a document id). */
const receiptRows = async (
  { deps }: OperationContext,
  actor: Actor,
  afterId: number,
  limit: number,
  documentId?: number,
) => keyedBy(await listReceipts(deps.db.read, actor.businessId, afterId, limit, documentId), (r) => r.receipt.id)

export const paymentsOperations: Operation[] = [
  {
    name: 'payments_record',
    tag: 'Payments',
    summary: 'Record a Payment (its Receipt is issued with it)',
    description:
      'Records a Payment on an issued Invoice or Proforma Invoice while something is due; its Receipt takes the next Receipt number in the same transaction.',
    http: { method: 'POST', path: '/v1/documents/:id/payments', status: 201 },
    path: t.Object({ id: t.String({ description: 'document id' }) }),
    args: { id: 'document_id' },
    body: RecordBody,
    output: PaymentSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: [
      ...TAKES_PAYMENTS,
      'nothing_due',
      'payment_goes_to_its_invoice',
      'payment_currency_mismatch',
      'payment_exceeds_amount_due',
      'numbering_at_its_end',
    ],
    mcp: true,
    run: onRecord(recordPayment, { status: 201 }),
  },
  listOperation({
    name: 'payments_list',
    tag: 'Payments',
    summary: 'List Payments (reversed ones included)',
    description: 'Payments oldest first, paged; `document_id` keeps those of one document.',
    http: { method: 'GET', path: '/v1/payments', status: 200 },
    query: ByDocumentQuery,
    output: PaymentList,
    access: 'read',
    mcp: true,
    list: 'payments',
    filter: documentIdOf,
    rows: async ({ deps }, actor, after, n, documentId) =>
      keyedBy(await listPayments(deps.db.read, actor.businessId, after, n, documentId), (r) => r.payment.id),
    present: (r) => presentPayment(r.payment, r.receipt),
  }),
  {
    name: 'payments_get',
    tag: 'Payments',
    summary: 'Get a Payment',
    description: "One Payment with its Receipt's number.",
    http: { method: 'GET', path: '/v1/payments/:id', status: 200 },
    path,
    output: PaymentSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    run: onRecord(getPayment),
  },
  {
    name: 'payments_update',
    tag: 'Payments',
    summary: 'Amend a Payment (its Receipt takes the new values)',
    description:
      "Changes amount, date, method or bank account of a completed Payment; the amended Payment's own amount is given back before the amount due is judged.",
    http: { method: 'PATCH', path: '/v1/payments/:id', status: 200 },
    path,
    body: AmendBody,
    output: PaymentSchema,
    access: 'write',
    idempotent: false,
    refusals: [...TAKES_PAYMENTS, 'payment_reversed', 'payment_currency_mismatch', 'payment_exceeds_amount_due'],
    mcp: true,
    run: onRecord(amendPayment),
  },
  {
    name: 'payments_reverse',
    tag: 'Payments',
    summary: 'Reverse a Payment: voided, its Receipt kept with voided_at',
    description: 'The Payment is voided and no longer counts as paid; its Receipt stays, marked voided.',
    http: { method: 'POST', path: '/v1/payments/:id/reverse', status: 200 },
    path,
    body: NoBody,
    output: PaymentSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: ['payment_reversed'],
    mcp: true,
    run: onRecord(reversePayment),
  },
  listOperation({
    name: 'receipts_list',
    tag: 'Receipts',
    summary: 'List Receipts (voided included)',
    description: 'Receipts oldest first, paged; `document_id` keeps those of one document.',
    http: { method: 'GET', path: '/v1/receipts', status: 200 },
    query: ByDocumentQuery,
    output: ReceiptList,
    access: 'read',
    mcp: true,
    list: 'receipts',
    filter: documentIdOf,
    rows: receiptRows,
    present: (r) => presentReceipt(r.receipt, r.payment),
  }),
  {
    name: 'receipts_get',
    tag: 'Receipts',
    summary: 'Get a Receipt',
    description: 'One Receipt by its id.',
    http: { method: 'GET', path: '/v1/receipts/:id', status: 200 },
    path,
    output: ReceiptSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      return json(await getReceipt(deps.db, actor, idOf(path.id)))
    },
  },
  {
    name: 'receipts_pdf',
    tag: 'Receipts',
    summary: 'The Receipt as a PDF',
    description: 'A PDF file named after the Receipt number; VOID on a voided Receipt, SAMPLE for a Test business.',
    http: { method: 'GET', path: '/v1/receipts/:id/pdf', status: 200 },
    path,
    output: null,
    file: 'application/pdf',
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      const pdf = await receiptPdfOf(deps.db, actor, idOf(path.id))
      return { kind: 'file', file: { bytes: pdf.bytes, mimeType: 'application/pdf', filename: `${pdf.name}.pdf` } }
    },
  },
]

/** The application's Receipts list and a document's Payments: rows with their Receipt and Payment, paged by cursor. */
export const paymentsAppOperations: ApplicationOperation[] = [
  {
    name: 'receipts_rows',
    description: 'A page of Receipts, each with its Payment, oldest first.',
    access: 'read',
    refusals: [],
    run: listRun({ list: 'app_receipts', rows: receiptRows, present: (r) => r }),
  },
  {
    name: 'payments_rows_of_document',
    description: "A document's Payments as stored (at most 100), for its page.",
    access: 'read',
    refusals: [],
    async run(actor, { path }, { deps }) {
      return json(await listPayments(deps.db.read, actor.businessId, 0, 100, idOf(path.id, 'No such document.')))
    },
  },
]

/** Refunds of Credit Notes (extensions §20): the money a Credit Note owed the Client, recorded as gone back. */
export const refundsOperations: Operation[] = [
  {
    name: 'refunds_record',
    tag: 'Refunds',
    summary: 'Record a Refund on a Credit Note',
    description:
      "Records that money a Credit Note owed the Client went back: at most the Credit Note's total less what was refunded before. The Client's statement shows it as a debit; income and VAT reports are unchanged.",
    http: { method: 'POST', path: '/v1/documents/:id/refunds', status: 201 },
    path: t.Object({ id: t.String({ description: 'the Credit Note' }) }),
    args: { id: 'document_id' },
    body: RefundBody,
    output: RefundSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: ['not_a_credit_note', 'draft_takes_no_payments', 'cancelled_takes_no_payments', 'refund_exceeds_credit'],
    mcp: true,
    run: onRecord(recordRefund, { status: 201 }),
  },
  listOperation({
    name: 'refunds_list',
    tag: 'Refunds',
    summary: 'List Refunds (reversed ones included)',
    description: 'Refunds oldest first, paged; `document_id` keeps those of one Credit Note.',
    http: { method: 'GET', path: '/v1/refunds', status: 200 },
    query: RefundQuery,
    output: RefundList,
    access: 'read',
    mcp: true,
    list: 'refunds',
    filter: documentIdOf,
    rows: ({ deps }, actor, after, n, documentId) => listRefunds(deps.db.read, actor.businessId, after, n, documentId),
    present: presentRefund,
  }),
  {
    name: 'refunds_reverse',
    tag: 'Refunds',
    summary: 'Reverse a Refund: voided, kept',
    description: "The Refund is voided and no longer counts in the Credit Note's amount_refunded.",
    http: { method: 'POST', path: '/v1/refunds/:id/reverse', status: 200 },
    path,
    body: NoBody,
    output: RefundSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: ['refund_reversed'],
    mcp: true,
    run: onRecord(reverseRefund),
  },
]
