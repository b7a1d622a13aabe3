// Service-wide settings kept in the database, such as secrets that must outlive a restart.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database } from './client'
import { meta } from './schema'
import { whileBusy } from './busy'

/** Reads a secret, creating it on first use; every process on the file shares it. */
export async function serviceSecret(db: Database, key: string): Promise<string> {
  const existing = await db.read.select().from(meta).where(eq(meta.key, key)).get()
  if (existing) return existing.value
  // Made at start, perhaps while another process starting at once still migrates: wait for its lock.
  return whileBusy(() =>
    db.write(async (tx) => {
      await tx
        .insert(meta)
        .values({ key, value: randomBytes(32).toString('base64url') })
        .onConflictDoNothing()
      return (await tx.select().from(meta).where(eq(meta.key, key)).get())!.value
    }),
  )
}
