// TypeBox models of recurring invoices (extensions §13): the create and update bodies, the answer, the list query.
import { Type as t } from '@sinclair/typebox'
import { Text } from '../../shared/text-schema'
import { Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode, DateString } from '../../shared/format-schemas'
import { LineInputSchema, writtenLineFields } from '../documents'

const Frequency = t.Union([t.Literal('day'), t.Literal('week'), t.Literal('month'), t.Literal('year')])
const Action = t.Union([t.Literal('draft'), t.Literal('issue'), t.Literal('send')], {
  description: 'what each date does: make a Draft, issue it, or issue and send it to the Client',
})

const templateFields = {
  currency: t.Optional(Nullable(t.String({ maxLength: 3 }))),
  lines: t.Optional(t.Array(LineInputSchema, { maxItems: 500 })),
  notes: t.Optional(Nullable(Text({ maxLength: 5000 }))),
  payment_terms: t.Optional(Nullable(Int({ minimum: 0, maximum: 999999, description: "null: the Client's" }))),
  bank_account_ids: t.Optional(Nullable(t.Array(Int({ minimum: 1 }), { maxItems: 20 }))),
  buyer_reference: t.Optional(Nullable(Text({ maxLength: 200 }))),
  order_reference: t.Optional(Nullable(Text({ maxLength: 200 }))),
  interval: t.Optional(Int({ minimum: 1, maximum: 366, description: 'every `interval` frequencies; default 1' })),
  end_date: t.Optional(Nullable(DateString)),
  count: t.Optional(Nullable(Int({ minimum: 1, description: 'how many Invoices in all' }))),
  action: t.Optional(Action),
}

export const RecurringCreateBody = t.Object(
  {
    client_id: t.Optional(Int({ minimum: 1, description: 'required unless from_document_id is sent' })),
    from_document_id: t.Optional(
      Int({
        minimum: 1,
        description: "copies that document's Client, currency, Lines, notes and references; fields sent beside it win",
      }),
    ),
    frequency: Frequency,
    start_date: DateString,
    ...templateFields,
  },
  { additionalProperties: false, title: 'RecurringInvoiceCreate' },
)

export const RecurringUpdateBody = t.Object(
  {
    client_id: t.Optional(Int({ minimum: 1 })),
    frequency: t.Optional(Frequency),
    start_date: t.Optional(DateString),
    ...templateFields,
  },
  { additionalProperties: false, title: 'RecurringInvoiceUpdate' },
)

const TemplateLine = t.Object(writtenLineFields(), { title: 'RecurringInvoiceLine' })

const RunError = t.Object({ type: t.String(), code: Nullable(t.String()), message: t.String() })

export const RecurringSchema = t.Object(
  {
    id: Int(),
    status: t.String({ description: 'active, paused or ended' }),
    client_id: Int(),
    currency: CurrencyCode,
    lines: t.Array(TemplateLine),
    notes: Nullable(t.String()),
    payment_terms: Nullable(Int({ minimum: 0 })),
    bank_account_ids: t.Array(Int()),
    buyer_reference: Nullable(t.String()),
    order_reference: Nullable(t.String()),
    frequency: t.String({ description: 'day, week, month or year' }),
    interval: Int({ minimum: 1, maximum: 366 }),
    start_date: DateString,
    end_date: Nullable(DateString),
    count: Nullable(Int({ minimum: 1 })),
    action: t.String({ description: 'draft, issue or send' }),
    next_date: Nullable(DateString),
    documents_made: Int({ minimum: 0 }),
    last_run: Nullable(
      t.Object({
        date: DateString,
        document_id: Nullable(Int()),
        error: Nullable(RunError),
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'RecurringInvoice' },
)

export const RecurringList = Paged(RecurringSchema, 'RecurringInvoiceList')

export const RecurringListQuery = t.Object({
  ...ListQuery,
  client_id: t.Optional(t.String()),
  status: t.Optional(t.String({ description: 'active, paused or ended' })),
})

export const DatesQuery = t.Object({
  count: t.Optional(t.String({ description: 'how many dates, 1 to 24; default 12' })),
})

export const DatesAnswer = t.Object({ dates: t.Array(DateString) }, { title: 'RecurringInvoiceDates' })

export type RecurringCreateInput = typeof RecurringCreateBody.static
export type RecurringUpdateInput = typeof RecurringUpdateBody.static
