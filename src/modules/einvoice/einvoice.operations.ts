// Operation of the EN16931 export (extensions §3): GET /v1/documents/{id}/xml.
import { t } from 'elysia'
import { idOf, type Operation } from '../../platform/operation'
import { exportDocumentXml } from './einvoice.service'

export const einvoiceOperations: Operation[] = [
  {
    name: 'documents_xml',
    tag: 'Documents',
    summary: 'The document as an EN16931 e-invoice (UBL 2.1)',
    description:
      'Issued Invoices and Credit Notes only. Refusals: not_exportable (a Draft, Proforma Invoice or Quote, or a document failing the EN16931 rule check, whose failing rules are listed in `rules`), exports_not_in_a_test_business.',
    http: { method: 'GET', path: '/v1/documents/:id/xml', status: 200 },
    path: t.Object({ id: t.String({ description: 'document id' }) }),
    output: null,
    file: 'application/xml',
    access: 'read',
    idempotent: false,
    refusals: ['not_exportable', 'exports_not_in_a_test_business'],
    mcp: true,
    async run(actor, { path }, { deps }) {
      const file = await exportDocumentXml(deps, actor, idOf(path.id))
      return { kind: 'file', file: { bytes: file.xml, mimeType: 'application/xml', filename: file.filename } }
    },
  },
]
