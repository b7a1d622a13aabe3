// The documents module's public face for payments, reports, mail, e-invoices and the PDF writer.
export type { DocumentView } from './documents.present'
export type { DocumentRow } from './documents.repo'
export { findDocument } from './documents.repo'
export { issueInTx, viewDocument, mailViaOf, type DocumentDeps } from './documents.service'
export { amountDue } from './lifecycle'
