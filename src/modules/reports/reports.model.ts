// TypeBox models of the four reports (the contract's Report shapes) and their queries.
import { Type as t } from '@sinclair/typebox'
import { Amount, Int, Nullable } from '../../shared/schemas'

const Currency = t.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })
const DateOut = t.String({ format: 'date', description: 'YYYY-MM-DD' })
const Count = Int({ minimum: 0 })

const convertedWords =
  "the period's documents in other currencies, each at its own exchange rate fixed at issue, in the Business's currency (extensions §16); never summed into the figures above"

const ConvertedIncomeSchema = t.Object(
  {
    currency: Currency,
    net: Amount,
    vat: Amount,
    documents: Int({ minimum: 0, description: 'the documents converted (those issued with an exchange rate)' }),
  },
  { title: 'ConvertedIncome', description: convertedWords },
)

export const IncomeReportSchema = t.Object(
  {
    currency: Currency,
    from: DateOut,
    to: DateOut,
    income: Amount,
    vat: Amount,
    other_currency_documents: Count,
    converted: ConvertedIncomeSchema,
  },
  {
    title: 'IncomeReport',
    description: "Reportable documents issued in the period, in the reporting currency (the Business's)",
  },
)

const VatBandSchema = t.Object(
  {
    category: t.String({ description: 'EN16931 VAT category code: S, Z, E, AE, K, G, O; others may be added' }),
    rate: t.String({ pattern: '^[0-9]+\\.[0-9]{2}$', description: 'percent, two decimals' }),
    net: Amount,
    vat: Amount,
  },
  { title: 'VatBand' },
)

export const VatReportSchema = t.Object(
  {
    currency: Currency,
    from: DateOut,
    to: DateOut,
    net: Amount,
    vat: Amount,
    bands: t.Array(VatBandSchema, { description: 'highest rate first; each 0% category is its own band' }),
    other_currency_documents: Count,
    converted: t.Object(
      {
        currency: Currency,
        net: Amount,
        vat: Amount,
        documents: Int({ minimum: 0, description: 'the Invoices and Credit Notes converted' }),
        bands: t.Array(VatBandSchema, { description: 'highest rate first, as above' }),
      },
      { title: 'ConvertedVat', description: `${convertedWords}; vat + converted.vat is the VAT to declare` },
    ),
  },
  { title: 'VatReport' },
)

const OverdueClientSchema = t.Object(
  { client_id: Int(), name: t.String(), documents: Int({ minimum: 1 }), amount_due: Amount },
  { title: 'OverdueClient' },
)

export const OverdueReportSchema = t.Object(
  {
    currency: Currency,
    as_of: DateOut,
    count: Count,
    amount_due: Amount,
    clients: t.Array(OverdueClientSchema, { description: 'largest amount_due first' }),
    other_currency_documents: Count,
  },
  { title: 'OverdueReport' },
)

const StatementLineSchema = t.Object(
  {
    date: DateOut,
    kind: t.String({ description: 'document, payment or refund; others may be added' }),
    document_type: Nullable(t.String({ description: 'invoice, proforma or credit_note on a document line' })),
    number: t.String({ description: "document number, or the Payment's reference, - when none" }),
    description: t.String({ description: "a document's one Line, or how many Lines it has; a Payment's method" }),
    debit: Nullable(Amount),
    credit: Nullable(Amount),
    balance: Amount,
    prepaid: t.Boolean({ description: 'a Payment made on the Proforma the Invoice was converted from' }),
  },
  { title: 'StatementLine' },
)

const StatementCurrencySchema = t.Object(
  {
    currency: Currency,
    opening_balance: Amount,
    closing_balance: Amount,
    lines: t.Array(StatementLineSchema),
  },
  { title: 'StatementCurrency' },
)

export const StatementSchema = t.Object(
  {
    client_id: Int(),
    from: DateOut,
    to: DateOut,
    currencies: t.Array(StatementCurrencySchema, {
      description: 'one block per currency, most documents first; never summed across currencies',
    }),
  },
  { title: 'Statement' },
)

const DateIn = (what: string) =>
  t.String({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    'x-pattern-words': 'must be a date written YYYY-MM-DD',
    description: what,
  })

export const PeriodQuery = t.Object({
  from: DateIn('first day of the period, YYYY-MM-DD'),
  to: DateIn('last day of the period, YYYY-MM-DD, not before from'),
})

export const StatementQuery = t.Object({
  client_id: t.String({
    pattern: '^[1-9][0-9]{0,14}$',
    'x-pattern-words': 'must be a Client id (a whole number)',
    description: 'Client id',
  }),
  from: DateIn('first day of the period, YYYY-MM-DD'),
  to: DateIn('last day of the period, YYYY-MM-DD, not before from'),
})

export type IncomeReport = typeof IncomeReportSchema.static
export type VatBand = typeof VatBandSchema.static
export type VatReport = typeof VatReportSchema.static
export type OverdueClient = typeof OverdueClientSchema.static
export type OverdueReport = typeof OverdueReportSchema.static
export type StatementLine = typeof StatementLineSchema.static
export type StatementCurrency = typeof StatementCurrencySchema.static
export type Statement = typeof StatementSchema.static
