// SQL for a Business's mailbox and its daily recipient counts; every query is scoped by the Business.
import { and, eq, lt, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { mailboxes, mailDailyCounts, type MailboxKind } from '../../db/schema'

export type MailboxRow = typeof mailboxes.$inferSelect

export async function findMailbox(q: Queryable, businessId: number): Promise<MailboxRow | undefined> {
  return q.select().from(mailboxes).where(eq(mailboxes.businessId, businessId)).get()
}

export async function saveMailbox(tx: Tx, businessId: number, m: { kind: MailboxKind; fromAddress: string; smtpUrl: string | null }, now: string): Promise<MailboxRow> {
  return tx
    .insert(mailboxes)
    .values({ businessId, ...m, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: mailboxes.businessId, set: { ...m, updatedAt: now } })
    .returning()
    .get()
}

export async function deleteMailbox(tx: Tx, businessId: number): Promise<boolean> {
  const r = await tx.delete(mailboxes).where(eq(mailboxes.businessId, businessId)).returning({ id: mailboxes.businessId })
  return r.length > 0
}

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
