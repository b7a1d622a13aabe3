// The documents module's public face for payments, reports, mail, e-invoices and the PDF writer.
export type { DocumentView, SellerSnapshot, ShownBankAccount } from './documents.present'
export type { DocumentRow } from './documents.repo'
export { findDocument, documentsNamed, writeAmountRefunded } from './documents.repo'
export {
  issueInTx,
  sellerOfDocument,
  viewDocument,
  sendFactsOf,
  recordSentInTx,
  type DocumentDeps,
} from './documents.service'
export { DocumentSchema } from './documents.model'
export {
  amountDue,
  paidState,
  countedDocumentIds,
  countedPaymentSql,
  COUNTED_PAYMENT_STATUS,
  DUE_MINOR_SQL,
  type Paid,
} from './paid'
export {
  paymentCounts,
  OWING_SQL,
  OWING_STATUSES,
  paidShareMinor,
  paidShareSql,
  paidShareOutOfSql,
  SQL_SHARE_LIMIT,
  dueMinorSql,
} from './paid'
export { settleDocument } from './settlement'
export { refusalFor, takesPaymentsRefusal, type RefusalInfo, type SendFacts } from './lifecycle'
export { gatherFacts } from './facts'
export { throwRefusal } from './documents.service'
export { toMinor } from './totals'
export { findPaymentTarget, readPaymentTarget, type PaymentTarget } from './documents.repo'
export type { Facts } from './lifecycle'
export { categoryRank } from './totals'
export {
  markSent,
  unmarkSent,
  duplicateDocument,
  recordRemindedInTx,
  gatherAppFacts,
  viewDocumentForApp,
  previewTotals,
  type AppDocument,
  documentSummaries,
  type DocumentSummary,
  type Acting,
} from './app-actions.service'
export { receiptEmailRefusal, remindRefusal, type AppActionName, type AppFacts } from './app-actions'
export { viewDocuments } from './documents.service'
export { DOCUMENT_TITLES, accountsShown, sellerSnapshotOf } from './documents.present'
export { openPublicDocument, type PublicDocument } from './public-page'
export { setRemedyBase, REMEDY_URLS } from './lifecycle'
export { ISSUE_REFUSALS } from './documents.operations'
// The application's pages call the same use cases as the API routes.
export {
  createDocument,
  updateDocument,
  deleteDocument,
  issueDocument,
  cancelDocument,
  convertDocument,
} from './documents.service'
export { DocumentCreateBody, DocumentUpdateBody } from './documents.model'
export type { DocumentCreateInput, DocumentUpdateInput } from './documents.model'
export { VAT_CATEGORIES, takesZeroRate, type LineInput } from './lines'
export { documentTypes, documentStatuses } from '../../db/schema'
export { documentLabels, type DocumentLabel } from './labels.repo'
export { documentFilterOf } from './list-filter'
// Recurring invoices (extensions §13) hold a Draft's Lines and make Drafts from them.
export { LineInputSchema, writtenLineFields, type WrittenLine } from './documents.model'
export { resolveLines, writtenLine, type ResolvedLine } from './lines'
export { insertDraftInTx, type DraftFromTemplate } from './documents.service'
export { linesOf } from './documents.repo'
export { owesAmount, showsDueDate } from './paid'
export { crossBorderEuBusiness } from './vat-suggestion'
export { publicDocumentPdf } from './documents.operations'
