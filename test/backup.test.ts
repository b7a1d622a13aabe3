// Backup and clean shutdown with real processes (extensions §12): a backup taken while the server serves and writes is
// whole and checked; after SIGTERM the .db file alone holds every answered record.
import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { keyFileOf } from '../src/db/secrets'
import { cli, seed, startServer, type Server } from './processes'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-backup-'))
const running: Server[] = []
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) await s.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** The load's key may write as fast as it likes: this is about the file, not the rate count. */
const ENV = { INVOICING_RATE_LIMIT: '1000000' }

async function createClient(s: Server, key: string, n: number): Promise<number | null> {
  const r = await fetch(`${s.url}/v1/clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Client ${n}`, email: `c${n}@example.com`, country: 'DE' }),
  })
  const body = (await r.json()) as { id?: number }
  return r.status === 201 ? body.id! : null
}

function clientIds(file: string): Set<number> {
  const db = new Database(file, { readonly: true } as never)
  try {
    return new Set((db.prepare('SELECT id FROM clients').raw(true).all() as number[][]).map((r) => r[0]!))
  } finally {
    db.close()
  }
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true } as never)
  try {
    return (db.prepare('PRAGMA integrity_check').raw(true).get() as string[])[0]!
  } finally {
    db.close()
  }
}

describe('invoicing backup', () => {
  test('a backup taken under a write load passes integrity_check and holds every record answered before it began', async () => {
    const db = join(dir, 'live.db')
    const { key } = seed(db, ENV)
    const server = await startServer(db, ENV)
    running.push(server)
    const answered: number[] = []
    let n = 0
    let loading = true
    // Four writers keep creating Clients for as long as the backup runs.
    const writers = Array.from({ length: 4 }, async () => {
      while (loading) {
        const id = await createClient(server, key, n++)
        if (id !== null) answered.push(id)
      }
    })
    while (answered.length < 100) await Bun.sleep(5)
    const before = [...answered]
    const out = join(dir, 'copy.db')
    const backup = Bun.spawn(
      [process.execPath, join(import.meta.dir, '../src/main.ts'), 'backup', out, '--db', db, '--json'],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    const code = await backup.exited
    const during = answered.length
    loading = false
    await Promise.all(writers)
    expect(code).toBe(0)
    expect(JSON.parse(await new Response(backup.stdout).text())).toMatchObject({ file: out, integrity: 'ok' })
    // The load went on while the copy was made.
    expect(during).toBeGreaterThan(before.length)
    expect(integrity(out)).toBe('ok')
    expect(statSync(out).mode & 0o777).toBe(0o600)
    const copied = clientIds(out)
    expect(before.filter((id) => !copied.has(id))).toEqual([])
    expect(await server.stop()).toBe(0)

    // Restoring is copying it back while no process runs, with the key its secrets are sealed under (the key file
    // is not in the copy): a server on the restored file serves what it holds.
    const restored = join(dir, 'restored.db')
    copyFileSync(out, restored)
    copyFileSync(keyFileOf(db), keyFileOf(restored))
    const again = await startServer(restored, ENV)
    running.push(again)
    const r = await fetch(`${again.url}/v1/clients/${before[0]}`, { headers: { authorization: `Bearer ${key}` } })
    expect(r.status).toBe(200)
    expect(await again.stop()).toBe(0)
  }, 60_000)

  test('a backup never overwrites a file: an existing OUT_FILE is refused in one line and left as it was', () => {
    const db = join(dir, 'refuse.db')
    seed(db)
    const out = join(dir, 'taken.db')
    expect(cli(['backup', out, '--db', db]).code).toBe(0)
    const size = statSync(out).size
    const again = cli(['backup', out, '--db', db])
    expect(again.code).not.toBe(0)
    expect(again.err.trim().split('\n')).toHaveLength(1)
    expect(again.err).toContain('already exists')
    expect(statSync(out).size).toBe(size)
  }, 30_000)
})

describe('shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`after ${signal} the server exits 0 and the .db file alone, copied without its -wal, holds every answered record`, async () => {
      const db = join(dir, `stop-${signal}.db`)
      const { key } = seed(db, ENV)
      const server = await startServer(db, ENV)
      running.push(server)
      const answered = (await Promise.all(Array.from({ length: 40 }, (_, i) => createClient(server, key, i)))).filter(
        (id) => id !== null,
      )
      expect(answered).toHaveLength(40)
      expect(await server.stop(signal)).toBe(0)
      expect(!existsSync(`${db}-wal`) || statSync(`${db}-wal`).size === 0).toBe(true)
      const alone = join(dir, `alone-${signal}`)
      mkdirSync(alone)
      copyFileSync(db, join(alone, 'copy.db'))
      const held = clientIds(join(alone, 'copy.db'))
      expect(answered.filter((id) => !held.has(id))).toEqual([])
    }, 30_000)
  }
})
