// HTTP routes of documents (extensions §3): Drafts, issue, cancel, convert, the PDF.
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { idempotentCreate, json, listPage, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, idempotencyHeader, NoBody } from '../../http/schemas'
import { InvalidRequest } from '../../shared/errors'
import { isDate } from '../../shared/dates'
import { documentStatuses, documentTypes, type DocumentStatus, type DocumentType } from '../../db/schema'
import { getBusiness } from '../business'
import { DocumentCreateBody, DocumentList, DocumentListQuery, DocumentSchema, DocumentUpdateBody } from './documents.model'
import type { DocumentFilter } from './documents.repo'
import {
  cancelDocument,
  convertDocument,
  createDocument,
  deleteDocument,
  issueDocument,
  listDocumentViews,
  updateDocument,
  viewDocument,
  type DocumentDeps,
} from './documents.service'
import { documentPdf, nextTurn } from '../pdf'
import { exportFacturx } from '../einvoice'

const tags = ['Documents']
const Params = t.Object({ id: t.String({ description: 'document id' }) })

function filterOf(query: Record<string, string | undefined>): DocumentFilter {
  const errors: Record<string, string[]> = {}
  const f: DocumentFilter = {}
  if (query.type !== undefined) {
    if ((documentTypes as readonly string[]).includes(query.type)) f.type = query.type as DocumentType
    else errors.type = [`must be one of ${documentTypes.join(', ')}`]
  }
  if (query.status !== undefined) {
    if ((documentStatuses as readonly string[]).includes(query.status)) f.status = query.status as DocumentStatus
    else errors.status = [`must be one of ${documentStatuses.join(', ')}`]
  }
  if (query.client_id !== undefined) {
    if (/^[1-9][0-9]{0,14}$/.test(query.client_id)) f.clientId = Number(query.client_id)
    else errors.client_id = ['must be a Client id']
  }
  for (const [k, key] of [['issue_date_from', 'issueDateFrom'], ['issue_date_to', 'issueDateTo']] as const) {
    const v = query[k]
    if (v === undefined) continue
    if (isDate(v)) f[key] = v
    else errors[k] = ['must be a date written YYYY-MM-DD']
  }
  if (query.search?.trim()) f.search = query.search.trim()
  if (Object.keys(errors).length) throw new InvalidRequest(errors)
  return f
}

export function documentsRoutes(deps: DocumentDeps, http: HttpServices) {
  const answers = (...s: number[]) => ({ 200: DocumentSchema, ...errorAnswers(404, 422, ...s) })
  return new Elysia({ name: 'documents' })
    .get(
      '/v1/documents',
      ({ request, query }) => {
        const filter = filterOf(query)
        return listPage(http, request, query, 'documents', (c, after, n) => listDocumentViews(deps, c, after, n, filter), (v) => v)
      },
      { query: DocumentListQuery, response: { 200: DocumentList, ...errorAnswers(422) }, detail: { tags, summary: 'List documents' } },
    )
    .post(
      '/v1/documents',
      ({ request, body }) => idempotentCreate(http, request, async () => json(201, await createDocument(deps, actorOf(request), body))),
      {
        body: DocumentCreateBody,
        response: { 201: DocumentSchema, ...errorAnswers(400, 409, 413, 415, 422) },
        detail: { tags, summary: 'Create a Draft', parameters: [idempotencyHeader] },
      },
    )
    .get('/v1/documents/:id', ({ request, params }) => viewDocument(deps, deps.db.read, actorOf(request), pathId(params.id)), {
      params: Params,
      response: { 200: DocumentSchema, ...errorAnswers(404) },
      detail: { tags, summary: 'Get a document' },
    })
    .patch('/v1/documents/:id', ({ request, params, body }) => updateDocument(deps, actorOf(request), pathId(params.id), body), {
      params: Params,
      body: DocumentUpdateBody,
      response: answers(400, 413, 415),
      detail: { tags, summary: 'Update a Draft (lines replace all Lines)' },
    })
    .delete(
      '/v1/documents/:id',
      async ({ request, params }) => {
        await deleteDocument(deps, actorOf(request), pathId(params.id))
        return new Response(null, { status: 204 })
      },
      { params: Params, body: NoBody, response: { 204: t.Void({ description: 'the Draft is deleted' }), ...errorAnswers(400, 404, 413, 415, 422) }, detail: { tags, summary: 'Delete a Draft' } },
    )
    .post('/v1/documents/:id/issue', ({ request, params }) => issueDocument(deps, actorOf(request), pathId(params.id)), {
      params: Params,
      body: NoBody,
      response: answers(400, 413, 415),
      detail: { tags, summary: 'Issue a Draft: it takes its number' },
    })
    .post('/v1/documents/:id/cancel', ({ request, params }) => cancelDocument(deps, actorOf(request), pathId(params.id)), {
      params: Params,
      body: NoBody,
      response: answers(400, 413, 415),
      detail: { tags, summary: 'Cancel an issued document (it keeps its number)' },
    })
    .post(
      '/v1/documents/:id/convert',
      ({ request, params }) => idempotentCreate(http, request, async () => json(201, await convertDocument(deps, actorOf(request), pathId(params.id)))),
      {
        params: Params,
        body: NoBody,
        response: { 201: DocumentSchema, ...errorAnswers(400, 404, 409, 413, 415, 422) },
        detail: { tags, summary: 'Convert a Proforma Invoice into an issued Invoice', parameters: [idempotencyHeader] },
      },
    )
    .get(
      '/v1/documents/:id/pdf',
      async ({ request, params, query }) => {
        // Several PDF requests arriving together each read their document on a turn of its own, so a request
        // behind them (a /health) waits for one document's reading, not for all of them.
        await nextTurn()
        const c = actorOf(request)
        if (query.format !== undefined && query.format !== '') {
          if (query.format !== 'facturx') throw new InvalidRequest({ format: ['must be facturx, or left out for the plain PDF'] })
          const file = await exportFacturx(deps, c, pathId(params.id))
          return new Response(Buffer.from(file.pdf), {
            headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${file.filename}"` },
          })
        }
        const view = await viewDocument(deps, deps.db.read, c, pathId(params.id))
        const business = await getBusiness(deps.db.read, c.businessId)
        const bytes = await documentPdf(deps.db.read, business, view)
        const name = (view.document_number ?? `draft-${view.id}`).replace(/[^A-Za-z0-9._-]/g, '_')
        return new Response(Buffer.from(bytes), {
          headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${name}.pdf"` },
        })
      },
      {
        params: Params,
        query: t.Object({ format: t.Optional(t.String({ description: 'facturx: PDF/A-3b with the CII XML embedded as factur-x.xml (Factur-X / ZUGFeRD EN 16931)' })) }),
        response: { 200: t.Any({ description: 'application/pdf' }), ...errorAnswers(404, 422) },
        detail: {
          tags,
          summary: 'The document as a PDF (DRAFT on a Draft, SAMPLE for a Test business), or with format=facturx as Factur-X',
          description:
            'format=facturx answers PDF/A-3b with the document\'s CII XML (exactly what /xml?format=cii answers) embedded as factur-x.xml; it is refused as that XML is: not_exportable with the failing official rule ids, exports_not_in_a_test_business. The plain PDF stays available.',
        },
      },
    )
}
