// The shared rate count: two counters on one database (as two processes hold them) count one window, with the mapped
// side file (a local file) and through @libsql/client alone (the libSQL-server path); a damaged side file starts afresh.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../db/client'
import { openRateCount, rateFileOf } from './rate-count'
import { openMapCount } from './rate-map'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-rate-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const T0 = Date.parse('2026-03-10T09:00:00Z')

for (const native of [true, false]) {
  describe(
    native
      ? 'mapped side file (a local file)'
      : 'a table through @libsql/client alone (the statements a libSQL server runs)',
    () => {
      test('two counters on one database share the window: the 121st request of a key is refused whichever counts it', async () => {
        const file = join(dir, `shared-${native}.db`)
        const [a, b] = [await openDatabase(file, { native }), await openDatabase(file, { native })]
        const ra = openRateCount(a, 120)
        const rb = openRateCount(b, 120)
        const allowed: boolean[] = []
        for (let i = 0; i < 150; i++) allowed.push((await (i % 2 ? ra : rb).hit('7', T0 + i)).allowed)
        expect(allowed.filter(Boolean)).toHaveLength(120)
        expect(allowed.slice(0, 120).every(Boolean)).toBe(true)
        // Another key has its own count; the window ends a minute after the key's first request.
        expect(await ra.peek('8', T0)).toMatchObject({ allowed: true, remaining: 120 })
        expect(await rb.peek('7', T0 + 1000)).toMatchObject({
          allowed: false,
          remaining: 0,
          reset: Math.ceil((T0 + 60_000) / 1000),
          retryAfter: 59,
        })
        expect(await rb.hit('7', T0 + 60_000)).toMatchObject({ allowed: true, remaining: 119 })
        ra.close()
        rb.close()
        a.close()
        b.close()
      })

      test('a counter opened again (a restart) keeps the count of the open window', async () => {
        const file = join(dir, `restart-${native}.db`)
        let db = await openDatabase(file, { native })
        let rc = openRateCount(db, 120)
        for (let i = 0; i < 100; i++) await rc.hit('1', T0 + i)
        rc.close()
        db.close()
        db = await openDatabase(file, { native })
        rc = openRateCount(db, 120)
        expect(await rc.hit('1', T0 + 30_000)).toMatchObject({ allowed: true, remaining: 19 })
        await rc.sweep(T0 + 60_000)
        expect(await rc.peek('1', T0 + 60_000)).toMatchObject({ remaining: 120 })
        rc.close()
        db.close()
      })
    },
  )
}

test('the side file is made 0600, and one found damaged is started afresh rather than refusing to serve', async () => {
  const file = join(dir, 'damaged.db')
  writeFileSync(rateFileOf(file), 'not a database at all, just bytes '.repeat(200))
  const db = await openDatabase(file)
  const rc = openRateCount(db, 120)
  expect(await rc.hit('1', T0)).toMatchObject({ allowed: true, remaining: 119 })
  expect(statSync(rateFileOf(file)).mode & 0o777).toBe(0o600)
  rc.close()
  db.close()
})

describe('mapped side file', () => {
  test('two processes counting one key at once lose no request: every hit is counted exactly once', async () => {
    const file = join(dir, 'two-processes.db')
    const rateModule = join(import.meta.dir, 'rate-map.ts')
    const script = `const { openMapCount } = await import(${JSON.stringify(rateModule)})
      const rc = openMapCount(${JSON.stringify(rateFileOf(file))}, 1_000_000, 3_600_000)
      for (let i = 0; i < 200_000; i++) rc.hit('k', ${T0})`
    const runs = [0, 1].map(() => Bun.spawn([process.execPath, '-e', script], { stderr: 'pipe' }))
    for (const p of runs) expect(await p.exited).toBe(0)
    const rc = openMapCount(rateFileOf(file), 1_000_000, 3_600_000)
    expect(rc.peek('k', T0 + 1)).toMatchObject({ remaining: 1_000_000 - 400_000 })
  })

  test('a lock left by a process that died inside it is taken over, not waited on forever', () => {
    const file = join(dir, 'stale-lock.db.rate')
    const rc = openMapCount(file, 120, 60_000)
    rc.hit('1', T0)
    // The lock word (header word 4) names a process that is gone.
    const words = new Int32Array(Bun.mmap(file).buffer)
    Atomics.store(words, 4, 2_000_000_000)
    expect(rc.hit('1', T0 + 1)).toMatchObject({ allowed: true, remaining: 118 })
    expect(Atomics.load(words, 4)).toBe(0)
  })

  test('a slot whose window ended is taken by another key, and every key keeps its own count', () => {
    const rc = openMapCount(join(dir, 'reuse.db.rate'), 3, 1000)
    for (let k = 0; k < 500; k++) rc.hit(`old:${k}`, T0)
    for (let k = 0; k < 500; k++) expect(rc.hit(`new:${k}`, T0 + 1000)).toMatchObject({ remaining: 2 })
    for (let k = 0; k < 500; k++) expect(rc.hit(`new:${k}`, T0 + 1500)).toMatchObject({ remaining: 1 })
    expect(rc.peek('old:7', T0 + 1500)).toMatchObject({ remaining: 3 })
  })

  test('a side file left by the SQLite count of earlier versions is replaced at start', async () => {
    const file = join(dir, 'sqlite-era.db')
    const { default: Database } = await import('libsql')
    const old = new Database(rateFileOf(file))
    old.exec('PRAGMA journal_mode = WAL')
    old.exec('CREATE TABLE rate_windows (key TEXT PRIMARY KEY, start_ms INTEGER NOT NULL, count INTEGER NOT NULL)')
    old.close()
    const rc = openMapCount(rateFileOf(file), 120, 60_000)
    expect(rc.hit('1', T0)).toMatchObject({ allowed: true, remaining: 119 })
  })
})
