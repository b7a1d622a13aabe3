// The pdf module's public face: document and Receipt PDFs, built one at a time (see oneAtATime), and branding.
import { documentPdf as buildDocumentPdf } from './document-pdf'
import { oneAtATime } from './layout'
import { receiptPdf as buildReceiptPdf } from './receipt-pdf'

export { watermarkOf, brandingOf, addressLines } from './document-pdf'
export { logoProblem, NO_BRANDING, type Branding } from './branding'
export { nextTurn, PageWriter } from './layout'
export const documentPdf = oneAtATime(buildDocumentPdf)
export const receiptPdf = oneAtATime(buildReceiptPdf)
