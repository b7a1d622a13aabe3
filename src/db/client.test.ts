// The database client: per-connection settings that survive transactions, serialised writes, rollback and foreign keys,
// and the plain statements a process reads with as it opens.
import { describe, expect, test } from 'bun:test'
import { eq, like, sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../test/harness'
import { serviceSecret } from './meta'
import { bankAccounts, meta } from './schema'

let h: Harness
harnessForFile((made) => (h = made))

async function pragma(name: string): Promise<unknown> {
  const r = await h.deps.db.writerClient.execute(`PRAGMA ${name}`)
  return Object.values(r.rows[0]!)[0]
}

async function metaCount(prefix: string): Promise<number> {
  return (
    await h.deps.db.read
      .select()
      .from(meta)
      .where(like(meta.key, `${prefix}%`))
      .all()
  ).length
}

/** A write transaction that inserts a meta row and stays open until `release()`; `entered` once the row is written. */
async function heldWrite(key: string, value = 'x') {
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  let inside!: () => void
  const entered = new Promise<void>((r) => (inside = r))
  const writing = h.deps.db.write(async (tx) => {
    await tx.insert(meta).values({ key, value })
    inside()
    await held
  })
  await entered
  return { release, writing }
}

describe('connection settings', () => {
  test('after write transactions the writer still has foreign_keys=1 and synchronous=2 (FULL); the journal is WAL', async () => {
    for (let i = 0; i < 3; i++) {
      await h.deps.db.write((tx) => tx.insert(meta).values({ key: `pragma-${i}`, value: 'x' }))
      expect(await pragma('foreign_keys')).toBe(1)
      expect(await pragma('synchronous')).toBe(2)
      expect(String(await pragma('journal_mode')).toLowerCase()).toBe('wal')
    }
  })

  test('the settings also survive a transaction that failed and was rolled back', async () => {
    await expect(
      h.deps.db.write(async (tx) => {
        await tx.insert(meta).values({ key: 'pragma-rollback', value: 'x' })
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    expect(await pragma('foreign_keys')).toBe(1)
    expect(await pragma('synchronous')).toBe(2)
  })

  test('bulk appends (the request log) go in whole or not at all and leave the writer at synchronous=FULL', async () => {
    await h.deps.db.append('INSERT INTO meta (key, value) VALUES (?, ?)', [
      ['append-1', 'x'],
      ['append-2', 'y'],
    ])
    expect(await metaCount('append-')).toBe(2)
    // A failing row (a duplicate key) rolls the whole batch back.
    // Awaited by hand: bun test's expect().rejects never sees the settling of a promise the driver's thread settles.
    const failed = await h.deps.db
      .append('INSERT INTO meta (key, value) VALUES (?, ?)', [
        ['append-3', 'x'],
        ['append-1', 'again'],
      ])
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(failed).toBeInstanceOf(Error)
    expect(await metaCount('append-')).toBe(2)
    expect(await pragma('synchronous')).toBe(2)
    await h.deps.db.write((tx) => tx.insert(meta).values({ key: 'after-append', value: 'x' }))
    expect(await pragma('foreign_keys')).toBe(1)
  })

  test('handing back page caches on idle keeps every connection working and the writer at synchronous=FULL', async () => {
    await h.deps.db.shrinkMemory()
    await h.deps.db.write((tx) => tx.insert(meta).values({ key: 'after-shrink', value: 'x' }))
    expect(await metaCount('after-shrink')).toBe(1)
    expect(h.deps.db.hot!.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', 'after-shrink')?.value).toBe(
      'x',
    )
    expect(await pragma('synchronous')).toBe(2)
  })

  test('the reader cannot write', async () => {
    const attempt = async () => {
      await h.deps.db.read.insert(meta).values({ key: 'from-reader', value: 'x' })
    }
    await expect(attempt()).rejects.toThrow()
    expect(await metaCount('from-reader')).toBe(0)
  })
})

describe('writes', () => {
  test('100 concurrent write transactions, each inserting a row, all commit without SQLITE_BUSY', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        h.deps.db.write(async (tx) => {
          await tx.insert(meta).values({ key: `concurrent-${i}`, value: String(i) })
          // A read inside the transaction gives the others a chance to interleave if nothing serialised them.
          await tx
            .select()
            .from(meta)
            .where(eq(meta.key, `concurrent-${i}`))
            .get()
          return i
        }),
      ),
    )
    const failed = results.filter((r) => r.status === 'rejected')
    expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([])
    expect(await metaCount('concurrent-')).toBe(100)
  })

  test('a failing transaction writes nothing, and the next write goes on', async () => {
    await expect(
      h.deps.db.write(async (tx) => {
        await tx.insert(meta).values({ key: 'rolled-back-1', value: 'x' })
        await tx.insert(meta).values({ key: 'rolled-back-2', value: 'x' })
        throw new Error('refused halfway')
      }),
    ).rejects.toThrow('refused halfway')
    expect(await metaCount('rolled-back-')).toBe(0)
    await h.deps.db.write((tx) => tx.insert(meta).values({ key: 'after-rollback', value: 'x' }))
    expect(await metaCount('after-rollback')).toBe(1)
  })

  test('a statement failing inside a transaction (a duplicate key) undoes the rows written before it', async () => {
    await h.deps.db.write((tx) => tx.insert(meta).values({ key: 'dup-existing', value: 'x' }))
    await expect(
      h.deps.db.write(async (tx) => {
        await tx.insert(meta).values({ key: 'dup-new', value: 'x' })
        await tx.insert(meta).values({ key: 'dup-existing', value: 'again' })
      }),
    ).rejects.toThrow()
    expect(await metaCount('dup-new')).toBe(0)
  })

  test('a foreign-key violation is refused and writes nothing', async () => {
    await expect(
      h.deps.db.write((tx) =>
        tx.insert(bankAccounts).values({
          businessId: 987654,
          name: 'Nobody',
          iban: 'DE89370400440532013000',
          createdAt: h.clock.now().toISOString(),
        }),
      ),
    ).rejects.toThrow()
    const rows = await h.deps.db.read.select().from(bankAccounts).where(eq(bankAccounts.businessId, 987654)).all()
    expect(rows).toEqual([])
  })

  test('a read is answered while a write transaction is open, and sees only what is committed', async () => {
    const { release, writing } = await heldWrite('open-tx')
    const during = await h.deps.db.read.select().from(meta).where(eq(meta.key, 'open-tx')).all()
    expect(during).toEqual([])
    release()
    await writing
    expect(await metaCount('open-tx')).toBe(1)
  })

  test('a write transaction returns what its callback returns', async () => {
    const n = await h.deps.db.write(async (tx) => {
      const r = await tx.run(sql`SELECT 1`)
      return r.rows.length + 41
    })
    expect(n).toBe(42)
  })
})

describe('the prepared-statement writer (the Payment path)', () => {
  test('its connection writes with synchronous=FULL and foreign keys on, in WAL', async () => {
    const seen = await h.deps.db.writePrepared(async (tx) => ({
      synchronous: (await tx.all<{ synchronous: number }>(sql`PRAGMA synchronous`))[0]!.synchronous,
      foreignKeys: (await tx.all<{ foreign_keys: number }>(sql`PRAGMA foreign_keys`))[0]!.foreign_keys,
      journal: (await tx.all<{ journal_mode: string }>(sql`PRAGMA journal_mode`))[0]!.journal_mode,
    }))
    expect(seen).toEqual({ synchronous: 2, foreignKeys: 1, journal: 'wal' })
  })

  test('a transaction that throws is rolled back whole', async () => {
    await expect(
      h.deps.db.writePrepared(async (tx) => {
        await tx.run(sql`INSERT INTO meta (key, value) VALUES (${'prepared-rollback'}, ${'x'})`)
        throw new Error('stop')
      }),
    ).rejects.toThrow('stop')
    expect(await metaCount('prepared-rollback')).toBe(0)
    // And the connection is usable again afterwards.
    await h.deps.db.writePrepared((tx) =>
      tx.run(sql`INSERT INTO meta (key, value) VALUES (${'prepared-after'}, ${'x'})`),
    )
    expect(await metaCount('prepared-after')).toBe(1)
  })

  test('a row breaking a foreign key is refused', async () => {
    const attempt = h.deps.db.writePrepared((tx) =>
      tx.run(sql`INSERT INTO receipts (business_id, payment_id, document_id, receipt_number, issue_date, created_at, updated_at)
        VALUES (${999_999}, ${999_999}, ${999_999}, ${'R-1'}, ${'2026-01-01'}, ${'x'}, ${'x'})`),
    )
    await expect(attempt).rejects.toThrow(/FOREIGN KEY/)
  })

  test("its transactions and the ordinary writer's, 100 of each at once, all commit without SQLITE_BUSY", async () => {
    const both = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => [
        h.deps.db.writePrepared(async (tx) => {
          await tx.run(sql`INSERT INTO meta (key, value) VALUES (${`mixed-p-${i}`}, ${'x'})`)
          await tx.all(sql`SELECT value FROM meta WHERE key = ${`mixed-p-${i}`}`)
        }),
        h.deps.db.write(async (tx) => {
          await tx.insert(meta).values({ key: `mixed-w-${i}`, value: 'x' })
          await tx
            .select()
            .from(meta)
            .where(eq(meta.key, `mixed-w-${i}`))
            .get()
        }),
      ]).flat(),
    )
    expect(both.filter((r) => r.status === 'rejected')).toEqual([])
    expect(await metaCount('mixed-')).toBe(200)
  })
})

describe('plain statements (what a process reads as it opens)', () => {
  test('plain() waits for a write transaction under way on the writer, then sees what it committed', async () => {
    const { release, writing } = await heldWrite('plain-after', 'committed')
    let read: { value: string }[] | null = null
    const reading = h.deps.db
      .plain((s) => s.all<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${'plain-after'}`))
      .then((rows) => (read = rows))
    await Bun.sleep(20)
    // Behind the write mutex: not run on the connection the transaction holds.
    expect(read).toBeNull()
    release()
    await writing
    expect(await reading).toEqual([expect.objectContaining({ value: 'committed' })])
  })

  test('a service secret is made once and read back the same, by concurrent callers too', async () => {
    const made = await Promise.all(Array.from({ length: 5 }, () => serviceSecret(h.deps.db, 'plain_test_secret')))
    expect(new Set(made).size).toBe(1)
    expect(made[0]).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await serviceSecret(h.deps.db, 'plain_test_secret')).toBe(made[0]!)
    expect(await metaCount('plain_test_secret')).toBe(1)
  })
})
