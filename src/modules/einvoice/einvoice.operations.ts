// Operation of the EN16931 export (extensions §3): GET /v1/documents/{id}/xml.
import { Type as t } from '@sinclair/typebox'
import { idOf, type Operation } from '../../platform/operation'
import { exportDocumentXml, formatOf } from './einvoice.service'

export const einvoiceOperations: Operation[] = [
  {
    name: 'documents_xml',
    tag: 'Documents',
    summary: 'The document as an e-invoice: EN16931 UBL or CII, XRechnung (UBL or CII) or Peppol BIS 3.0',
    description:
      'Issued Invoices and Credit Notes only. `format`: ubl (default, EN16931 UBL 2.1), cii (EN16931 CII D16B), xrechnung-ubl, xrechnung-cii (XRechnung 3.0), peppol (Peppol BIS Billing 3.0). Refusals: not_exportable (a Draft, Proforma Invoice or Quote, or a document failing the rule check of the format asked, whose failing official rule ids are listed in `rules`), exports_not_in_a_test_business.',
    http: { method: 'GET', path: '/v1/documents/:id/xml', status: 200 },
    path: t.Object({ id: t.String({ description: 'document id' }) }),
    // A plain string, judged by the service, so an unknown format is the contract's 422 naming `format`.
    query: t.Object({
      format: t.Optional(t.String({ description: 'ubl (default), cii, xrechnung-ubl, xrechnung-cii or peppol' })),
    }),
    output: null,
    file: 'application/xml',
    access: 'read',
    idempotent: false,
    refusals: ['not_exportable', 'exports_not_in_a_test_business'],
    mcp: true,
    async run(actor, { path, query }, { deps }) {
      const file = await exportDocumentXml(deps, actor, idOf(path.id), formatOf(query.format))
      return { kind: 'file', file: { bytes: file.xml, mimeType: 'application/xml', filename: file.filename } }
    },
  },
]
