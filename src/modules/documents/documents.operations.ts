// Operations of documents (extensions §3): Drafts, issue, cancel, convert, the PDF.
import { Type as t } from '@sinclair/typebox'
import { NoBody } from '../../shared/schemas'
import {
  answersFromCommit,
  idOf,
  json,
  keptJson,
  listOperation,
  listRun,
  type ApplicationOperation,
  type Operation,
  type OperationContext,
  onRecord,
  deletesRecord,
  makesRecord,
} from '../../platform/operation'
import { systemActor } from '../../platform/actor'
import { ListFilters } from '../../platform/list-filters'
import { InvalidRequest } from '../../shared/errors'
import { documentStatuses, documentTypes } from '../../db/schema'
import { getBusiness } from '../business'
import { documentPdf } from '../pdf'
import { nextTurn } from '../../shared/turns'
import { exportFacturx } from '../einvoice'
import {
  DocumentCreateBody,
  DocumentList,
  DocumentListQuery,
  DocumentSchema,
  DocumentUpdateBody,
} from './documents.model'
import { findByPublicToken, type DocumentFilter } from './documents.repo'
import {
  documentSummaries,
  duplicateDocument,
  markSent,
  previewTotals,
  receiptMailClosed,
  unmarkSent,
  viewDocumentForApp,
} from './app-actions.service'
import { findClient } from '../clients'
import type { LineInput } from './lines'
import { documentFilterOf } from './list-filter'
import { usualVatRate } from './vat-suggestion'
import {
  cancelDocument,
  convertDocument,
  createDocument,
  deleteDocument,
  issueDocument,
  listDocumentViews,
  updateDocument,
  viewDocument,
} from './documents.service'

const tag = 'Documents'
const path = t.Object({ id: t.String({ description: 'document id' }) })

/** The issuing refusals: Issue, and a Send or Convert that issues. */
export const ISSUE_REFUSALS = [
  'already_issued',
  'exchange_rate_missing',
  'number_taken',
  'number_skips_ahead',
  'number_beyond_the_counter',
  'number_malformed',
  'numbering_at_its_end',
  'issuing_limit_reached',
  'draft_deleted',
  'proforma_deleted',
  'not_a_proforma',
  'only_into_an_invoice',
  'cancelled_not_converted',
  'proforma_other_currency',
  'proforma_other_client',
  'draft_not_converted',
  'already_converted',
] as const

/** Saving a Draft linked to a Proforma Invoice. */
const LINK_REFUSALS = [
  'proforma_deleted',
  'not_a_proforma',
  'only_into_an_invoice',
  'cancelled_not_converted',
  'proforma_other_currency',
  'proforma_other_client',
] as const

function filterOf(query: Record<string, string | undefined>): DocumentFilter {
  const read = new ListFilters(query)
  return read.done({
    type: read.oneOf('type', documentTypes),
    status: read.oneOf('status', documentStatuses),
    clientId: read.id('client_id', 'must be a Client id'),
    issueDateFrom: read.date('issue_date_from'),
    issueDateTo: read.date('issue_date_to'),
    search: query.search?.trim() || undefined,
  })
}

export const documentsOperations: Operation[] = [
  listOperation({
    name: 'documents_list',
    tag,
    summary: 'List documents',
    description:
      'Invoices, Proforma Invoices, Credit Notes and Quotes oldest first, paged; filters: type, status, client_id, issue dates, search.',
    http: { method: 'GET', path: '/v1/documents', status: 200 },
    query: DocumentListQuery,
    output: DocumentList,
    access: 'read',
    mcp: true,
    list: 'documents',
    filter: filterOf,
    rows: ({ deps }, actor, after, n, filter) => listDocumentViews(deps, actor, after, n, filter),
    present: (v) => v,
  }),
  {
    name: 'documents_create',
    tag,
    summary: 'Create a Draft',
    description:
      'A Draft of any type with its Lines; totals are computed; `document_number` asks for a number the Draft takes when issued.',
    http: { method: 'POST', path: '/v1/documents', status: 201 },
    body: DocumentCreateBody,
    output: DocumentSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: [...LINK_REFUSALS],
    mcp: true,
    run: makesRecord(createDocument),
  },
  {
    name: 'documents_get',
    tag,
    summary: 'Get a document',
    description:
      'One document with its Lines, totals, amount paid and due, and `actions`: which Actions are open and the refusal code of each that is not.',
    http: { method: 'GET', path: '/v1/documents/:id', status: 200 },
    path,
    output: DocumentSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      return json(await viewDocument(deps, deps.db.read, actor, idOf(path.id)))
    },
  },
  {
    name: 'documents_update',
    tag,
    summary: 'Update a Draft (lines replace all Lines)',
    description: 'Only a Draft is changed; `lines`, when sent, replace every Line.',
    http: { method: 'PATCH', path: '/v1/documents/:id', status: 200 },
    path,
    body: DocumentUpdateBody,
    output: DocumentSchema,
    access: 'write',
    idempotent: false,
    refusals: ['issued_not_changed', 'draft_deleted', ...LINK_REFUSALS],
    mcp: true,
    run: onRecord(updateDocument),
  },
  {
    name: 'documents_delete',
    tag,
    summary: 'Delete a Draft',
    description: 'Only a Draft is deleted; an issued document is cancelled or corrected with a Credit Note.',
    http: { method: 'DELETE', path: '/v1/documents/:id', status: 204 },
    path,
    body: NoBody,
    output: null,
    access: 'write',
    idempotent: false,
    refusals: ['issued_not_deleted'],
    mcp: true,
    run: deletesRecord(deleteDocument),
  },
  {
    name: 'documents_issue',
    tag,
    summary: 'Issue a Draft: it takes its number',
    description:
      'The Draft takes the next number of its numbering (or the one it asked for) inside the issuing transaction.',
    http: { method: 'POST', path: '/v1/documents/:id/issue', status: 200 },
    path,
    body: NoBody,
    output: DocumentSchema,
    access: 'write',
    idempotent: false,
    refusals: [...ISSUE_REFUSALS],
    mcp: true,
    run: onRecord(issueDocument),
  },
  {
    name: 'documents_cancel',
    tag,
    summary: 'Cancel an issued document (it keeps its number)',
    description: 'An issued document that holds no money is cancelled; a paid one is corrected with a Credit Note.',
    http: { method: 'POST', path: '/v1/documents/:id/cancel', status: 200 },
    path,
    body: NoBody,
    output: DocumentSchema,
    access: 'write',
    idempotent: false,
    refusals: ['draft_not_cancelled', 'paid_not_cancelled', 'already_cancelled', 'holds_money'],
    mcp: true,
    run: onRecord(cancelDocument),
  },
  {
    name: 'documents_convert',
    tag,
    summary: 'Convert a Proforma Invoice into an issued Invoice',
    description:
      "The new Invoice is issued at once with today's date and the next Invoice number; Payments recorded on the Proforma count on it.",
    http: { method: 'POST', path: '/v1/documents/:id/convert', status: 201 },
    path,
    body: NoBody,
    output: DocumentSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: [
      'not_a_proforma',
      'draft_not_converted',
      'cancelled_not_converted',
      'already_converted',
      'issuing_limit_reached',
      'numbering_at_its_end',
      'exchange_rate_missing',
    ],
    mcp: true,
    run: onRecord(convertDocument, { status: 201 }),
  },
  {
    name: 'documents_pdf',
    tag,
    summary: 'The document as a PDF (DRAFT on a Draft, SAMPLE for a Test business), or with format=facturx as Factur-X',
    description:
      "A PDF file named after the document number (a Draft: draft-<id>). format=facturx answers PDF/A-3b with the document's CII XML (exactly what /xml?format=cii answers) embedded as factur-x.xml (Factur-X / ZUGFeRD EN 16931); it is refused as that XML is: not_exportable with the failing official rule ids, exports_not_in_a_test_business. The plain PDF stays available.",
    http: { method: 'GET', path: '/v1/documents/:id/pdf', status: 200 },
    path,
    // A plain string, judged here, so an unknown format is the contract's 422 naming `format`.
    query: t.Object({
      format: t.Optional(t.String({ description: 'facturx: PDF/A-3b with the CII XML embedded as factur-x.xml' })),
    }),
    output: null,
    file: 'application/pdf',
    access: 'read',
    idempotent: false,
    refusals: ['not_exportable', 'exports_not_in_a_test_business'],
    mcp: true,
    async run(actor, { path, query }, { deps }) {
      // Several PDF requests arriving together each read their document on a turn of its own, so a request
      // behind them (a /health) waits for one document's reading, not for all of them.
      await nextTurn()
      if (query.format !== undefined && query.format !== '') {
        if (query.format !== 'facturx')
          throw new InvalidRequest({ format: ['must be facturx, or left out for the plain PDF'] })
        const file = await exportFacturx(deps, actor, idOf(path.id))
        return { kind: 'file', file: { bytes: file.pdf, mimeType: 'application/pdf', filename: file.filename } }
      }
      const view = await viewDocument(deps, deps.db.read, actor, idOf(path.id))
      const business = await getBusiness(deps.db.read, actor.businessId)
      const bytes = await documentPdf(deps.db.read, business, view)
      const name = (view.document_number ?? `draft-${view.id}`).replace(/[^A-Za-z0-9._-]/g, '_')
      return { kind: 'file', file: { bytes, mimeType: 'application/pdf', filename: `${name}.pdf` } }
    },
  },
]

/**
 * The PDF of the issued document behind a public page link, as its Business's own PDF (the Client's page offers it);
 * null for no such link. Opening the PDF is not the page's first view: document.viewed stays the page's.
 */
export async function publicDocumentPdf(
  deps: OperationContext['deps'],
  token: string,
): Promise<{ bytes: Uint8Array; filename: string } | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null
  const doc = await findByPublicToken(deps.db.read, token)
  if (!doc || doc.status === 'draft') return null
  const view = await viewDocument(
    deps,
    deps.db.read,
    systemActor({ businessId: doc.businessId }, 'public page'),
    doc.id,
  )
  const business = await getBusiness(deps.db.read, doc.businessId)
  const bytes = await documentPdf(deps.db.read, business, view)
  return { bytes, filename: `${(view.document_number ?? 'document').replace(/[^A-Za-z0-9._-]/g, '_')}.pdf` }
}

/** The application's own document actions (extensions §9): no API route; their refusal codes are the contract's. */
export const documentsAppOperations: ApplicationOperation[] = [
  {
    name: 'documents_mark_sent',
    description:
      'Marks an issued document sent by hand (`last_sent.via = "marked"`, no recipients); raises document.sent.',
    access: 'write',
    refusals: ['draft_not_delivered', 'cancelled_not_marked'],
    run: onRecord(markSent, { missing: 'No such document.' }),
  },
  {
    name: 'documents_unmark_sent',
    description:
      'Takes a mark made by hand back: `last_sent` becomes the newest send by email, or null. Raises nothing.',
    access: 'write',
    refusals: ['not_marked_sent', 'cancelled_keeps_mark'],
    run: onRecord(unmarkSent, { missing: 'No such document.' }),
  },
  {
    name: 'documents_duplicate',
    description: 'A new Draft of the same type for the same Client, with the same Lines, terms and notes.',
    access: 'write',
    refusals: ['client_deleted'],
    run: onRecord(duplicateDocument, { missing: 'No such document.' }),
  },
  {
    name: 'documents_get_for_app',
    description:
      "A document with its API `actions`, the application-only actions and each closed one's reason in words.",
    access: 'read',
    refusals: [],
    run: onRecord(viewDocumentForApp, { missing: 'No such document.' }),
  },
  {
    name: 'documents_usual_vat_rate',
    description:
      "The VAT rate a new Product or Line starts with: the rate above 0 the Business uses most on its newest Products and Lines, else its country's standard rate; null for a Non-VAT Payer.",
    access: 'read',
    refusals: [],
    // Kept until the database changes, as list pages are: every editor asks it as it opens, and it counts the newest
    // 500 Products and the Lines of the newest 500 documents (it had made the Draft editors 1.3 times the CPU of
    // before issue 34, bench/app-pages.ts --cpu).
    async run(actor, _input, ctx) {
      return keptJson(ctx, `${actor.businessId} usual_vat_rate`, async () => {
        const business = await getBusiness(ctx.deps.db.read, actor.businessId)
        return { rate: await usualVatRate(ctx.deps.db.read, business) }
      })
    },
  },
  {
    name: 'receipts_mail_closed',
    description:
      "Why no Receipt can be emailed now whatever its Client (no way to send, a lost mailbox, the day's limit), or null.",
    access: 'read',
    refusals: [],
    async run(actor, _input, { deps }) {
      return json({ closed: await receiptMailClosed(deps, actor) })
    },
  },
  {
    name: 'documents_preview_totals',
    description:
      "The totals a Draft's Lines would have, by the same Line rules and money math as saving; changes nothing. The currency is the one given, else the Client's, else the Business's.",
    access: 'write',
    refusals: [],
    async run(actor, { body }, { deps }) {
      const { lines, client_id } = body as { lines: LineInput[]; currency: string; client_id: string }
      let currency = (body as { currency: string }).currency
      if (!currency && /^[0-9]{1,15}$/.test(client_id))
        currency = (await findClient(deps.db.read, actor.businessId, Number(client_id)))?.currency ?? ''
      if (!currency) currency = actor.currency
      return json({ ...(await previewTotals(deps, actor.businessId, currency, lines)), currency })
    },
  },
  {
    name: 'documents_summaries',
    description:
      "A page of documents as the application's list shows them (number, Client, dates, totals, state), oldest first, narrowed by the API's filters and `search`; a filter it cannot read is left out.",
    access: 'read',
    refusals: [],
    run: listRun({
      list: 'app_documents',
      filter: documentFilterOf,
      rows: ({ deps }, actor, after, n, filter) => documentSummaries(deps, actor.businessId, after, n, filter),
      present: (r) => r,
    }),
  },
]
