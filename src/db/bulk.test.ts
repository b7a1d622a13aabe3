// Bulk appends (the request log) are written as SQL literals on the driver's own thread: every value must read back
// exactly as a bound parameter would have stored it, no value may change the statement, and the JavaScript thread
// keeps turning while a batch is written.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../test/harness'
import { multiRowInsert, sqlLiteral } from './bulk'

let h: Harness

beforeAll(async () => {
  h = await makeHarness()
  await h.deps.db.write((tx) => tx.run(sql`CREATE TABLE bulk_probe (n INTEGER, t TEXT, r REAL, b BLOB, k TEXT)`))
})
afterAll(() => h.close())

const INSERT = 'INSERT INTO bulk_probe (n, t, r, b, k) VALUES (?, ?, ?, ?, ?)'

async function rowsOf(k: string) {
  const r = await h.deps.db.writerClient.execute({
    sql: 'SELECT n, typeof(n) AS tn, t, hex(t) AS th, typeof(t) AS tt, r, typeof(r) AS tr, hex(b) AS b, typeof(b) AS tb FROM bulk_probe WHERE k = ? ORDER BY rowid',
    args: [k],
  })
  return r.rows.map((x) => ({ ...x }))
}

describe('bulk appends', () => {
  test('every kind of value reads back as the same value bound through the ordinary writer stores', async () => {
    const texts = [
      "it's",
      "'); DROP TABLE bulk_probe; --",
      'a\0b',
      'Grüße €',
      '🧾 receipt',
      '',
      'line\nbreak',
      '\\',
      '"quoted"',
    ]
    const rows: unknown[][] = texts.map((t, i) => [
      i - 4,
      t,
      i === 0 ? 0.1 : -2.5e-7 * i,
      i % 2 ? new Uint8Array([0, 255, i]) : null,
      'bulk',
    ])
    rows.push(
      [Number.MAX_SAFE_INTEGER, null, 1e21, new Uint8Array(0), 'bulk'],
      [true, 'yes', 3, null, 'bulk'],
      [false, 'no', 0, null, 'bulk'],
    )
    await h.deps.db.append(INSERT, rows)
    // The same rows, bound as parameters through the ordinary writer.
    await h.deps.db.write(async (tx) => {
      for (const r of rows) {
        const [n, t, rr, b] = r.map((v) => (typeof v === 'boolean' ? Number(v) : v))
        await tx.run(sql`INSERT INTO bulk_probe (n, t, r, b, k) VALUES (${n}, ${t}, ${rr}, ${b}, 'bound')`)
      }
    })
    const appended = await rowsOf('bulk')
    expect(appended).toHaveLength(rows.length)
    expect(appended).toEqual(await rowsOf('bound'))
    // The driver reads text up to a NUL; the stored bytes hold all of it.
    expect(appended[2]!.th).toBe('610062')
    expect(appended[1]!.t).toBe("'); DROP TABLE bulk_probe; --")
  })

  test('a batch that fails on one row leaves none of its rows, and the next batch goes in', async () => {
    await h.deps.db.write((tx) =>
      tx.run(sql`CREATE UNIQUE INDEX bulk_probe_unique ON bulk_probe (k, n) WHERE k = 'unique'`),
    )
    // Awaited by hand: bun test's expect().rejects never sees the settling of a promise the driver's thread settles.
    const failed = await h.deps.db
      .append(INSERT, [
        [1, 'a', 0, null, 'unique'],
        [1, 'b', 0, null, 'unique'],
      ])
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(failed).toBeInstanceOf(Error)
    expect(await rowsOf('unique')).toHaveLength(0)
    await h.deps.db.append(INSERT, [
      [1, 'a', 0, null, 'unique'],
      [2, 'b', 0, null, 'unique'],
    ])
    expect(await rowsOf('unique')).toHaveLength(2)
  })

  test('the JavaScript thread keeps answering while a large batch is written', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => [i, `row ${i} with some text to write`, i / 3, null, 'large'])
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    await h.deps.db.append(INSERT, rows)
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(0)
    const r = await h.deps.db.writerClient.execute(`SELECT count(*) AS c FROM bulk_probe WHERE k = 'large'`)
    expect(Number(r.rows[0]!.c)).toBe(50_000)
  })

  test('values without a literal and statements of another shape are refused before anything is written', () => {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, {}, [], () => 1]) expect(() => sqlLiteral(v)).toThrow()
    expect(() => multiRowInsert('INSERT INTO t (a) SELECT ?', [[1]])).toThrow()
    expect(() => multiRowInsert('INSERT INTO t (a, b) VALUES (?, ?)', [[1]])).toThrow()
    expect(
      multiRowInsert('INSERT INTO t (a, b) VALUES (?, ?)', [
        [1, "x'y"],
        [null, 2.5],
      ]),
    ).toBe("INSERT INTO t (a, b) VALUES (1,'x''y'),(NULL,2.5)")
  })
})
