// SQL for bank statements and their entries; every query is scoped by the Business. The import writes through the
// prepared writer (plain `sql` templates on a SqlTx), in the transaction that records each matched entry's Payment.
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Queryable, SqlTx } from '../../db/client'
import { businessRowsAfter, findBusinessRow } from '../../platform/business-rows.repo'
import { bankStatementEntries, bankStatements, type BankEntryStatus } from '../../db/schema'

export type StatementRow = typeof bankStatements.$inferSelect
export type EntryRow = typeof bankStatementEntries.$inferSelect
export type EntryInsert = Omit<typeof bankStatementEntries.$inferInsert, 'id'>

export async function insertStatement(tx: SqlTx, row: Omit<StatementRow, 'id'>): Promise<number> {
  const r = await tx.run(
    sql`INSERT INTO bank_statements (business_id, bank_account_id, message, statement_ref, from_date, to_date, created_at) VALUES (${row.businessId}, ${row.bankAccountId}, ${row.message}, ${row.statementRef}, ${row.fromDate}, ${row.toDate}, ${row.createdAt})`,
  )
  return Number(r.lastInsertRowid)
}

/**
 * Inserts an entry; null when its account already holds the same entry matched or unmatched (the unique index
 * `bank_statement_entries_once`): a duplicate, whether of an earlier import or of an import running beside this one.
 */
export async function insertEntry(tx: SqlTx, e: EntryInsert): Promise<number | null> {
  const r = await tx.run(
    sql`INSERT INTO bank_statement_entries (business_id, statement_id, bank_account_id, position, booked_on, amount, currency, credit, booked, counterparty, remittance, structured_reference, entry_reference, fingerprint, status, document_id, payment_id, created_at, updated_at) VALUES (${e.businessId}, ${e.statementId}, ${e.bankAccountId}, ${e.position}, ${e.bookedOn ?? null}, ${e.amount}, ${e.currency}, ${e.credit ? 1 : 0}, ${e.booked ? 1 : 0}, ${e.counterparty ?? null}, ${e.remittance ?? null}, ${e.structuredReference ?? null}, ${e.entryReference ?? null}, ${e.fingerprint}, ${e.status}, ${e.documentId ?? null}, ${e.paymentId ?? null}, ${e.createdAt}, ${e.updatedAt}) ON CONFLICT DO NOTHING`,
  )
  return r.rowsAffected === 1 ? Number(r.lastInsertRowid) : null
}

/** Marks an entry matched with its Payment; false when it was no longer unmatched (matched by hand already). */
export async function setEntryMatched(
  tx: SqlTx,
  businessId: number,
  id: number,
  documentId: number,
  paymentId: number,
  now: string,
  from: BankEntryStatus,
): Promise<boolean> {
  const r = await tx.run(
    sql`UPDATE bank_statement_entries SET status = 'matched', document_id = ${documentId}, payment_id = ${paymentId}, updated_at = ${now} WHERE business_id = ${businessId} AND id = ${id} AND status = ${from}`,
  )
  return r.rowsAffected === 1
}

/** A savepoint around one entry: a refused Payment rolls back that entry's writes alone. */
export const savepoint = {
  open: (tx: SqlTx) => tx.run(sql`SAVEPOINT bank_entry`),
  release: (tx: SqlTx) => tx.run(sql`RELEASE bank_entry`),
  rollback: async (tx: SqlTx) => {
    await tx.run(sql`ROLLBACK TO bank_entry`)
    await tx.run(sql`RELEASE bank_entry`)
  },
}

export async function findStatement(q: Queryable, businessId: number, id: number): Promise<StatementRow | undefined> {
  return findBusinessRow(q, bankStatements, businessId, id)
}

export async function entriesOf(q: Queryable, statementId: number): Promise<EntryRow[]> {
  return q
    .select()
    .from(bankStatementEntries)
    .where(eq(bankStatementEntries.statementId, statementId))
    .orderBy(asc(bankStatementEntries.position))
    .all()
}

export async function findEntry(q: Queryable, businessId: number, id: number): Promise<EntryRow | undefined> {
  return findBusinessRow(q, bankStatementEntries, businessId, id)
}

export type StatementCounts = Record<BankEntryStatus, number>

/** A page of the Business's statements, oldest first, each with how many of its entries are in each status. */
export async function listStatements(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<Array<StatementRow & { counts: StatementCounts }>> {
  const rows = await businessRowsAfter(q, bankStatements, businessId, afterId, limit)
  if (rows.length === 0) return []
  const counts = (await q.all(
    sql`SELECT statement_id AS statementId, status, count(*) AS n FROM bank_statement_entries WHERE statement_id IN (${sql.join(
      rows.map((r) => sql`${r.id}`),
      sql`, `,
    )}) GROUP BY statement_id, status`,
  )) as Array<{ statementId: number; status: BankEntryStatus; n: number }>
  return rows.map((r) => {
    const c: StatementCounts = { matched: 0, unmatched: 0, duplicate: 0, ignored: 0 }
    for (const x of counts) if (x.statementId === r.id) c[x.status] = Number(x.n)
    return { ...r, counts: c }
  })
}

/** The Business's unmatched entries, oldest first: what the application lists to match by hand. */
export async function unmatchedEntries(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<EntryRow[]> {
  return q
    .select()
    .from(bankStatementEntries)
    .where(
      and(
        eq(bankStatementEntries.businessId, businessId),
        eq(bankStatementEntries.status, 'unmatched'),
        gt(bankStatementEntries.id, afterId),
      ),
    )
    .orderBy(asc(bankStatementEntries.id))
    .limit(limit)
    .all()
}
