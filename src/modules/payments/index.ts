// The payments module's public face: jobs build webhook messages from a Payment; the OpenAPI document describes it.
export {
  getPayment,
  planPayment,
  recordPlannedPayment,
  type PaymentDeps,
  type PlannedPayment,
} from './payments.service'
export type { RecordInput } from './payments.model'
export { PaymentSchema } from './payments.model'
export { receiptPdfOf, paymentWithReceipt } from './receipts.service'
export type { PaymentRow, ReceiptRow } from './payments.repo'
export { getRefund, type RefundView } from './refunds.service'
export { RefundSchema } from './refunds.model'
