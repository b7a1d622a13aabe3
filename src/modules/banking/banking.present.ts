// Bank statements and entries as the API answers them.
import type { EntryRow, StatementCounts, StatementRow } from './banking.repo'

export function presentEntry(e: EntryRow) {
  return {
    id: e.id,
    booked_on: e.bookedOn,
    amount: e.amount,
    currency: e.currency,
    counterparty: e.counterparty,
    remittance: e.remittance,
    status: e.status,
    document_id: e.documentId,
    payment_id: e.paymentId,
  }
}
export type EntryView = ReturnType<typeof presentEntry>

export function presentStatementSummary(s: StatementRow, c: StatementCounts) {
  return {
    id: s.id,
    account_id: s.bankAccountId,
    message: s.message,
    from: s.fromDate,
    to: s.toDate,
    matched: c.matched,
    unmatched: c.unmatched,
    duplicates: c.duplicate,
    ignored: c.ignored,
    created_at: s.createdAt,
  }
}

export function presentStatement(s: StatementRow, entries: EntryView[]) {
  const c: StatementCounts = { matched: 0, unmatched: 0, duplicate: 0, ignored: 0 }
  for (const e of entries) c[e.status as keyof StatementCounts]++
  return { ...presentStatementSummary(s, c), entries }
}
export type StatementView = ReturnType<typeof presentStatement>
