// TypeBox models of Refunds of Credit Notes (extensions §20): the record body, the answer, the list query.
import { Type as t } from '@sinclair/typebox'
import { Amount, DecimalInput, Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode, DateString } from '../../shared/format-schemas'
import { Text } from '../../shared/text-schema'
import { PAYMENT_METHODS, PaymentMethodAnswer, RecordStatus } from './payments.model'

export const RefundSchema = t.Object(
  {
    id: Int(),
    document_id: Int({ description: 'the Credit Note' }),
    amount: Amount,
    currency: CurrencyCode,
    refund_date: DateString,
    method: PaymentMethodAnswer,
    bank_account_id: Nullable(Int()),
    reference: Nullable(t.String()),
    notes: Nullable(t.String()),
    status: RecordStatus,
    created_at: Timestamp,
  },
  { title: 'Refund' },
)

/** A Refund's body has a Payment's rules (amount above zero in the currency's decimals, a bank account for a transfer). */
export const RefundBody = t.Object(
  {
    amount: DecimalInput,
    refund_date: DateString,
    method: t.Union(PAYMENT_METHODS.map((m) => t.Literal(m))),
    bank_account_id: t.Optional(Nullable(Int({ minimum: 1 }))),
    reference: t.Optional(Nullable(Text({ maxLength: 255 }))),
    notes: t.Optional(Nullable(Text({ maxLength: 5000 }))),
  },
  { additionalProperties: false, title: 'RefundRecord' },
)

export const RefundQuery = t.Object({
  ...ListQuery,
  document_id: t.Optional(t.String({ description: 'only the Refunds of this Credit Note' })),
})

export const RefundList = Paged(RefundSchema, 'RefundList')

export type RefundInput = typeof RefundBody.static
