// TypeBox models of documents: the create/update bodies, Lines, the answer with its actions, the list query.
import { Type as t, type Static, type TObject } from '@sinclair/typebox'
import { Text } from '../../shared/text-schema'
import { AMOUNT_PATTERN } from '../../shared/money'
import { Amount, Bool, DecimalInput, Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode, DateString } from '../../shared/format-schemas'

const DocType = t.Union([t.Literal('invoice'), t.Literal('proforma'), t.Literal('credit_note'), t.Literal('quote')])

// Line texts count characters as stored (trimmed), not UTF-16 units: see Text. lines.ts holds the same limits for
// values a Product fills in.
export const LineInputSchema = t.Object(
  {
    product_id: t.Optional(Nullable(Int({ minimum: 1 }))),
    description: t.Optional(Nullable(Text({ maxLength: 1000 }))),
    quantity: DecimalInput,
    unit: t.Optional(Nullable(Text({ maxLength: 50 }))),
    unit_price: t.Optional(Nullable(DecimalInput)),
    vat_rate: t.Optional(Nullable(DecimalInput)),
    vat_category: t.Optional(
      Nullable(t.String({ maxLength: 3, description: 'S, Z, E, AE, K, G or O; default Z at rate 0, S above' })),
    ),
    vat_exemption_code: t.Optional(
      Nullable(t.String({ maxLength: 40, description: 'VATEX code, required for E, AE, K, G, O' })),
    ),
    notes: t.Optional(Nullable(Text({ maxLength: 500 }))),
  },
  { additionalProperties: false, title: 'LineInput' },
)

const fields = {
  currency: t.Optional(Nullable(t.String({ maxLength: 3 }))),
  issue_date: t.Optional(Nullable(DateString)),
  due_date: t.Optional(Nullable(DateString)),
  delivery_date: t.Optional(Nullable(DateString)),
  payment_terms: t.Optional(Nullable(Int({ minimum: 0, maximum: 999999 }))),
  document_number: t.Optional(
    Nullable(t.String({ maxLength: 100, description: 'the requested number, taken at issue' })),
  ),
  lines: t.Optional(t.Array(LineInputSchema, { maxItems: 500 })),
  notes: t.Optional(Nullable(Text({ maxLength: 5000 }))),
  bank_account_ids: t.Optional(Nullable(t.Array(Int({ minimum: 1 }), { maxItems: 20 }))),
  proforma_id: t.Optional(Nullable(Int({ minimum: 1 }))),
  credited_document_id: t.Optional(Nullable(Int({ minimum: 1 }))),
  buyer_reference: t.Optional(
    Nullable(
      Text({ maxLength: 200, description: "BT-10 (a Leitweg-ID for XRechnung); null or absent takes the Client's" }),
    ),
  ),
  order_reference: t.Optional(Nullable(Text({ maxLength: 200, description: 'BT-13, the purchase order reference' }))),
  exchange_rate: t.Optional(
    Nullable(
      t.String({
        'x-decimal': true,
        description:
          "units of the Business's currency for one unit of the document's (a decimal string above 0, at most 10 significant digits); fixed at issue, where the ECB reference rate of the issue date is taken when none is sent. Only for a document in another currency than the Business's",
      }),
    ),
  ),
}

export const DocumentCreateBody = t.Object(
  { type: DocType, client_id: Int({ minimum: 1 }), ...fields },
  { additionalProperties: false, title: 'DocumentCreate' },
)
export const DocumentUpdateBody = t.Object(
  { client_id: t.Optional(Int({ minimum: 1 })), ...fields },
  { additionalProperties: false, title: 'DocumentUpdate' },
)

const ActionEntry = t.Object({
  open: Bool(),
  code: t.Optional(t.String({ description: 'the Refusal code the Action would answer, or role_forbidden' })),
  remedy: t.Optional(t.String()),
  remedy_url: t.Optional(t.String()),
})

/** A Line's fields in the request's words, every one written (lines.ts WrittenLine): a document's, a template's. */
export function writtenLineFields() {
  return {
    product_id: Nullable(Int()),
    description: t.String(),
    quantity: t.String(),
    unit: t.String(),
    unit_price: t.String(),
    vat_rate: t.String({ pattern: '^[0-9]+\\.[0-9]{2}$' }),
    vat_category: t.String(),
    vat_exemption_code: Nullable(t.String()),
    notes: Nullable(t.String()),
  }
}

/** A Line in the request's words with every field written: as a recurring template keeps it, as the API shows it. */
export type WrittenLine = Static<TObject<ReturnType<typeof writtenLineFields>>>

const LineSchema = t.Object(
  { id: Int(), position: Int({ minimum: 1 }), ...writtenLineFields(), net_amount: Amount },
  { title: 'Line' },
)

export const DocumentSchema = t.Object(
  {
    id: Int(),
    type: t.String({ description: 'invoice, proforma, credit_note or quote' }),
    status: t.String({ description: 'draft, issued, partially_paid, paid or cancelled' }),
    document_number: Nullable(t.String()),
    payment_reference: Nullable(
      t.String({
        pattern: '^RF[0-9]{2}[A-Z0-9]{1,21}$',
        description:
          'ISO 11649 structured creditor reference to pay an issued Invoice or Proforma by; null on Drafts, Quotes and Credit Notes',
      }),
    ),
    requested_document_number: Nullable(t.String()),
    client_id: Int(),
    client: t.Object({
      name: t.String(),
      legal_name: Nullable(t.String()),
      email: Nullable(t.String()),
      address: Nullable(t.String()),
      city: Nullable(t.String()),
      postal_code: Nullable(t.String()),
      country: t.String(),
      vat_number: Nullable(t.String()),
      electronic_address: Nullable(t.Object({ scheme: t.String(), value: t.String() })),
      buyer_reference: Nullable(t.String()),
    }),
    seller: t.Object(
      {
        name: t.String(),
        legal_name: Nullable(t.String()),
        vat_number: Nullable(t.String({ description: 'null while the Business is a Non-VAT Payer' })),
        company_id: Nullable(t.String()),
        email: Nullable(t.String()),
        address: Nullable(t.String()),
        city: Nullable(t.String()),
        postal_code: Nullable(t.String()),
        country: t.String(),
        bank_accounts: t.Array(
          t.Object({
            id: Int(),
            name: t.String(),
            iban: t.String(),
            bic: Nullable(t.String()),
            currency: Nullable(t.String()),
          }),
          { description: "the accounts the document shows: those it names, else the Business's in its currency" },
        ),
        electronic_address: Nullable(t.Object({ scheme: t.String(), value: t.String() }, { description: 'BT-34' })),
        contact: t.Object(
          { name: Nullable(t.String()), phone: Nullable(t.String()), email: Nullable(t.String()) },
          { description: 'BG-6' },
        ),
        tax_registration_id: Nullable(t.String({ description: 'BT-32' })),
      },
      {
        description:
          'the Business as the document shows it: taken at issue and kept; on a Draft, the Business as it now stands',
      },
    ),
    currency: CurrencyCode,
    issue_date: Nullable(DateString),
    due_date: Nullable(DateString),
    delivery_date: Nullable(DateString),
    payment_terms: Int({ minimum: 0 }),
    lines: t.Array(LineSchema),
    vat_breakdown: t.Array(
      t.Object({
        category: t.String(),
        rate: t.String({ pattern: '^[0-9]+\\.[0-9]{2}$' }),
        net: Amount,
        vat: Amount,
        vat_accounting: Nullable(
          t.String({
            pattern: AMOUNT_PATTERN,
            description:
              "the band's VAT × exchange_rate in the accounting currency; null when the currencies are the same",
          }),
        ),
      }),
    ),
    net_total: Amount,
    vat_total: Amount,
    total: Amount,
    exchange_rate: Nullable(
      t.String({
        pattern: '^[0-9]+(\\.[0-9]+)?$',
        description:
          'units of accounting_currency for one unit of currency: the one sent on a Draft, fixed at issue; null when the currencies are the same',
      }),
    ),
    accounting_currency: Nullable(
      t.String({
        pattern: '^[A-Z]{3}$',
        description: "the Business's currency, when the document's is another; else null",
      }),
    ),
    vat_total_accounting: Nullable(
      t.String({
        pattern: AMOUNT_PATTERN,
        description: 'vat_total × exchange_rate, rounded half away from zero at the accounting currency scale',
      }),
    ),
    amount_paid: Amount,
    amount_due: Amount,
    still_takes_payment: Bool(),
    actions: t.Object({
      issue: ActionEntry,
      send: ActionEntry,
      cancel: ActionEntry,
      convert: ActionEntry,
      record_payment: ActionEntry,
      delete: ActionEntry,
      remind: ActionEntry,
    }),
    last_sent: Nullable(t.Object({ at: Timestamp, recipients: t.Array(t.String()), via: t.String() })),
    last_reminded: Nullable(
      t.Object({
        at: Timestamp,
        step_days: Nullable(Int({ description: 'the schedule step that sent it; null for a reminder by hand' })),
        recipients: t.Array(t.String()),
      }),
    ),
    reminders_sent: Int({
      minimum: 0,
      description: 'reminders that went out for this document, by hand and on schedule',
    }),
    is_overdue: Bool(),
    days_overdue: Nullable(Int({ minimum: 1 })),
    proforma_id: Nullable(Int()),
    converted_into_id: Nullable(Int()),
    credited_document_id: Nullable(Int()),
    recurring_invoice_id: Nullable(
      Int({ description: 'the recurring invoice that made it (extensions §13); null else' }),
    ),
    credit_note_ids: t.Array(Int(), { description: 'the Credit Notes that credit this document (Drafts included)' }),
    amount_refunded: Amount,
    is_test: Bool(),
    public_url: Nullable(
      t.String({
        description: "the page the Client opens, an absolute URL under the service's public address; null on a Draft",
      }),
    ),
    bank_account_ids: t.Array(Int()),
    notes: Nullable(t.String()),
    buyer_reference: Nullable(t.String({ description: "BT-10; default the Client's" })),
    order_reference: Nullable(t.String({ description: 'BT-13, the purchase order reference' })),
    language: t.String({
      description:
        "the language of its PDF, page and emails: the Client's (else the Business's) as it stood at issue; a Draft follows the Client",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Document' },
)

export const DocumentListQuery = t.Object({
  ...ListQuery,
  type: t.Optional(t.String()),
  status: t.Optional(t.String()),
  client_id: t.Optional(t.String()),
  issue_date_from: t.Optional(t.String()),
  issue_date_to: t.Optional(t.String()),
  search: t.Optional(t.String({ maxLength: 200, description: 'number, Client name or notes, in any case' })),
})

export const DocumentList = Paged(DocumentSchema, 'DocumentList')

export type DocumentCreateInput = typeof DocumentCreateBody.static
export type DocumentUpdateInput = typeof DocumentUpdateBody.static
