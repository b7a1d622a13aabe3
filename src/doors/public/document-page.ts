// The public door: a document's page, opened by its Client through an unguessable link (no credential, no Actor),
// written in the document's language (extensions §18).
import { Elysia, t } from 'elysia'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { openPublicDocument } from '../../modules/documents'
import { words, type Words } from '../../modules/words'
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
      // An issued document's language is fixed; one issued before languages existed reads as English.
      const w = words(doc.language)
      const title = w.titles[doc.type as keyof Words['titles']] ?? doc.type
      const rows = lines
        .map(
          (l) =>
            `<tr><td>${esc(l.description)}</td><td class=n>${esc(w.number(l.quantity))} ${esc(l.unit)}</td><td class=n>${esc(w.number(l.unitPrice))}</td><td class=n>${esc(w.lineVat(l.vatCategory, l.vatRate))}</td><td class=n>${esc(w.number(l.netAmount))}</td></tr>`,
        )
        .join('')
      const html = `<!doctype html><html lang="${w.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} ${esc(doc.documentNumber)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2em auto;padding:0 1em;color:#222}table{width:100%;border-collapse:collapse}td,th{padding:.3em;border-bottom:1px solid #ddd;text-align:left}.n{text-align:right}.scroll{overflow-x:auto}</style></head>
<body>${business.isTest || doc.isTest ? `<p><strong>${esc(w.sample)}</strong> — ${esc(w.sampleNote)}</p>` : ''}
<h1>${esc(title)} ${esc(doc.documentNumber)}</h1>
<p>${esc(w.from)} <strong>${esc(seller ? (seller.legal_name ?? seller.name) : (business.legalName ?? business.name))}</strong> ${esc(w.to)} <strong>${esc(client?.legal_name ?? client?.name)}</strong></p>
<p>${esc(w.issuedOn(w.date(doc.issueDate ?? '')))}${doc.dueDate ? `, ${esc(w.dueOn(w.date(doc.dueDate)))}` : ''}${doc.status === 'cancelled' ? ` — <strong>${esc(w.cancelled)}</strong>` : ''}</p>
<div class=scroll><table><tr><th>${esc(w.description)}</th><th class=n>${esc(w.quantity)}</th><th class=n>${esc(w.unitPrice)}</th><th class=n>${esc(w.vat)}</th><th class=n>${esc(w.net)}</th></tr>${rows}</table></div>
<p class=n>${esc(w.netTotal)} ${esc(w.number(doc.netTotal))} · ${esc(w.vatTotal)} ${esc(w.number(doc.vatTotal))} · <strong>${esc(w.total)} ${esc(w.money(doc.total, doc.currency))}</strong></p>
${payByTransfer(doc, seller, business.name, esc)}
</body></html>`
      return new Response(html, { headers: PAGE_HEADERS })
    },
    { params: t.Object({ token: t.String() }), detail: { hide: true } },
  )
}
