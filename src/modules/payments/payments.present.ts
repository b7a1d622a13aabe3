// Payments and Receipts as the API answers them.
import type { PaymentRow, ReceiptRow } from './payments.repo'

type Actor = { type: string; name: string } | null
const actor = (json: string | null): Actor => (json ? (JSON.parse(json) as Actor) : null)

export function presentReceipt(r: ReceiptRow, p: PaymentRow) {
  return {
    id: r.id,
    receipt_number: r.receiptNumber,
    payment_id: r.paymentId,
    document_id: r.documentId,
    amount: p.amount,
    currency: p.currency,
    payment_date: p.paymentDate,
    payment_method: p.paymentMethod,
    reference: p.reference,
    issue_date: r.issueDate,
    voided_at: r.voidedAt,
    voided_by: actor(r.voidedBy),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  }
}

export function presentPayment(p: PaymentRow, r: ReceiptRow | null | undefined) {
  return {
    id: p.id,
    document_id: p.documentId,
    status: p.status,
    amount: p.amount,
    currency: p.currency,
    payment_date: p.paymentDate,
    payment_method: p.paymentMethod,
    bank_account_id: p.bankAccountId,
    reference: p.reference,
    notes: p.notes,
    recorded_by: actor(p.recordedBy),
    amended_by: actor(p.amendedBy),
    receipt: r ? presentReceipt(r, p) : null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  }
}

export type PaymentView = ReturnType<typeof presentPayment>
