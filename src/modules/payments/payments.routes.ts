// HTTP routes of Payments and Receipts: record, list, get, amend, reverse; Receipts and their PDF.
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { idempotentCreate, json, listPage, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, idempotencyHeader, NoBody } from '../../http/schemas'
import { InvalidRequest } from '../../shared/errors'
import { AmendBody, ByDocumentQuery, PaymentList, PaymentSchema, ReceiptList, ReceiptSchema, RecordBody } from './payments.model'
import { presentPayment, presentReceipt } from './payments.present'
import { listPayments, listReceipts } from './payments.repo'
import { amendPayment, getPayment, recordPayment, reversePayment, type PaymentDeps } from './payments.service'
import { getReceipt, receiptPdfOf } from './receipts.service'

const Params = t.Object({ id: t.String() })

function documentIdOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new InvalidRequest({ document_id: ['must be a document id'] })
  return Number(raw)
}

export function paymentsRoutes(deps: PaymentDeps, http: HttpServices) {
  return new Elysia({ name: 'payments' })
    .post(
      '/v1/documents/:id/payments',
      ({ request, params, body }) =>
        idempotentCreate(http, request, async () => json(201, await recordPayment(deps, actorOf(request), pathId(params.id), body))),
      {
        params: Params,
        body: RecordBody,
        response: { 201: PaymentSchema, ...errorAnswers(400, 404, 409, 413, 415, 422) },
        detail: { tags: ['Payments'], summary: 'Record a Payment (its Receipt is issued with it)', parameters: [idempotencyHeader] },
      },
    )
    .get(
      '/v1/payments',
      ({ request, query }) => {
        const documentId = documentIdOf(query.document_id)
        return listPage(
          http,
          request,
          query,
          'payments',
          async (c, after, n) => (await listPayments(deps.db.read, c.businessId, after, n, documentId)).map((r) => ({ id: r.payment.id, ...r })),
          (r) => presentPayment(r.payment, r.receipt),
        )
      },
      { query: ByDocumentQuery, response: { 200: PaymentList, ...errorAnswers(422) }, detail: { tags: ['Payments'], summary: 'List Payments (reversed ones included)' } },
    )
    .get('/v1/payments/:id', ({ request, params }) => getPayment(deps, actorOf(request), pathId(params.id)), {
      params: Params,
      response: { 200: PaymentSchema, ...errorAnswers(404) },
      detail: { tags: ['Payments'], summary: 'Get a Payment' },
    })
    .patch('/v1/payments/:id', ({ request, params, body }) => amendPayment(deps, actorOf(request), pathId(params.id), body), {
      params: Params,
      body: AmendBody,
      response: { 200: PaymentSchema, ...errorAnswers(400, 404, 413, 415, 422) },
      detail: { tags: ['Payments'], summary: 'Amend a Payment (its Receipt takes the new values)' },
    })
    .post(
      '/v1/payments/:id/reverse',
      ({ request, params }) => idempotentCreate(http, request, async () => json(200, await reversePayment(deps, actorOf(request), pathId(params.id)))),
      {
        params: Params,
        body: NoBody,
        response: { 200: PaymentSchema, ...errorAnswers(400, 404, 409, 413, 415, 422) },
        detail: { tags: ['Payments'], summary: 'Reverse a Payment: voided, its Receipt kept with voided_at', parameters: [idempotencyHeader] },
      },
    )
    .get(
      '/v1/receipts',
      ({ request, query }) => {
        const documentId = documentIdOf(query.document_id)
        return listPage(
          http,
          request,
          query,
          'receipts',
          async (c, after, n) => (await listReceipts(deps.db.read, c.businessId, after, n, documentId)).map((r) => ({ id: r.receipt.id, ...r })),
          (r) => presentReceipt(r.receipt, r.payment),
        )
      },
      { query: ByDocumentQuery, response: { 200: ReceiptList, ...errorAnswers(422) }, detail: { tags: ['Receipts'], summary: 'List Receipts (voided included)' } },
    )
    .get('/v1/receipts/:id', ({ request, params }) => getReceipt(deps.db, actorOf(request), pathId(params.id)), {
      params: Params,
      response: { 200: ReceiptSchema, ...errorAnswers(404) },
      detail: { tags: ['Receipts'], summary: 'Get a Receipt' },
    })
    .get(
      '/v1/receipts/:id/pdf',
      async ({ request, params }) => {
        const pdf = await receiptPdfOf(deps.db, actorOf(request), pathId(params.id))
        return new Response(Buffer.from(pdf.bytes), {
          headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${pdf.name}.pdf"` },
        })
      },
      {
        params: Params,
        response: { 200: t.Any({ description: 'application/pdf attachment named after the Receipt' }), ...errorAnswers(404) },
        detail: { tags: ['Receipts'], summary: 'The Receipt as a PDF' },
      },
    )
}
