// HTTP route of the EN16931 export (extensions §3): GET /v1/documents/{id}/xml.
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers } from '../../http/schemas'
import { exportDocumentXml, formatOf, type EInvoiceDeps } from './einvoice.service'

const Params = t.Object({ id: t.String({ description: 'document id' }) })
// A plain string, judged by the service, so an unknown format is the contract's 422 naming `format`.
const Query = t.Object({
  format: t.Optional(t.String({ description: 'ubl (default), cii, xrechnung-ubl, xrechnung-cii or peppol' })),
})

export function einvoiceRoutes(deps: EInvoiceDeps, _http: HttpServices) {
  return new Elysia({ name: 'einvoice' }).get(
    '/v1/documents/:id/xml',
    async ({ request, params, query }) => {
      const file = await exportDocumentXml(deps, actorOf(request), pathId(params.id), formatOf(query.format))
      return new Response(file.xml, {
        headers: { 'content-type': 'application/xml', 'content-disposition': `attachment; filename="${file.filename}"` },
      })
    },
    {
      params: Params,
      query: Query,
      response: { 200: t.Any({ description: 'application/xml: UBL 2.1 Invoice or CreditNote, or CII D16B CrossIndustryInvoice' }), ...errorAnswers(404, 422) },
      detail: {
        tags: ['Documents'],
        summary: 'The document as an e-invoice: EN16931 UBL or CII, XRechnung (UBL or CII) or Peppol BIS 3.0',
        description:
          'Issued Invoices and Credit Notes only. `format`: ubl (default, EN16931 UBL 2.1), cii (EN16931 CII D16B), xrechnung-ubl, xrechnung-cii (XRechnung 3.0), peppol (Peppol BIS Billing 3.0). Refusals: not_exportable (a Draft, Proforma Invoice or Quote, or a document failing the rule check of the format asked, whose failing official rule ids are listed in `rules`), exports_not_in_a_test_business.',
      },
    },
  )
}
