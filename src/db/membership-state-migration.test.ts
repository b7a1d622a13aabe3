// Migration 0018 (memberships.state, extensions §8's invitations): a database from before it keeps every membership
// active, so nobody loses a Business they could open, while new pending memberships can be stored.
import { afterAll, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { readMigrationFiles } from 'drizzle-orm/migrator'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-migration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('memberships of a database from before invitations stay active after the migration; pending ones can be stored', async () => {
  const migrations = readMigrationFiles({ migrationsFolder: resolve(import.meta.dir, '../../migrations') })
  const at = migrations.findIndex((m) => m.sql.some((s) => /ALTER TABLE `memberships` ADD `state`/.test(s)))
  expect(at).toBeGreaterThan(0)
  const client = createClient({ url: `file:${join(dir, 'old.db')}` })
  try {
    // The file as the service left it before: every earlier migration, and memberships in it.
    for (const m of migrations.slice(0, at)) for (const s of m.sql) if (s.trim()) await client.execute(s)
    await oldBusiness(client, 1)
    await oldBusiness(client, 2)
    await oldBusiness(client, 3)
    await client.execute(
      "INSERT INTO persons (email, email_key, name, created_at, updated_at) VALUES ('o@x.example', 'o@x.example', 'O', 't', 't')",
    )
    await client.execute(
      "INSERT INTO memberships (person_id, business_id, role, created_at) VALUES (1, 1, 'owner', 't'), (1, 2, 'viewer', 't')",
    )
    for (const s of migrations[at]!.sql) if (s.trim()) await client.execute(s)
    const rows = await client.execute('SELECT business_id, role, state FROM memberships ORDER BY business_id')
    expect(rows.rows.map((r) => [r.business_id, r.role, r.state])).toEqual([
      [1, 'owner', 'active'],
      [2, 'viewer', 'active'],
    ])
    await client.execute(
      "INSERT INTO memberships (person_id, business_id, role, state, created_at) VALUES (1, 3, 'admin', 'pending', 't')",
    )
    expect((await client.execute('SELECT state FROM memberships WHERE business_id = 3')).rows[0]!.state).toBe('pending')
  } finally {
    client.close()
  }
}, 30_000) // it migrates a file step by step: seconds on a loaded machine

/** A Business row as old as the file: each required column given a value of its type (only its id matters here). */
async function oldBusiness(client: ReturnType<typeof createClient>, id: number): Promise<void> {
  const columns = (await client.execute('PRAGMA table_info(businesses)')).rows.filter(
    (c) => c.notnull && c.dflt_value === null && !c.pk,
  )
  const names = ['id', ...columns.map((c) => String(c.name))]
  const values = [id, ...columns.map((c) => (/INT|REAL|NUM/i.test(String(c.type)) ? 0 : `b${id}`))]
  await client.execute({
    sql: `INSERT INTO businesses (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    args: values,
  })
}
