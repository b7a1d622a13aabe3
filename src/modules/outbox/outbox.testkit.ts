// Test helpers of the outbox: what a Test business's outbox holds, each message read back from its MIME bytes.
import { asc, eq } from 'drizzle-orm'
import { simpleParser, type ParsedMail } from 'mailparser'
import type { Database } from '../../db/client'
import { mailOutbox } from '../../db/schema'
import type { KeptRow } from './outbox.repo'

/** Every message kept for a Business, oldest first, with its parsed MIME. */
export async function keptMessages(db: Database, businessId: number): Promise<Array<KeptRow & { mail: ParsedMail }>> {
  const rows = await db.read
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.businessId, businessId))
    .orderBy(asc(mailOutbox.id))
    .all()
  return Promise.all(rows.map(async (r) => ({ ...r, mail: await simpleParser(r.raw) })))
}
