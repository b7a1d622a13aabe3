// EN16931 export: loads the document with its Business and seller snapshot, judges whether it may be exported in the
// format asked (Test business, kind, status, the EN16931 rule table and the format's CIUS rules) and writes its XML.
import type { Actor } from '../../platform/actor'
import type { Database, Queryable } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { InvalidRequest, Refusal, refusalInfo } from '../../shared/errors'
import { XML_FORMATS, isXmlFormat, type XmlFormat } from '../../shared/einvoice-formats'
import { getBusiness, type BusinessRow } from '../business'
import { findDocument, viewDocument, type DocumentView, type RefusalInfo } from '../documents'
import { documentPdf, facturxPdf } from '../pdf'
import { words } from '../words'
import { writeCii } from './cii'
import { buildModel, FORMAT_PROFILE, type EInvoiceModel } from './model'
import { checkModel, rulesFor, type RuleFailure } from './rules'
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

/** The rule sets each format answers to, named in refusals. */
const RULE_SET_NAMES: Record<XmlFormat, string> = {
  ubl: 'EN16931',
  cii: 'EN16931',
  'xrechnung-ubl': 'EN16931 and XRechnung',
  'xrechnung-cii': 'EN16931 and XRechnung',
  peppol: 'EN16931 and Peppol BIS 3.0',
}

/** The `format` query value as a format; absent is ubl, anything else is 422 naming `format`. */
export function formatOf(raw: string | undefined): XmlFormat {
  if (raw === undefined || raw === '') return 'ubl'
  if (!isXmlFormat(raw)) throw new InvalidRequest({ format: [`must be one of ${XML_FORMATS.join(', ')}`] })
  return raw
}

/** The XML of a model in its format's syntax. */
export function writeXml(m: EInvoiceModel): Promise<string> {
  return FORMAT_PROFILE[m.format].syntax === 'cii' ? writeCii(m) : writeUbl(m)
}

export async function exportSourceOf(q: Queryable, business: BusinessRow, view: DocumentView): Promise<ExportSource> {
  let credited: ExportSource['credited'] = null
  if (view.type === 'credit_note' && view.credited_document_id !== null) {
    const inv = await findDocument(q, business.id, view.credited_document_id)
    if (inv) credited = { number: inv.documentNumber, issueDate: inv.issueDate }
  }
  return { view, business, credited }
}

/** Whether the document exports in `format`, and if so its model; the format's rule check runs on every export. */
export function exportabilityOf(src: ExportSource, format: XmlFormat = 'ubl'): Exportability {
  const { view, business } = src
  if (business.isTest || view.is_test) {
    return { ok: false, refusal: refusalInfo('exports_not_in_a_test_business') }
  }
  if (view.status === 'draft') return { ok: false, refusal: refusalInfo('not_exportable', { why: 'draft' }) }
  if (view.type === 'proforma') return { ok: false, refusal: refusalInfo('not_exportable', { why: 'proforma' }) }
  if (view.type === 'quote') return { ok: false, refusal: refusalInfo('not_exportable', { why: 'quote' }) }
  if (view.type !== 'invoice' && view.type !== 'credit_note')
    return { ok: false, refusal: refusalInfo('not_exportable', { why: 'other' }) }
  const model = buildModel({ ...src, format })
  const failures = checkModel(model, rulesFor(format))
  if (failures.length > 0) return { ok: false, refusal: ruleRefusal(failures, format) }
  return { ok: true, model }
}

function ruleRefusal(failures: RuleFailure[], format: XmlFormat): RefusalInfo {
  const rules = failures.map((f) => f.id)
  return {
    ...refusalInfo('not_exportable', { why: 'rules', ruleSet: RULE_SET_NAMES[format], rules, format }),
    extra: { format, rules: failures },
  }
}

function fileNameOf(view: DocumentView): string {
  return `${(view.document_number ?? `draft-${view.id}`).replace(/[^A-Za-z0-9._-]/g, '_')}.xml`
}

/** The XML of a document its reader already holds in `format`, or null when it does not export (for attaching to mail). */
export async function xmlAttachmentFor(
  q: Queryable,
  business: BusinessRow,
  view: DocumentView,
  format: XmlFormat = 'ubl',
): Promise<XmlFile | null> {
  const judged = exportabilityOf(await exportSourceOf(q, business, view), format)
  return judged.ok ? { filename: fileNameOf(view), xml: await writeXml(judged.model) } : null
}

/** The judged model of a document in `format`, or the refusal saying why not (the XML and Factur-X routes). */
async function exportModel(
  deps: EInvoiceDeps,
  c: Actor,
  id: number,
  format: XmlFormat,
): Promise<{ view: DocumentView; business: BusinessRow; model: EInvoiceModel }> {
  const q = deps.db.read
  const view = await viewDocument(deps, q, c, id)
  const business = await getBusiness(q, c.businessId)
  const judged = exportabilityOf(await exportSourceOf(q, business, view), format)
  if (!judged.ok) throw new Refusal(judged.refusal.code, judged.refusal.message, { ...judged.refusal.extra })
  return { view, business, model: judged.model }
}

/** GET /v1/documents/{id}/xml?format=: the document's e-invoice in that format, or the refusal saying why not. */
export async function exportDocumentXml(
  deps: EInvoiceDeps,
  c: Actor,
  id: number,
  format: XmlFormat = 'ubl',
): Promise<XmlFile> {
  const { view, model } = await exportModel(deps, c, id, format)
  return { filename: fileNameOf(view), xml: await writeXml(model) }
}

/** The Factur-X PDF of a document its reader holds: its PDF with the `cii` XML embedded, or null when that is refused. */
export async function facturxAttachmentFor(
  q: Queryable,
  business: BusinessRow,
  view: DocumentView,
): Promise<Uint8Array | null> {
  const judged = exportabilityOf(await exportSourceOf(q, business, view), 'cii')
  return judged.ok ? facturxOf(q, business, view, judged.model) : null
}

async function facturxOf(
  q: Queryable,
  business: BusinessRow,
  view: DocumentView,
  model: EInvoiceModel,
): Promise<Uint8Array> {
  const pdf = await documentPdf(q, business, view)
  // The PDF's title in the document's language, as the page itself says it.
  const titles = words(view.language).titles
  const title = `${titles[view.type as keyof typeof titles] ?? view.type} ${view.document_number ?? ''}`.trim()
  // Stamped with the document's last change, so the same document gives the same file.
  return facturxPdf(pdf, await writeXml(model), { title, date: new Date(view.updated_at) })
}

/** GET /v1/documents/{id}/pdf?format=facturx: PDF/A-3b with factur-x.xml, refused as the `cii` XML is refused. */
export async function exportFacturx(
  deps: EInvoiceDeps,
  c: Actor,
  id: number,
): Promise<{ filename: string; pdf: Uint8Array }> {
  const { view, business, model } = await exportModel(deps, c, id, 'cii')
  return {
    filename: fileNameOf(view).replace(/\.xml$/, '.pdf'),
    pdf: await facturxOf(deps.db.read, business, view, model),
  }
}
