// Service-wide settings kept in the database, such as secrets that must outlive a restart.
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from './client'
import { whileBusy } from './busy'

/**
 * Reads a secret, creating it on first use; every process on the file shares it. Read (and made) with plain statements
 * on the writer's connection (Database.plain): a server reads its secrets as it builds its doors.
 */
export async function serviceSecret(db: Database, key: string): Promise<string> {
  const read = sql`SELECT value FROM meta WHERE key = ${key}`
  // Made at start, perhaps while another process starting at once still migrates: wait for its lock. Two processes
  // making it at once both read the one made first.
  return whileBusy(() =>
    db.plain(async (s) => {
      const [found] = await s.all<{ value: string }>(read)
      if (found) return found.value
      await s.run(
        sql`INSERT INTO meta (key, value) VALUES (${key}, ${randomBytes(32).toString('base64url')}) ON CONFLICT DO NOTHING`,
      )
      return (await s.all<{ value: string }>(read))[0]!.value
    }),
  )
}
