// Operations of bank statements (extensions §15): import a CAMT file, list and get statements, match an entry by hand;
// and the application's list of unmatched entries.
import { Type as t } from '@sinclair/typebox'
import {
  listOperation,
  listRun,
  answersFromCommit,
  type ApplicationOperation,
  type Operation,
  onRecord,
  makesRecord,
} from '../../platform/operation'
import { MAX_STATEMENT_BYTES } from './camt'
import {
  EntrySchema,
  StatementFile,
  MatchBody,
  StatementList,
  StatementListQuery,
  StatementSchema,
} from './banking.model'
import { presentEntry, presentStatementSummary } from './banking.present'
import { listStatements, unmatchedEntries } from './banking.repo'
import { getStatement, importStatement, matchEntry } from './banking.service'

const path = t.Object({ id: t.String() })

export const bankingOperations: Operation[] = [
  {
    name: 'bank_statements_import',
    tag: 'Bank statements',
    summary: 'Import a bank statement (ISO 20022 CAMT.053 or CAMT.054): matched credits record Payments',
    description:
      "The body is the file itself (`Content-Type: application/xml`; over MCP its text as `xml`): a CAMT.053 statement or CAMT.054 notification of versions 001.02 to 001.08, at most 10 MB, of one of the Business's bank accounts (by its IBAN; another is 422 naming `account`). Each booked credit whose structured reference, or a `payment_reference` or document number in its remittance text, names an issued document in its currency with at least its amount due records a Payment (`bank_transfer`, Receipt and events as Record a Payment); one an earlier import holds is a `duplicate`; the rest are `unmatched`; debits and entries not booked are `ignored`. The whole file is one transaction: nothing of it is recorded unless all of it is. DTDs and entities are refused, never read.",
    http: { method: 'POST', path: '/v1/bank-statements', status: 201 },
    body: StatementFile,
    upload: { mediaType: 'application/xml', maxBytes: MAX_STATEMENT_BYTES, limitWords: '10 MB', arg: 'xml' },
    output: StatementSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: [],
    mcp: true,
    run: makesRecord(importStatement),
  },
  listOperation({
    name: 'bank_statements_list',
    tag: 'Bank statements',
    summary: 'List imported bank statements',
    description:
      'Statements oldest first, paged, each with how many of its entries were matched, unmatched, duplicates and ignored.',
    http: { method: 'GET', path: '/v1/bank-statements', status: 200 },
    query: StatementListQuery,
    output: StatementList,
    access: 'read',
    mcp: true,
    list: 'bank_statements',
    rows: ({ deps }, actor, after, n) => listStatements(deps.db.read, actor.businessId, after, n),
    present: (r) => presentStatementSummary(r, r.counts),
  }),
  {
    name: 'bank_statements_get',
    tag: 'Bank statements',
    summary: 'Get a bank statement with its entries',
    description: 'One imported statement and every entry of it, each with its status and the Payment it recorded.',
    http: { method: 'GET', path: '/v1/bank-statements/:id', status: 200 },
    path,
    output: StatementSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    run: onRecord(getStatement, { missing: 'No such bank statement.' }),
  },
  {
    name: 'bank_statement_entries_match',
    tag: 'Bank statements',
    summary: 'Match an unmatched entry by hand: its Payment is recorded on the document',
    description:
      "Records the entry's amount as a Payment on the document (`bank_transfer`, the statement's account, the booking date), refused as Record a Payment refuses; an entry in another currency than the document's is `payment_currency_mismatch`.",
    http: { method: 'POST', path: '/v1/bank-statement-entries/:id/match', status: 200 },
    path,
    body: MatchBody,
    output: EntrySchema,
    access: 'write',
    idempotent: false,
    refusals: [
      'bank_entry_not_unmatched',
      'type_takes_no_payments',
      'draft_takes_no_payments',
      'cancelled_takes_no_payments',
      'nothing_due',
      'payment_goes_to_its_invoice',
      'payment_currency_mismatch',
      'payment_exceeds_amount_due',
      'numbering_at_its_end',
    ],
    notFound: true,
    mcp: true,
    run: onRecord(matchEntry, { missing: 'No such bank statement entry.' }),
  },
]

/** The application's list of unmatched entries, oldest first, to match by hand. */
export const bankingAppOperations: ApplicationOperation[] = [
  {
    name: 'bank_entries_unmatched',
    description: "A page of the Business's unmatched bank statement entries, oldest first.",
    access: 'read',
    refusals: [],
    run: listRun({
      list: 'app_bank_entries',
      rows: ({ deps }, actor, after, n) => unmatchedEntries(deps.db.read, actor.businessId, after, n),
      present: (r) => ({ ...presentEntry(r), reference: r.structuredReference, entry_reference: r.entryReference }),
    }),
  },
]
