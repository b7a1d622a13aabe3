// The pdf module's public face: document and Receipt PDFs, built one at a time (see oneAtATime).
import { documentPdf as buildDocumentPdf } from './document-pdf'
import { oneAtATime } from './layout'
import { receiptPdf as buildReceiptPdf } from './receipt-pdf'

export { watermarkOf } from './document-pdf'
export { nextTurn, PageWriter } from './layout'
export const documentPdf = oneAtATime(buildDocumentPdf)
export const receiptPdf = oneAtATime(buildReceiptPdf)
