// Recurring invoices across real processes (extensions §13): two servers on one file at the same time make every date
// once; a server stopped over several dates catches up oldest first, each with its own delivery date, and a second
// start makes nothing again; a server killed (SIGKILL) in the middle leaves no date doubled or lost, and its steps are
// finished from their Drafts by the next start; with `action: send`, each Invoice is emailed once by two servers, and a
// server killed while handing an email over to the mail server (a real one, smtp-server) leaves it sent again at most
// once (extensions §14). The servers' clocks start where INVOICING_TEST_NOW says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase, type Database } from '../src/db/client'
import { startTestSmtpServer, type TestSmtpServer } from '../src/adapters/smtp-test-server'
import { call, cli, seed, startServer, type Server } from './processes'

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
): Promise<{ businessId: number; key: string; ids: number[] }> {
  const { businessId, key } = seed(db)
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
    return { businessId, key, ids }
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
      // One statement, one snapshot: read apart, the documents could be read with a Draft that the server issued
      // (and so cleared its pending step) before the pending count was read.
      const rows = await q.read.all<Made & { pending: number }>(
        sql`SELECT id, recurring_invoice_id, delivery_date, status, document_number,
              (SELECT count(*) FROM recurring_invoices WHERE pending_document_id IS NOT NULL) AS pending
            FROM documents WHERE recurring_invoice_id IS NOT NULL ORDER BY id`,
      )
      const made = rows.map(({ pending: _, ...m }) => m)
      if ((made.length >= count && (rows[0]?.pending ?? 0) === 0) || Date.now() > deadline) return made
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

describe('recurring invoices emailed across processes', () => {
  let smtp: TestSmtpServer
  beforeAll(async () => {
    smtp = await startTestSmtpServer()
  })
  afterAll(() => smtp.close())

  /** `n` schedules with `action: send` from day 1, of a Business with an address the relay sends from. */
  async function sending(db: string, n: number) {
    const made = await schedules(db, n, { frequency: 'month', action: 'send', start_date: day(1) })
    const email = cli(['business', 'update', String(made.businessId), '--email', 'office@process.example', '--db', db])
    expect(email.code, email.err).toBe(0)
    smtp.received.length = 0
    return made
  }
  const mailing = (n: number) => ({ ...at(n), INVOICING_MAIL_RELAY: smtp.url })
  async function until(cond: () => boolean, ms: number): Promise<void> {
    const end = Date.now() + ms
    while (!cond() && Date.now() < end) await Bun.sleep(50)
  }
  async function lastSent(db: string): Promise<(string | null)[]> {
    const q = await openDatabase(db)
    try {
      const rows = await q.read.all<{ last_sent: string | null }>(
        sql`SELECT last_sent FROM documents WHERE recurring_invoice_id IS NOT NULL ORDER BY id`,
      )
      return rows.map((r) => r.last_sent)
    } finally {
      q.close()
    }
  }

  test('two servers on one file at the same time email each Invoice once', async () => {
    const db = join(dir, 'send-two.db')
    await sending(db, 6)
    const [a, b] = await Promise.all([startServer(db, mailing(1)), startServer(db, mailing(1))])
    try {
      const made = await settled(db, 6)
      expect(made.map((m) => m.status)).toEqual(Array(6).fill('issued'))
      await Bun.sleep(1500)
      expect(smtp.received.length).toBe(6)
      expect(new Set(smtp.received.map((m) => m.mail.subject)).size).toBe(6)
      expect((await lastSent(db)).filter((at) => at === null)).toEqual([])
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  }, 120_000)

  test("a server killed while an Invoice's email is handed over: the next start sends it once more and records it once; a third sends nothing", async () => {
    const db = join(dir, 'send-kill.db')
    const { key, ids } = await sending(db, 1)
    // The relay holds its answer: the email is in, the server waits for the answer, and is killed while it waits.
    smtp.answerDelayMs = 30_000
    const a = await startServer(db, mailing(1))
    await until(() => smtp.received.length >= 1, 30_000).finally(() => a.stop('SIGKILL'))
    expect(smtp.received.length).toBe(1)
    smtp.answerDelayMs = 0
    const b = await startServer(db, mailing(1))
    try {
      const made = await settled(db, 1)
      await Bun.sleep(1500)
      expect(made.length).toBe(1)
      expect(smtp.received.length).toBe(2)
      expect((await lastSent(db)).map((at) => at !== null)).toEqual([true])
      const r = await call(b, key, 'GET', `/v1/recurring-invoices/${ids[0]}`)
      expect(r.body.last_run).toMatchObject({ date: day(1), error: null })
    } finally {
      await b.stop()
    }
    const c = await startServer(db, mailing(1))
    await Bun.sleep(2500)
    await c.stop()
    expect(smtp.received.length).toBe(2)
  }, 120_000)

  test('killed twice while handing the same email over: the third start hands it over no more and says not_delivered in last_run.error', async () => {
    const db = join(dir, 'send-kill-twice.db')
    const { key, ids } = await sending(db, 1)
    smtp.answerDelayMs = 30_000
    for (const n of [1, 2]) {
      const s = await startServer(db, mailing(1))
      await until(() => smtp.received.length >= n, 30_000).finally(() => s.stop('SIGKILL'))
      expect(smtp.received.length).toBe(n)
    }
    smtp.answerDelayMs = 0
    const c = await startServer(db, mailing(1))
    try {
      const made = await settled(db, 1)
      await Bun.sleep(1500)
      expect(smtp.received.length).toBe(2)
      expect(made.map((m) => m.status)).toEqual(['issued'])
      expect(await lastSent(db)).toEqual([null])
      const r = await call(c, key, 'GET', `/v1/recurring-invoices/${ids[0]}`)
      expect(r.body).toMatchObject({
        status: 'active',
        last_run: { error: { type: 'not_delivered', code: 'not_delivered' } },
      })
    } finally {
      await c.stop()
    }
  }, 120_000)
})
