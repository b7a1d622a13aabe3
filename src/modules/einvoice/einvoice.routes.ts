// HTTP route of the EN16931 export (extensions §3): GET /v1/documents/{id}/xml.
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers } from '../../http/schemas'
import { exportDocumentXml, type EInvoiceDeps } from './einvoice.service'

const Params = t.Object({ id: t.String({ description: 'document id' }) })

export function einvoiceRoutes(deps: EInvoiceDeps, _http: HttpServices) {
  return new Elysia({ name: 'einvoice' }).get(
    '/v1/documents/:id/xml',
    async ({ request, params }) => {
      const file = await exportDocumentXml(deps, actorOf(request), pathId(params.id))
      return new Response(file.xml, {
        headers: { 'content-type': 'application/xml', 'content-disposition': `attachment; filename="${file.filename}"` },
      })
    },
    {
      params: Params,
      response: { 200: t.Any({ description: 'application/xml: the EN16931 UBL 2.1 Invoice or CreditNote' }), ...errorAnswers(404, 422) },
      detail: {
        tags: ['Documents'],
        summary: 'The document as an EN16931 e-invoice (UBL 2.1)',
        description:
          'Issued Invoices and Credit Notes only. Refusals: not_exportable (a Draft, Proforma Invoice or Quote, or a document failing the EN16931 rule check, whose failing rules are listed in `rules`), exports_not_in_a_test_business.',
      },
    },
  )
}
