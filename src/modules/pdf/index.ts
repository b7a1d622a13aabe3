// The pdf module's public face: document and Receipt PDFs, built one at a time (see oneAtATime), and branding.
import { documentPdf as buildDocumentPdf } from './document-pdf'
import { oneAtATime } from './layout'
import { receiptPdf as buildReceiptPdf } from './receipt-pdf'
import { facturxPdf as buildFacturxPdf } from './facturx'

export { brandingOf } from './document-pdf'
export type { Branding } from './branding'
export { releasePdfMemory } from './layout'
export const documentPdf = oneAtATime(buildDocumentPdf)
export const receiptPdf = oneAtATime(buildReceiptPdf)
// Factur-X re-reads and re-writes a whole PDF: it takes its turn like the builds.
export const facturxPdf = oneAtATime(buildFacturxPdf)
