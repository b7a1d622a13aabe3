// SQL for a Business's own mailbox (its kind, From address and sealed SMTP URL), scoped by the Business.
import { eq } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import { mailboxes, type MailboxKind } from '../../db/schema'

export type MailboxRow = typeof mailboxes.$inferSelect

export async function findMailbox(q: Queryable, businessId: number): Promise<MailboxRow | undefined> {
  return q.select().from(mailboxes).where(eq(mailboxes.businessId, businessId)).get()
}

export async function saveMailbox(
  tx: Tx,
  businessId: number,
  m: { kind: MailboxKind; fromAddress: string; smtpUrl: string | null },
  now: string,
): Promise<MailboxRow> {
  return tx
    .insert(mailboxes)
    .values({ businessId, ...m, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: mailboxes.businessId, set: { ...m, updatedAt: now } })
    .returning()
    .get()
}

export async function deleteMailbox(tx: Tx, businessId: number): Promise<boolean> {
  const r = await tx
    .delete(mailboxes)
    .where(eq(mailboxes.businessId, businessId))
    .returning({ id: mailboxes.businessId })
  return r.length > 0
}
