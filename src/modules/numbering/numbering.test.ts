// The numbering module on its own (extensions §4), against a real temp-file database: the next number, a requested
// number judged (malformed, beyond the counter, taken, skipping ahead, an unused earlier one), gaps, the yearly
// counter, numbers held stepped over, the counter's end, and the same rule whether judged or taken.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../../test/harness'
import { setNumbering } from '../business'
import { judge, numberingFor, receiptNumbering, take, takeReceiptNumber, type Judgement, type Numbering } from '.'

let h: Harness
harnessForFile((made) => (h = made))

async function business(input: { isTest?: boolean } = {}) {
  const b = await h.business({ isTest: input.isTest ?? false })
  return { id: b.id, isTest: input.isTest ?? false, key: b.key }
}

const takeIn = (n: Numbering, requested: string | null = null, exceptHolder?: number): Promise<Judgement> =>
  h.deps.db.write((tx) => take(tx, n, requested, exceptHolder))

async function takeNumbers(n: Numbering, count: number): Promise<string[]> {
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const j = await takeIn(n)
    if (!j.ok) throw new Error(j.refusal.message)
    out.push(j.number)
  }
  return out
}

async function highest(n: Numbering): Promise<number | undefined> {
  const rows = await h.deps.db.read.all<{ highest: number }>(
    sql`SELECT highest FROM number_counters WHERE business_id = ${n.businessId} AND kind = ${n.kind} AND pattern = ${n.pattern} AND period = ${n.period}`,
  )
  return rows[0]?.highest
}

function refusedWith(j: Judgement, code: string): string {
  if (j.ok) throw new Error(`expected ${code}, got ${j.number}`)
  expect(j.refusal.code as string).toBe(code)
  return j.refusal.message
}

describe('the next number', () => {
  test('is one above the highest taken, written in the pattern with the year, starting at 1', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'invoice', 2026)
    expect(await takeNumbers(n, 3)).toEqual(['INV-2026-0001', 'INV-2026-0002', 'INV-2026-0003'])
  })

  test('judging writes nothing: it names the number taking would give, and taking gives exactly that', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'quote', 2026)
    const before = await judge(h.deps.db.read, n, null)
    expect(await judge(h.deps.db.read, n, null)).toEqual(before)
    expect(await highest(n)).toBeUndefined()
    expect(await takeIn(n)).toEqual(before)
    expect(before).toEqual({ ok: true, number: 'QUO-2026-0001', counter: 1 })
  })

  test('{YYYY} gives each year its own counter, starting again at 1; a pattern without it counts across years', async () => {
    const b = await business()
    await takeNumbers(await numberingFor(h.deps.db.read, b, 'invoice', 2026), 2)
    expect(await takeNumbers(await numberingFor(h.deps.db.read, b, 'invoice', 2027), 1)).toEqual(['INV-2027-0001'])
    await setNumbering(h.deps.db, b.id, 'proforma', 'P{NNN}')
    expect(await takeNumbers(await numberingFor(h.deps.db.read, b, 'proforma', 2026), 1)).toEqual(['P001'])
    expect(await takeNumbers(await numberingFor(h.deps.db.read, b, 'proforma', 2027), 1)).toEqual(['P002'])
  })

  test("a Test business's document and Receipt numbers carry TEST-; its account codes do not", async () => {
    const b = await business({ isTest: true })
    expect(await takeNumbers(await numberingFor(h.deps.db.read, b, 'credit_note', 2026), 1)).toEqual([
      'TEST-CN-2026-0001',
    ])
    expect(await h.deps.db.write((tx) => takeReceiptNumber(tx, b, '2026-03-10'))).toEqual({
      ok: true,
      number: 'TEST-RCT-2026-00001',
      counter: 1,
    })
    expect(await takeNumbers(await numberingFor(h.deps.db.read, b, 'client', null), 1)).toEqual(['C00001'])
  })

  test('a number already held (a code given under an earlier pattern) is stepped over, never given twice', async () => {
    const b = await business()
    await setNumbering(h.deps.db, b.id, 'client', 'K{NN}')
    await h.client(b.key, { account_code: 'K01' })
    await h.client(b.key, { account_code: 'K03' })
    // A new pattern has its own counter, whose first numbers K01 and K03 are held already.
    await setNumbering(h.deps.db, b.id, 'client', 'K0{N}')
    const n = await numberingFor(h.deps.db.read, b, 'client', null)
    expect(await judge(h.deps.db.read, n, null)).toEqual({ ok: true, number: 'K02', counter: 2 })
    expect(await takeNumbers(n, 2)).toEqual(['K02', 'K04'])
  })

  test("the counter's largest value is never taken: numbering_at_its_end, and the refused transaction moves no counter", async () => {
    const b = await business()
    await setNumbering(h.deps.db, b.id, 'invoice', 'X{N}')
    const n = await numberingFor(h.deps.db.read, b, 'invoice', 2026)
    expect(await takeNumbers(n, 8)).toEqual(['X1', 'X2', 'X3', 'X4', 'X5', 'X6', 'X7', 'X8'])
    expect(refusedWith(await judge(h.deps.db.read, n, null), 'numbering_at_its_end')).toContain(
      'request an unused earlier number',
    )
    // The caller throws the refusal, so the upsert that reached 9 rolls back with the rest.
    const thrown = await h.deps.db
      .write(async (tx) => {
        const j = await take(tx, n, null)
        if (!j.ok) throw new Error(j.refusal.code)
      })
      .catch((e: Error) => e.message)
    expect(thrown).toBe('numbering_at_its_end')
    expect(await highest(n)).toBe(8)
    // The way out for documents: an unused earlier number.
    await setNumbering(h.deps.db, b.id, 'receipt', 'R{N}')
    const r = await numberingFor(h.deps.db.read, b, 'receipt', 2026)
    await takeNumbers(r, 8)
    expect(refusedWith(await receiptNumbering(h.deps.db.read, b, '2026-05-01'), 'numbering_at_its_end')).not.toContain(
      'earlier number',
    )
  })

  test('numbers taken at once in concurrent transactions are distinct and consecutive', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'receipt', 2026)
    const all = await Promise.all(Array.from({ length: 20 }, () => takeIn(n)))
    const numbers = all.map((j) => (j.ok ? j.number : j.refusal.code)).sort()
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `RCT-2026-${String(i + 1).padStart(5, '0')}`))
  })
})

describe('a requested number', () => {
  test('that does not fit the pattern, has counter 0, another year, or lacks the Test prefix is number_malformed, naming an example', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'invoice', 2026)
    expect(refusedWith(await judge(h.deps.db.read, n, 'INV-2026-12'), 'number_malformed')).toBe(
      'INV-2026-12 is not a valid number here; numbers look like INV-2026-0001.',
    )
    // Counter 0, another year, lower case.
    for (const number of ['INV-2026-0000', 'INV-2025-0001', 'inv-2026-0001'])
      refusedWith(await judge(h.deps.db.read, n, number), 'number_malformed')
    const t = await business({ isTest: true })
    const tn = await numberingFor(h.deps.db.read, t, 'invoice', 2026)
    refusedWith(await judge(h.deps.db.read, tn, 'INV-2026-0001'), 'number_malformed')
    expect(await judge(h.deps.db.read, tn, 'TEST-INV-2026-0001')).toEqual({
      ok: true,
      number: 'TEST-INV-2026-0001',
      counter: 1,
    })
  })

  test('wider than the counter, or its largest value, is number_beyond_the_counter naming the largest usable', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'invoice', 2026)
    expect(refusedWith(await judge(h.deps.db.read, n, 'INV-2026-10000'), 'number_beyond_the_counter')).toContain(
      'largest usable: INV-2026-9998',
    )
    refusedWith(await judge(h.deps.db.read, n, 'INV-2026-9999'), 'number_beyond_the_counter')
    // Zero padding wider than the pattern is not beyond: it does not fit.
    refusedWith(await judge(h.deps.db.read, n, 'INV-2026-00001'), 'number_malformed')
  })

  test('above the next is number_skips_ahead naming the next; the next itself is taken and the counter moves to it', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'invoice', 2026)
    await takeNumbers(n, 2)
    expect(refusedWith(await judge(h.deps.db.read, n, 'INV-2026-0004'), 'number_skips_ahead')).toContain(
      'the next number is INV-2026-0003',
    )
    expect(await takeIn(n, 'INV-2026-0003')).toEqual({ ok: true, number: 'INV-2026-0003', counter: 3 })
    expect(await highest(n)).toBe(3)
    expect(await takeNumbers(n, 1)).toEqual(['INV-2026-0004'])
  })

  test('an unused earlier number (a gap) is taken without moving the counter down; the next continues above the highest', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'invoice', 2026)
    await takeNumbers(n, 5)
    // INV-2026-0002 was taken by the counter but no document holds it: the gap may be filled.
    expect(await takeIn(n, 'INV-2026-0002')).toEqual({ ok: true, number: 'INV-2026-0002', counter: 2 })
    expect(await highest(n)).toBe(5)
    expect(await takeNumbers(n, 1)).toEqual(['INV-2026-0006'])
  })

  test("held by another row is number_taken; the holder's own number is not taken from itself (exceptHolder)", async () => {
    const b = await business()
    const id = await h.client(b.key, { account_code: 'C00007' })
    const n = await numberingFor(h.deps.db.read, b, 'client', null)
    refusedWith(await judge(h.deps.db.read, n, 'C00007'), 'number_taken')
    expect(await judge(h.deps.db.read, n, 'C00007', id)).toEqual({ ok: true, number: 'C00007', counter: 7 })
  })

  test('account codes may skip ahead (only documents refuse it), and the counter follows the code taken', async () => {
    const b = await business()
    const n = await numberingFor(h.deps.db.read, b, 'client', null)
    expect(await takeIn(n, 'C00050')).toEqual({ ok: true, number: 'C00050', counter: 50 })
    expect(await takeNumbers(n, 1)).toEqual(['C00051'])
  })
})
