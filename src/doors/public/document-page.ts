// The public door: a document's page, opened by its Client through an unguessable link (no credential, no Actor).
import { Elysia, t } from 'elysia'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { DOCUMENT_TITLES, openPublicDocument } from '../../modules/documents'
import { payByTransfer } from './pay-by-transfer'

function esc(s: string | null | undefined): string {
  return (s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}

/** The page is a bearer link's: never cached by the way, framed by another site, sniffed as anything else or indexed. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-robots-tag': 'noindex, nofollow',
}
const notFound = () =>
  new Response('<!doctype html><title>Not found</title><p>No such document.</p>', {
    status: 404,
    headers: PAGE_HEADERS,
  })

export function publicPageRoutes(deps: { db: Database; clock: Clock }) {
  return new Elysia({ name: 'public-page' }).get(
    '/p/:token',
    async ({ params }) => {
      const found = await openPublicDocument(deps, params.token)
      if (!found) return notFound()
      const { doc, business, lines, client, seller } = found
      const rows = lines
        .map(
          (l) =>
            `<tr><td>${esc(l.description)}</td><td class=n>${esc(l.quantity)} ${esc(l.unit)}</td><td class=n>${esc(l.unitPrice)}</td><td class=n>${esc(l.vatRate)}%</td><td class=n>${esc(l.netAmount)}</td></tr>`,
        )
        .join('')
      const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(DOCUMENT_TITLES[doc.type])} ${esc(doc.documentNumber)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2em auto;padding:0 1em;color:#222}table{width:100%;border-collapse:collapse}td,th{padding:.3em;border-bottom:1px solid #ddd;text-align:left}.n{text-align:right}</style></head>
<body>${business.isTest || doc.isTest ? '<p><strong>SAMPLE</strong> — a Test business document</p>' : ''}
<h1>${esc(DOCUMENT_TITLES[doc.type])} ${esc(doc.documentNumber)}</h1>
<p>From <strong>${esc(seller ? (seller.legal_name ?? seller.name) : (business.legalName ?? business.name))}</strong> to <strong>${esc(client?.legal_name ?? client?.name)}</strong></p>
<p>Issued ${esc(doc.issueDate)}${doc.dueDate ? `, due ${esc(doc.dueDate)}` : ''}${doc.status === 'cancelled' ? ' — <strong>cancelled</strong>' : ''}</p>
<table><tr><th>Description</th><th class=n>Quantity</th><th class=n>Unit price</th><th class=n>VAT</th><th class=n>Net</th></tr>${rows}</table>
<p class=n>Net ${esc(doc.netTotal)} · VAT ${esc(doc.vatTotal)} · <strong>Total ${esc(doc.total)} ${esc(doc.currency)}</strong></p>
${payByTransfer(doc, seller, business.name, esc)}
</body></html>`
      return new Response(html, { headers: PAGE_HEADERS })
    },
    { params: t.Object({ token: t.String() }), detail: { hide: true } },
  )
}
