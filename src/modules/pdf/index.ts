// The pdf module's public face: document (and later Receipt) PDFs.
export { documentPdf, watermarkOf } from './document-pdf'
export { PageWriter } from './layout'
export { receiptPdf } from './receipt-pdf'
