// Recurring invoices across real processes (extensions §13): two servers on one file at the same time make every date
// once; a server stopped over several dates catches up oldest first, each with its own delivery date, and a second
// start makes nothing again; a server killed (SIGKILL) in the middle leaves no date doubled or lost, and its steps are
// finished from their Drafts by the next start. The servers' clocks start where INVOICING_TEST_NOW says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase, type Database } from '../src/db/client'
import { call, seed, startServer, type Server } from './processes'

const DAY = 86_400_000
const T0 = Date.parse('2026-06-01T08:00:00Z')
const day = (n: number) => new Date(T0 + n * DAY).toISOString().slice(0, 10)
const at = (n: number) => ({ NODE_ENV: 'test', INVOICING_TEST_NOW: new Date(T0 + n * DAY).toISOString() })

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'invoicing-recurring-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A database with a Business, a Client and `n` schedules starting on day 0, made through the API of a server. */
async function schedules(
  db: string,
  n: number,
  body: Record<string, unknown>,
): Promise<{ key: string; ids: number[] }> {
  const { key } = seed(db)
  const s = await startServer(db, at(0))
  try {
    const c = await call(s, key, 'POST', '/v1/clients', {
      name: 'Retainer Ltd',
      email: 'ap@retainer.example',
      country: 'DE',
    })
    const ids: number[] = []
    for (let i = 0; i < n; i++) {
      const r = await call(s, key, 'POST', '/v1/recurring-invoices', {
        client_id: c.body.id,
        start_date: day(0),
        lines: [{ description: 'Retainer {{date}}', quantity: '1', unit_price: '100.00', vat_rate: '19' }],
        ...body,
      })
      if (r.status !== 201) throw new Error(JSON.stringify(r.body))
      ids.push(r.body.id)
    }
    return { key, ids }
  } finally {
    await s.stop()
  }
}

interface Made {
  recurring_invoice_id: number
  delivery_date: string
  status: string
  document_number: string | null
  id: number
}

async function madeIn(q: Database): Promise<Made[]> {
  return q.read.all<Made>(
    sql`SELECT id, recurring_invoice_id, delivery_date, status, document_number FROM documents
        WHERE recurring_invoice_id IS NOT NULL ORDER BY id`,
  )
}

/** Waits until `count` documents are made and every step is done (no Draft pending), or the deadline passes. */
async function settled(db: string, count: number, ms = 90_000): Promise<Made[]> {
  const q = await openDatabase(db)
  try {
    const deadline = Date.now() + ms
    for (;;) {
      const made = await madeIn(q)
      const pending = await q.read.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM recurring_invoices WHERE pending_document_id IS NOT NULL`,
      )
      if ((made.length >= count && pending[0]!.n === 0) || Date.now() > deadline) return made
      await Bun.sleep(200)
    }
  } finally {
    q.close()
  }
}

/** Each schedule's dates: exactly the expected ones, once each, in the order they were made. */
function byRecurring(made: Made[]): Map<number, string[]> {
  const out = new Map<number, string[]>()
  for (const m of made) out.set(m.recurring_invoice_id, [...(out.get(m.recurring_invoice_id) ?? []), m.delivery_date])
  return out
}

describe('recurring invoices across processes', () => {
  test('two servers on one file at the same time make every date once, each issued with its own number', async () => {
    const db = join(dir, 'two.db')
    const { ids } = await schedules(db, 12, { frequency: 'day' })
    // Eleven dates have come for each schedule (days 0 to 10) when both servers start at once.
    const [a, b] = await Promise.all([startServer(db, at(10)), startServer(db, at(10))])
    try {
      const made = await settled(db, 12 * 11)
      const dates = byRecurring(made)
      const expected = Array.from({ length: 11 }, (_, i) => day(i))
      for (const id of ids) expect({ id, dates: dates.get(id) }).toEqual({ id, dates: expected })
      expect(made.every((m) => m.status === 'issued')).toBe(true)
      expect(new Set(made.map((m) => m.document_number)).size).toBe(made.length)
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
    // The task itself never failed: a busy database only ends a run early (the other server goes on).
    expect(a.log() + b.log()).not.toMatch(/"level":"error"[^\n]*recurring/)
  }, 180_000)

  test('a server stopped over several dates catches up oldest first, each with its own delivery date; started again it makes none twice', async () => {
    const db = join(dir, 'catch-up.db')
    const { ids } = await schedules(db, 1, { frequency: 'week' })
    const s = await startServer(db, at(35))
    const made = await settled(db, 6).finally(() => s.stop())
    expect(made.map((m) => m.delivery_date)).toEqual([0, 7, 14, 21, 28, 35].map(day))
    // Oldest first: the numbers rise with the dates.
    const numbers = made.map((m) => m.document_number!)
    expect([...numbers].sort()).toEqual(numbers)
    expect(byRecurring(made).get(ids[0]!)!.length).toBe(6)

    const again = await startServer(db, at(36))
    await Bun.sleep(2000)
    await again.stop()
    expect((await settled(db, 6, 1)).length).toBe(6)
  }, 120_000)

  test('a server killed in the middle: the next start makes each remaining date once and finishes the steps from the Drafts', async () => {
    const db = join(dir, 'kill.db')
    const { ids } = await schedules(db, 40, { frequency: 'day' })
    const first = await startServer(db, at(29))
    // Killed while it is making the 40 × 30 dates.
    const q = await openDatabase(db)
    try {
      const deadline = Date.now() + 60_000
      while ((await madeIn(q)).length < 50 && Date.now() < deadline) await Bun.sleep(20)
    } finally {
      q.close()
    }
    await first.stop('SIGKILL')
    const second = await startServer(db, at(29))
    try {
      const made = await settled(db, 40 * 30)
      const dates = byRecurring(made)
      const expected = Array.from({ length: 30 }, (_, i) => day(i))
      for (const id of ids) expect({ id, dates: dates.get(id) }).toEqual({ id, dates: expected })
      expect(made.filter((m) => m.status !== 'issued')).toEqual([])
    } finally {
      await second.stop()
    }
  }, 240_000)
})
