// The pdf module's public face: document (and later Receipt) PDFs.
export { documentPdf, watermarkOf, brandingOf, addressLines } from './document-pdf'
export { logoProblem, NO_BRANDING, type Branding } from './branding'
export { PageWriter } from './layout'
export { receiptPdf } from './receipt-pdf'
