// TypeBox models of bank statements (extensions §15): the import's answer, a statement in a list, an entry, the
// manual match body, and the statement file the import takes.
import { Type as t } from '@sinclair/typebox'
import { Amount, Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode, DateString } from '../../shared/format-schemas'

export const EntrySchema = t.Object(
  {
    id: Int(),
    booked_on: Nullable(DateString),
    amount: Amount,
    currency: CurrencyCode,
    counterparty: Nullable(t.String()),
    remittance: Nullable(t.String()),
    status: t.String({
      description:
        'matched (a Payment was recorded), unmatched (to match by hand), duplicate (held by an earlier import), ignored (a debit, or not booked)',
    }),
    document_id: Nullable(Int()),
    payment_id: Nullable(Int()),
  },
  { title: 'BankStatementEntry' },
)

const statementFields = {
  id: Int(),
  account_id: Int(),
  message: t.String({ description: 'the ISO 20022 message the file was, e.g. camt.053.001.08' }),
  from: Nullable(DateString),
  to: Nullable(DateString),
  matched: Int(),
  unmatched: Int(),
  duplicates: Int(),
  ignored: Int(),
  created_at: Timestamp,
}

export const StatementSchema = t.Object(
  { ...statementFields, entries: t.Array(EntrySchema) },
  { title: 'BankStatement' },
)

export const StatementSummarySchema = t.Object(statementFields, { title: 'BankStatementSummary' })
export const StatementList = Paged(StatementSummarySchema, 'BankStatementList')
export const StatementListQuery = t.Object(ListQuery)

export const MatchBody = t.Object(
  { document_id: Int({ minimum: 1, description: 'the issued Invoice or Proforma the money paid' }) },
  { additionalProperties: false, title: 'BankEntryMatch' },
)

/** The statement file's text: the API's body (`application/xml`), MCP's `xml` argument. */
export const StatementFile = t.String({
  description: 'an ISO 20022 CAMT.053 statement or CAMT.054 notification, versions 001.02 to 001.08, at most 10 MB',
})

export type MatchInput = typeof MatchBody.static
