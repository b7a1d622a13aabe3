// SQL for stored idempotency keys: look one up, keep one, forget old ones.
import { and, eq, gte, lt } from 'drizzle-orm'
import type { Queryable, Tx } from '../db/client'
import { idempotencyKeys } from '../db/schema'

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect
export type IdempotencyKeyInsert = typeof idempotencyKeys.$inferInsert

/** The stored answer for (API key, Idempotency-Key) if it was created at or after `since`. */
export async function findIdempotencyKey(q: Queryable, apiKeyId: number, key: string, since: string): Promise<IdempotencyKeyRow | undefined> {
  return q
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key), gte(idempotencyKeys.createdAt, since)))
    .get()
}

/** Stores the answer; a row still kept under the same (API key, Idempotency-Key) is overwritten. */
export async function saveIdempotencyKey(tx: Tx, row: IdempotencyKeyInsert): Promise<void> {
  await tx.insert(idempotencyKeys).values(row).onConflictDoUpdate({ target: [idempotencyKeys.apiKeyId, idempotencyKeys.key], set: row })
}

/** Erases keys created before `before`; answers how many. */
export async function deleteIdempotencyKeysBefore(tx: Tx, before: string): Promise<number> {
  return (await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before)).returning()).length
}
