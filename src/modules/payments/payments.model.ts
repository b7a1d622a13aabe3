// TypeBox models of Payments and Receipts: the Record and Amend bodies, the answers, the list queries.
import { Type as t } from '@sinclair/typebox'
import { Text } from '../../shared/text-schema'
import { Amount, DecimalInput, Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode, DateString } from '../../shared/format-schemas'

export const PAYMENT_METHODS = ['bank_transfer', 'cash', 'check', 'credit_card', 'debit_card', 'other'] as const

const Method = t.Union(PAYMENT_METHODS.map((m) => t.Literal(m)))
// Counted in characters as stored (the service trims), not UTF-16 units: see Text.
const Reference = Text({ maxLength: 255 })
const Notes = Text({ maxLength: 5000 })
const Actor = Nullable(t.Object({ type: t.String({ description: 'api_key or connected_app' }), name: t.String() }))

export const ReceiptSchema = t.Object(
  {
    id: Int(),
    receipt_number: t.String(),
    payment_id: Int(),
    document_id: Int(),
    amount: Amount,
    currency: CurrencyCode,
    payment_date: DateString,
    payment_method: t.String(),
    reference: Nullable(t.String()),
    issue_date: DateString,
    voided_at: Nullable(Timestamp),
    voided_by: Actor,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Receipt' },
)

/** A Payment's or a Refund's status as answered. */
export const RecordStatus = t.String({ description: 'completed or voided; keep an unknown value' })
/** How a Payment or a Refund was made, as answered: the list may grow. */
export const PaymentMethodAnswer = t.String({
  description: 'bank_transfer, cash, check, credit_card, debit_card, other; others may be added',
})

export const PaymentSchema = t.Object(
  {
    id: Int(),
    document_id: Int(),
    status: RecordStatus,
    amount: Amount,
    currency: CurrencyCode,
    payment_date: DateString,
    payment_method: PaymentMethodAnswer,
    bank_account_id: Nullable(Int()),
    reference: Nullable(t.String()),
    notes: Nullable(t.String()),
    recorded_by: Actor,
    amended_by: Actor,
    receipt: Nullable(ReceiptSchema),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Payment' },
)

const recordFields = {
  payment_date: DateString,
  payment_method: Method,
  bank_account_id: t.Optional(Nullable(Int({ minimum: 1 }))),
  reference: t.Optional(Nullable(Reference)),
  notes: t.Optional(Nullable(Notes)),
  currency: t.Optional(t.String({ maxLength: 3 })),
}

export const RecordBody = t.Object(
  { amount: DecimalInput, ...recordFields },
  { additionalProperties: false, title: 'PaymentRecord' },
)

export const AmendBody = t.Object(
  {
    amount: t.Optional(DecimalInput),
    payment_date: t.Optional(DateString),
    payment_method: t.Optional(Method),
    bank_account_id: t.Optional(Nullable(Int({ minimum: 1 }))),
    reference: t.Optional(Nullable(Reference)),
    notes: t.Optional(Nullable(Notes)),
    currency: t.Optional(t.String({ maxLength: 3 })),
  },
  { additionalProperties: false, title: 'PaymentAmend' },
)

export const ByDocumentQuery = t.Object({
  ...ListQuery,
  document_id: t.Optional(t.String({ description: 'only those recorded against this document' })),
})

export const PaymentList = Paged(PaymentSchema, 'PaymentList')
export const ReceiptList = Paged(ReceiptSchema, 'ReceiptList')

export type RecordInput = typeof RecordBody.static
export type AmendInput = typeof AmendBody.static
