// SQL for recurring invoices: every query of a request is scoped by the Business; the background task's reads are not.
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { businessRowsAfter, findBusinessRow, isBusinessRow, updateBusinessRow } from '../../platform/business-rows.repo'
import { recurringInvoices, type RecurringStatus } from '../../db/schema'

export type RecurringRow = typeof recurringInvoices.$inferSelect
export type RecurringInsert = typeof recurringInvoices.$inferInsert

const ri = recurringInvoices

export async function findRecurring(q: Queryable, businessId: number, id: number): Promise<RecurringRow | undefined> {
  return findBusinessRow(q, ri, businessId, id)
}

export interface RecurringFilter {
  clientId?: number
  status?: RecurringStatus
}

export async function listRecurring(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
  f: RecurringFilter = {},
): Promise<RecurringRow[]> {
  return businessRowsAfter(
    q,
    ri,
    businessId,
    afterId,
    limit,
    f.clientId !== undefined ? eq(ri.clientId, f.clientId) : undefined,
    f.status !== undefined ? eq(ri.status, f.status) : undefined,
  )
}

export async function insertRecurring(tx: Tx, row: RecurringInsert): Promise<RecurringRow> {
  return (await tx.insert(ri).values(row).returning())[0]!
}

export async function updateRecurringRow(
  tx: Tx,
  businessId: number,
  id: number,
  set: Partial<RecurringInsert>,
): Promise<RecurringRow | undefined> {
  return updateBusinessRow(tx, ri, businessId, id, set)
}

export async function deleteRecurringRow(tx: Tx, businessId: number, id: number): Promise<boolean> {
  const r = await tx.delete(ri).where(isBusinessRow(ri, businessId, id))
  return r.rowsAffected > 0
}

// ---------------------------------------------------------------------------------------------------------------
// The background task's reads: across Businesses, each answered from a partial index.

/**
 * Whether anything is to do: a date of an active schedule that has come, or a step left after a Draft was made. Two
 * probes of partial indexes and no write: what an idle server pays each minute, whatever the number of schedules.
 */
export async function anythingToDo(q: Queryable, today: string): Promise<boolean> {
  const rows = await q.all<{ one: number }>(
    sql`SELECT 1 AS one FROM (SELECT 1 FROM recurring_invoices
          WHERE status = 'active' AND next_date <= ${today} LIMIT 1)
        UNION ALL SELECT 1 FROM (SELECT 1 FROM recurring_invoices
          WHERE pending_document_id IS NOT NULL LIMIT 1)`,
  )
  return rows.length > 0
}

/** A deleted Business makes nothing more: nothing acts for it and nothing more is sent about it. */
const live = sql`${ri.businessId} IN (SELECT id FROM businesses WHERE deleted_at IS NULL)`

/** Schedules whose date has come and no step is left of the date before, oldest date first. */
export async function dueSchedules(
  q: Queryable,
  today: string,
  limit: number,
): Promise<{ id: number; businessId: number }[]> {
  return q
    .select({ id: ri.id, businessId: ri.businessId })
    .from(ri)
    .where(and(eq(ri.status, 'active'), lte(ri.nextDate, today), sql`${ri.pendingDocumentId} IS NULL`, live))
    .orderBy(asc(ri.nextDate), asc(ri.id))
    .limit(limit)
}

/** Schedules with a step left after their Draft was made (issue or send), whoever holds it. */
export async function pendingSchedules(q: Queryable, limit: number): Promise<RecurringRow[]> {
  return q
    .select()
    .from(ri)
    .where(and(isNotNull(ri.pendingDocumentId), live))
    .orderBy(asc(ri.id))
    .limit(limit)
}

/** Takes the pending step for this process if the claim is still `seen` (compare and set, in one statement). */
export async function claimPending(tx: Tx, id: number, seen: string | null, claim: string): Promise<boolean> {
  const r = await tx
    .update(ri)
    .set({ pendingClaim: claim })
    .where(
      and(
        eq(ri.id, id),
        isNotNull(ri.pendingDocumentId),
        seen === null ? sql`${ri.pendingClaim} IS NULL` : eq(ri.pendingClaim, seen),
      ),
    )
  return r.rowsAffected > 0
}
