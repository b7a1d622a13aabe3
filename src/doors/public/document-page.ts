// The public door: a document's page, opened by its Client through an unguessable link (no credential, no Actor),
// written in the document's language (extensions §18): its status, the amount due, the PDF and the bank details.
import { Elysia, t } from 'elysia'
import { currencyScale } from '../../shared/currencies'
import { format } from '../../shared/money'
import { amountDue, openPublicDocument, owesAmount, publicDocumentPdf } from '../../modules/documents'
import { readerLanguage, words, type PageStatus, type Words } from '../../modules/words'
import type { OperationContext } from '../../platform/operation'
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
/** A link that opens no document: there is no document's language, so the page speaks the browser's (§18). */
function notFound(request: Request): Response {
  const w = words(readerLanguage(request.headers.get('accept-language')))
  return new Response(
    `<!doctype html><html lang="${w.language}"><title>${esc(w.notFoundTitle)}</title><p>${esc(w.notFound)}</p></html>`,
    { status: 404, headers: { ...PAGE_HEADERS, 'content-language': w.language } },
  )
}

const isPageStatus = (status: string): status is PageStatus =>
  status === 'issued' || status === 'partially_paid' || status === 'paid' || status === 'cancelled'

// Fits a phone (390 px): the Lines scroll inside their own box, long words (an IBAN, a number) break.
const STYLE = `body{font-family:system-ui,sans-serif;max-width:760px;margin:1.5em auto;padding:0 1em;color:#222;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse}td,th{padding:.3em;border-bottom:1px solid #ddd;text-align:left}.n{text-align:right}td.n{white-space:nowrap}
td,th{overflow-wrap:normal}
.scroll{overflow-x:auto}.status{display:inline-block;padding:.1em .6em;border-radius:1em;background:#eef;font-size:.9em}
.status.paid{background:#e3f5e3}.status.cancelled{background:#eee;color:#555}.due{font-size:1.3em}
.box{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;margin:1em 0}.button{display:inline-block;padding:.4em 1em;border:1px solid #335;border-radius:4px;color:#224;text-decoration:none}
@media (max-width:480px){td,th{font-size:.85em;padding:.25em}}`

export function publicPageRoutes(deps: OperationContext['deps']) {
  return new Elysia({ name: 'public-page' })
    .get(
      '/p/:token',
      async ({ params, request }) => {
        const found = await openPublicDocument(deps, params.token)
        if (!found) return notFound(request)
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
        const owes = owesAmount(doc)
        const due = format(amountDue(doc), currencyScale(doc.currency))
        const accounts = seller?.bank_accounts ?? []
        // The payment reference and the EPC QR code of extensions §15 (a component of its own); without a reference
        // (a document issued before references existed) the transfer quotes the document's number.
        const transfer = payByTransfer(doc, seller, business.name, esc, w)
        const bank =
          owes && doc.status !== 'paid' && accounts.length > 0
            ? `<section class=box id=bank-details><h2>${esc(w.payByTransfer)}</h2>${accounts
                .map(
                  (a) =>
                    `<p><strong>${esc(a.name)}</strong><br>IBAN ${esc(a.iban)}${a.bic ? `<br>BIC ${esc(a.bic)}` : ''}</p>`,
                )
                .join('')}` +
              (transfer
                ? `<div id=pay-by-transfer>${transfer}</div>`
                : `<p>${esc(w.paymentReference)}: ${esc(doc.documentNumber)}</p>`) +
              `</section>`
            : transfer
        const html = `<!doctype html><html lang="${w.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} ${esc(doc.documentNumber)}</title>
<style>${STYLE}</style></head>
<body>${business.isTest || doc.isTest ? `<p><strong>${esc(w.sample)}</strong> — ${esc(w.sampleNote)}</p>` : ''}
<h1>${esc(title)} ${esc(doc.documentNumber)}</h1>
<p><span class="status ${esc(doc.status)}" id=status>${esc(isPageStatus(doc.status) ? w.statuses[doc.status] : doc.status)}</span></p>
<p>${esc(w.from)} <strong>${esc(seller ? (seller.legal_name ?? seller.name) : (business.legalName ?? business.name))}</strong> ${esc(w.to)} <strong>${esc(client?.legal_name ?? client?.name)}</strong></p>
<p>${esc(w.issuedOn(w.date(doc.issueDate ?? '')))}${doc.dueDate && owes ? `, ${esc(w.dueOn(w.date(doc.dueDate)))}` : ''}${doc.status === 'cancelled' ? ` — <strong>${esc(w.cancelled)}</strong>` : ''}</p>
${owes ? `<p class=due id=amount-due>${esc(w.amountDue)} <strong>${esc(w.money(due, doc.currency))}</strong></p>` : ''}
<p><a class=button id=pdf href="/p/${esc(params.token)}/pdf">${esc(w.downloadPdf)}</a></p>
<div class=scroll><table><tr><th>${esc(w.description)}</th><th class=n>${esc(w.quantity)}</th><th class=n>${esc(w.unitPrice)}</th><th class=n>${esc(w.vat)}</th><th class=n>${esc(w.net)}</th></tr>${rows}</table></div>
<p class=n>${esc(w.netTotal)} ${esc(w.number(doc.netTotal))} · ${esc(w.vatTotal)} ${esc(w.number(doc.vatTotal))} · <strong>${esc(w.total)} ${esc(w.money(doc.total, doc.currency))}</strong></p>
${bank}
</body></html>`
        return new Response(html, { headers: { ...PAGE_HEADERS, 'content-language': w.language } })
      },
      { params: t.Object({ token: t.String() }), detail: { hide: true } },
    )
    .get(
      '/p/:token/pdf',
      async ({ params, request }) => {
        const pdf = await publicDocumentPdf(deps, params.token)
        if (!pdf) return notFound(request)
        return new Response(pdf.bytes as Uint8Array<ArrayBuffer>, {
          headers: {
            ...PAGE_HEADERS,
            'content-type': 'application/pdf',
            'content-disposition': `attachment; filename="${pdf.filename}"`,
          },
        })
      },
      { params: t.Object({ token: t.String() }), detail: { hide: true } },
    )
}
