// Migrations at start: a new file is migrated whole; a file already up to date is checked with one read, no write.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from './client'
import { applyMigrations } from './migrate'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-migrate-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const journal = JSON.parse(readFileSync(join(import.meta.dir, '../../migrations/meta/_journal.json'), 'utf8')) as {
  entries: unknown[]
}

test('a new file gets every migration; started again up to date, it opens no write transaction and changes nothing', async () => {
  const file = join(dir, 'a.db')
  const db = await openDatabase(file)
  try {
    await applyMigrations(db)
    const applied = async () =>
      (await db.writerClient.execute('SELECT count(*) AS n FROM "__drizzle_migrations"')).rows[0]!.n
    expect(Number(await applied())).toBe(journal.entries.length)
    let writes = 0
    const transaction = db.writerClient.transaction.bind(db.writerClient)
    db.writerClient.transaction = ((mode?: never) => (
      writes++, transaction(mode)
    )) as typeof db.writerClient.transaction
    await applyMigrations(db)
    expect(writes).toBe(0)
    expect(Number(await applied())).toBe(journal.entries.length)
  } finally {
    db.close()
  }
})
