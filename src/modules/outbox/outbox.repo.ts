// SQL of a Test business's outbox: keep a message (and drop the oldest beyond the bound), list newest first, read one.
import { and, desc, eq, lt, lte } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { findBusinessRow } from '../../platform/business-rows.repo'
import { mailOutbox } from '../../db/schema'

export type KeptRow = typeof mailOutbox.$inferSelect
export type KeptInsert = typeof mailOutbox.$inferInsert
/** A row as the list reads it: everything but the message's bytes. */
export type KeptHead = Omit<KeptRow, 'raw'>

const HEAD = {
  id: mailOutbox.id,
  businessId: mailOutbox.businessId,
  keptAt: mailOutbox.keptAt,
  fromName: mailOutbox.fromName,
  fromAddress: mailOutbox.fromAddress,
  toAddresses: mailOutbox.toAddresses,
  ccAddresses: mailOutbox.ccAddresses,
  bccAddresses: mailOutbox.bccAddresses,
  subject: mailOutbox.subject,
  attachments: mailOutbox.attachments,
  size: mailOutbox.size,
}

/** Keeps a message; the Business's messages older than its newest `keep` are dropped in the same transaction. */
export async function insertKept(tx: Tx, row: KeptInsert, keep: number): Promise<number> {
  const [{ id }] = (await tx.insert(mailOutbox).values(row).returning({ id: mailOutbox.id })) as [{ id: number }]
  const cut = await tx
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.businessId, row.businessId))
    .orderBy(desc(mailOutbox.id))
    .limit(1)
    .offset(keep)
    .get()
  if (cut) await tx.delete(mailOutbox).where(and(eq(mailOutbox.businessId, row.businessId), lte(mailOutbox.id, cut.id)))
  return id
}

/** A page of the Business's messages, newest first: those before `beforeId` (0: from the newest). */
export async function listKept(q: Queryable, businessId: number, beforeId: number, limit: number): Promise<KeptHead[]> {
  return q
    .select(HEAD)
    .from(mailOutbox)
    .where(
      beforeId > 0
        ? and(eq(mailOutbox.businessId, businessId), lt(mailOutbox.id, beforeId))
        : eq(mailOutbox.businessId, businessId),
    )
    .orderBy(desc(mailOutbox.id))
    .limit(limit)
    .all()
}

/** One message of the Business, with its bytes; undefined for another Business's or one no longer kept. */
export async function findKept(q: Queryable, businessId: number, id: number): Promise<KeptRow | undefined> {
  return findBusinessRow(q, mailOutbox, businessId, id)
}
