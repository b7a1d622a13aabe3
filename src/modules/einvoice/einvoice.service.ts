// EN16931 export: loads the document with its Business and bank accounts, judges whether it may be exported (Test
// business, kind, status, the rule table) and writes the UBL XML.
import type { Actor } from '../../platform/actor'
import type { Database, Queryable } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { Refusal } from '../../shared/errors'
import { getBusiness, type BusinessRow } from '../business'
import { findDocument, viewDocument, type DocumentView, type RefusalInfo } from '../documents'
import { buildModel, type EInvoiceModel } from './model'
import { checkModel, type RuleFailure } from './rules'
import { writeUbl } from './ubl'

export interface EInvoiceDeps {
  db: Database
  clock: Clock
  config: { mailRelay: string | null }
}

/** What the export reads: the document as the API answers it (with its seller snapshot), its Business and credited Invoice. */
export interface ExportSource {
  view: DocumentView
  business: BusinessRow
  credited: { number: string | null; issueDate: string | null } | null
}

export type Exportability = { ok: true; model: EInvoiceModel } | { ok: false; refusal: RefusalInfo }

export interface XmlFile {
  filename: string
  xml: string
}

export async function exportSourceOf(q: Queryable, business: BusinessRow, view: DocumentView): Promise<ExportSource> {
  let credited: ExportSource['credited'] = null
  if (view.type === 'credit_note' && view.credited_document_id !== null) {
    const inv = await findDocument(q, business.id, view.credited_document_id)
    if (inv) credited = { number: inv.documentNumber, issueDate: inv.issueDate }
  }
  return { view, business, credited }
}

const notExportable = (message: string, extra?: Record<string, unknown>): RefusalInfo => ({ code: 'not_exportable', message, ...(extra ? { extra } : {}) })

/** Whether the document exports, and if so its model; the rule check runs on every export. */
export function exportabilityOf(src: ExportSource): Exportability {
  const { view, business } = src
  if (business.isTest || view.is_test) {
    return { ok: false, refusal: { code: 'exports_not_in_a_test_business', message: 'A Test business exports no EN16931 XML; its documents are samples.' } }
  }
  if (view.status === 'draft') return { ok: false, refusal: notExportable('A Draft is not exported as EN16931 XML; issue it first.') }
  if (view.type === 'proforma') return { ok: false, refusal: notExportable('A Proforma Invoice is not exported as EN16931 XML; convert it into an Invoice.') }
  if (view.type === 'quote') return { ok: false, refusal: notExportable('A Quote is not exported as EN16931 XML.') }
  if (view.type !== 'invoice' && view.type !== 'credit_note') return { ok: false, refusal: notExportable('Only Invoices and Credit Notes are exported as EN16931 XML.') }
  const model = buildModel(src)
  const failures = checkModel(model)
  if (failures.length > 0) return { ok: false, refusal: ruleRefusal(failures) }
  return { ok: true, model }
}

function ruleRefusal(failures: RuleFailure[]): RefusalInfo {
  const ids = failures.map((f) => f.id)
  return notExportable(`The document fails the EN16931 rule${ids.length > 1 ? 's' : ''} ${ids.join(', ')}; see rules for what to change.`, { rules: failures })
}

export function fileNameOf(view: DocumentView): string {
  return `${(view.document_number ?? `draft-${view.id}`).replace(/[^A-Za-z0-9._-]/g, '_')}.xml`
}

/** The XML of a document its reader already holds, or null when it does not export (for attaching to mail). */
export async function xmlAttachmentFor(q: Queryable, business: BusinessRow, view: DocumentView): Promise<XmlFile | null> {
  const judged = exportabilityOf(await exportSourceOf(q, business, view))
  return judged.ok ? { filename: fileNameOf(view), xml: await writeUbl(judged.model) } : null
}

/** GET /v1/documents/{id}/xml: the document's EN16931 UBL, or the refusal saying why not. */
export async function exportDocumentXml(deps: EInvoiceDeps, c: Actor, id: number): Promise<XmlFile> {
  const q = deps.db.read
  const view = await viewDocument(deps, q, c, id)
  const business = await getBusiness(q, c.businessId)
  const judged = exportabilityOf(await exportSourceOf(q, business, view))
  if (!judged.ok) throw new Refusal(judged.refusal.code, judged.refusal.message, { ...judged.refusal.extra })
  return { filename: fileNameOf(view), xml: await writeUbl(judged.model) }
}
