// SQL for stored idempotency keys that is not the claim's own (platform/idempotency.ts): forget old ones.
import { lt } from 'drizzle-orm'
import type { Tx } from '../db/client'
import { idempotencyKeys } from '../db/schema'

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect

/** Erases keys created before `before`; answers how many. */
export async function deleteIdempotencyKeysBefore(tx: Tx, before: string): Promise<number> {
  return (await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before)).returning()).length
}
