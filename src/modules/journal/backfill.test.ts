// A database from before the journal (migration 0024): every Business then present is listed, and at the next start
// each gets the entries of what it had issued and recorded, in the order it happened, with the data the live path
// writes, once, and its chain verifies.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { allPages, makeHarness, type Harness } from '../../../test/harness'
import { backfillJournal, verifyBusiness } from './index'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

const MIGRATION = resolve(import.meta.dir, '../../../migrations/0024_journal.sql')

test('the entries made at the next start are the live ones, in the order things happened, made once; the chain verifies', async () => {
  const biz = await h.business({ currency: 'EUR' })
  const clientId = await h.client(biz.key, { name: 'Old Client', email: 'old@client.example', country: 'DE' })
  const post = async (path: string, body?: unknown) => {
    h.clock.advance(1000)
    const r = await h.request('POST', path, { key: biz.key, body })
    expect(r.status).toBeLessThan(300)
    return r.body
  }
  const line = { description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }
  const a = await post('/v1/documents', { type: 'invoice', client_id: clientId, lines: [line] })
  await post(`/v1/documents/${a.id}/issue`)
  const b = await post('/v1/documents', { type: 'invoice', client_id: clientId, lines: [line, line] })
  await post(`/v1/documents/${b.id}/issue`)
  const cash = { payment_date: '2026-03-10', payment_method: 'cash' }
  await post(`/v1/documents/${a.id}/payments`, { amount: '19.00', ...cash })
  const p2 = await post(`/v1/documents/${b.id}/payments`, { amount: '38.00', ...cash })
  await post(`/v1/payments/${p2.id}/reverse`)
  await post(`/v1/documents/${b.id}/cancel`)
  const live = await allPages(h, '/v1/journal', biz.key)
  expect(live).toHaveLength(6)

  // The file as a service from before the journal left it: no entries, the Business listed by the migration.
  const db = h.deps.db.writerClient
  await db.execute('DROP TRIGGER journal_entries_no_delete')
  await db.execute({ sql: 'DELETE FROM journal_entries WHERE business_id = ?', args: [biz.id] })
  const trigger = readFileSync(MIGRATION, 'utf8')
    .split('--> statement-breakpoint')
    .find((s) => s.includes('CREATE TRIGGER `journal_entries_no_delete`'))!
  await db.execute(trigger)
  await db.execute({ sql: 'INSERT INTO journal_backfill (business_id) VALUES (?)', args: [biz.id] })
  expect(await allPages(h, '/v1/journal', biz.key)).toEqual([])

  expect(await backfillJournal(h.deps.db, h.deps.clock)).toBe(1)
  const filled = await allPages(h, '/v1/journal', biz.key)
  const what = (e: any) => [e.seq, e.kind, e.record, e.data]
  expect(filled.map(what)).toEqual(live.map(what))
  // A document's moment of issue was not kept before the journal: its issue date stands for it.
  expect(filled[0].at).toBe('2026-03-10T00:00:00.000000Z')
  expect(await verifyBusiness(h.deps.db, biz.id)).toMatchObject({ ok: true, entries: 6 })
  // Listed once: a second start (or a second process) finds nothing left to fill.
  expect(await backfillJournal(h.deps.db, h.deps.clock)).toBe(0)
  expect(await allPages(h, '/v1/journal', biz.key)).toHaveLength(6)
}, 30_000)

test('migration 0024 lists every Business already there and installs the triggers', async () => {
  const migrations = readMigrationFiles({ migrationsFolder: resolve(import.meta.dir, '../../../migrations') })
  const at = migrations.findIndex((m) => m.sql.some((s) => s.includes('CREATE TABLE `journal_entries`')))
  expect(at).toBeGreaterThan(0)
  const client = createClient({ url: `file:${h.dir}/old.db` })
  try {
    for (const m of migrations.slice(0, at)) for (const s of m.sql) if (s.trim()) await client.execute(s)
    for (const id of [1, 2]) {
      await client.execute({
        sql: `INSERT INTO businesses (id, public_id, name, country, currency, created_at, updated_at)
              VALUES (?, ?, 'Old', 'DE', 'EUR', 't', 't')`,
        args: [id, `old-${id}`],
      })
    }
    for (const s of migrations[at]!.sql) if (s.trim()) await client.execute(s)
    const listed = await client.execute('SELECT business_id FROM journal_backfill ORDER BY business_id')
    expect(listed.rows.map((r) => r.business_id)).toEqual([1, 2])
    const triggers = await client.execute(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'journal_entries' ORDER BY name",
    )
    expect(triggers.rows.map((r) => r.name)).toEqual(['journal_entries_no_delete', 'journal_entries_no_update'])
  } finally {
    client.close()
  }
}, 30_000)
