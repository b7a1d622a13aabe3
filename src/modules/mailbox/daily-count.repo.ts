// SQL for the daily recipient counts of the service's own mail server (its limit), scoped by the Business: read to
// judge a Send, written by the Send and the application's emails.
import { and, eq, lt, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { mailDailyCounts } from '../../db/schema'

/** Recipients sent through the service's own mail server on a UTC day. */
export async function recipientsSent(q: Queryable, businessId: number, day: string): Promise<number> {
  const row = await q
    .select({ n: mailDailyCounts.recipients })
    .from(mailDailyCounts)
    .where(and(eq(mailDailyCounts.businessId, businessId), eq(mailDailyCounts.day, day)))
    .get()
  return row?.n ?? 0
}

/** Adds (or, negative, gives back) recipients to a day's count; never below zero. Earlier days are dropped. */
export async function countRecipients(tx: Tx, businessId: number, day: string, n: number): Promise<void> {
  await tx.delete(mailDailyCounts).where(and(eq(mailDailyCounts.businessId, businessId), lt(mailDailyCounts.day, day)))
  await tx
    .insert(mailDailyCounts)
    .values({ businessId, day, recipients: Math.max(0, n) })
    .onConflictDoUpdate({
      target: [mailDailyCounts.businessId, mailDailyCounts.day],
      set: { recipients: sql`max(0, ${mailDailyCounts.recipients} + ${n})` },
    })
}
