// The public page's "pay by bank transfer" block (extensions §15): the payment reference and, where §15 puts one, the
// EPC QR code for the amount due as the page is opened. Its own component, so the page around it can change freely.
import { amountDue, type DocumentRow, type SellerSnapshot } from '../../modules/documents'
import type { Words } from '../../modules/words'
import { printedReference } from '../../shared/creditor-reference'
import { epcPayload, epcPaymentOf, qrMatrix, qrSvg } from '../../shared/epc-qr'
import { currencyScale } from '../../shared/currencies'
import { format } from '../../shared/money'

/** The block's HTML (empty for a document without a reference); `esc` is the page's own escaper. */
export function payByTransfer(
  doc: DocumentRow,
  seller: SellerSnapshot | null,
  businessName: string,
  esc: (s: string | null | undefined) => string,
  w: Words,
): string {
  if (!doc.paymentReference) return ''
  const payment = epcPaymentOf({
    type: doc.type,
    status: doc.status,
    currency: doc.currency,
    amountDue: format(amountDue(doc), currencyScale(doc.currency)),
    reference: doc.paymentReference,
    name: seller?.name ?? businessName,
    accounts: seller?.bank_accounts ?? [],
  })
  const reference = `<p>${esc(w.paymentReference)} <strong class="ref" style="white-space:nowrap">${esc(printedReference(doc.paymentReference))}</strong></p>`
  if (!payment) return `<section class="pay">${reference}</section>`
  const code = qrSvg(qrMatrix(epcPayload(payment)), 180, esc(w.qrLabel))
  return `<section class="pay" style="display:flex;flex-wrap:wrap;gap:1em;align-items:center;border:1px solid #ddd;padding:1em;margin:1em 0">
<div class="qr">${code}</div>
<div style="min-width:0;flex:1 1 12em;overflow-wrap:anywhere">${reference}<p>${esc(w.scanToPayAmount(w.money(payment.amount, 'EUR'), payment.iban))}</p></div>
</section>`
}
