// Payment reminders across real processes (extensions §14): two servers started at once on one database file send
// each due step once between them, and a server killed (kill -9) while handing a reminder over leaves a claim that the
// next server takes over once: the step goes out, recorded once, and is never sent a third time, even when the second
// server is killed in the same place.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestSmtpServer, type TestSmtpServer } from '../src/adapters/smtp-test-server'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { call, cli, seed, startServer, type Server } from './processes'

let dir: string
let smtp: TestSmtpServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'invoicing-reminders-'))
  smtp = await startTestSmtpServer()
})
afterAll(async () => {
  await smtp.close()
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => {
  smtp.received.length = 0
  smtp.answerDelayMs = 0
})

let files = 0

/**
 * A database with `n` issued Invoices due today (payment terms 0) and reminders enabled with one step on the due
 * date, made by a server without a mail relay; the settings are set by the CLI once that server is stopped, so
 * nothing is due while it runs.
 */
async function prepared(n: number): Promise<{ db: string; key: string; ids: number[] }> {
  const db = join(dir, `r${++files}.db`)
  const { businessId, key } = seed(db)
  const email = cli(['business', 'update', String(businessId), '--email', 'office@process.example', '--db', db])
  expect(email.code, email.err).toBe(0)
  const s = await startServer(db)
  const ids: number[] = []
  try {
    const c = await call(s, key, 'POST', '/v1/clients', {
      name: 'Late Payer',
      email: 'ap@late.example',
      country: 'DE',
      payment_terms: 0,
    })
    expect(c.status).toBe(201)
    for (let i = 0; i < n; i++) {
      const d = await call(s, key, 'POST', '/v1/documents', {
        type: 'invoice',
        client_id: c.body.id,
        lines: [
          { description: `Month ${i + 1}`, quantity: '1', unit_price: '100.00', vat_rate: '0.00', vat_category: 'Z' },
        ],
      })
      expect(d.status).toBe(201)
      expect((await call(s, key, 'POST', `/v1/documents/${d.body.id}/issue`)).status).toBe(200)
      ids.push(d.body.id)
    }
  } finally {
    await s.stop()
  }
  const set = cli(['reminders', 'set', String(businessId), '--enabled', 'true', '--days', '0', '--db', db])
  expect(set.code, set.err).toBe(0)
  return { db, key, ids }
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!cond() && Date.now() < end) await Bun.sleep(50)
}

const relay = () => ({ INVOICING_MAIL_RELAY: smtp.url })

describe('reminders across processes', () => {
  test('two servers started at once on one file send each due step once between them', async () => {
    const { db, key, ids } = await prepared(6)
    const servers = await Promise.all([startServer(db, relay()), startServer(db, relay())])
    try {
      // Both run the task at start; every step is out within a few seconds, and a while later still only once.
      await until(() => smtp.received.length >= ids.length, 20_000)
      await Bun.sleep(1500)
      expect(smtp.received.length).toBe(ids.length)
      const subjects = smtp.received.map((m) => m.mail.subject).sort()
      expect(new Set(subjects).size).toBe(ids.length)
      for (const id of ids) {
        const d = await call(servers[0]!, key, 'GET', `/v1/documents/${id}`)
        expect({ id, sent: d.body.reminders_sent, step: d.body.last_reminded?.step_days }).toEqual({
          id,
          sent: 1,
          step: 0,
        })
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
    }
  }, 90_000)

  test('a server killed while handing a reminder over: the next server sends it once more and records it once', async () => {
    const { db, key, ids } = await prepared(1)
    // The relay holds its answer: the email is in, the server waits, and is killed while it waits.
    smtp.answerDelayMs = 30_000
    let a: Server | null = await startServer(db, relay())
    try {
      await until(() => smtp.received.length >= 1, 20_000)
      expect(smtp.received.length).toBe(1)
      await a.stop('SIGKILL')
      a = null
    } finally {
      if (a) await a.stop('SIGKILL')
    }
    smtp.answerDelayMs = 0
    const b = await startServer(db, relay())
    try {
      await until(() => smtp.received.length >= 2, 20_000)
      await Bun.sleep(1500)
      expect(smtp.received.length).toBe(2)
      const d = await call(b, key, 'GET', `/v1/documents/${ids[0]}`)
      expect({ sent: d.body.reminders_sent, step: d.body.last_reminded?.step_days }).toEqual({ sent: 1, step: 0 })
    } finally {
      await b.stop()
    }
    // A third server finds the step sent: nothing more goes out.
    const c = await startServer(db, relay())
    try {
      await Bun.sleep(2000)
      expect(smtp.received.length).toBe(2)
    } finally {
      await c.stop()
    }
  }, 120_000)

  test('killed twice while handing the same reminder over: the third server hands it over no more and keeps it refused', async () => {
    const { db, key, ids } = await prepared(1)
    smtp.answerDelayMs = 30_000
    for (const n of [1, 2]) {
      const s = await startServer(db, relay())
      await until(() => smtp.received.length >= n, 20_000).finally(() => s.stop('SIGKILL'))
      expect(smtp.received.length).toBe(n)
    }
    smtp.answerDelayMs = 0
    const c = await startServer(db, relay())
    try {
      await Bun.sleep(2500)
      expect(smtp.received.length).toBe(2)
      const d = await call(c, key, 'GET', `/v1/documents/${ids[0]}`)
      expect({ sent: d.body.reminders_sent, last: d.body.last_reminded }).toEqual({ sent: 0, last: null })
    } finally {
      await c.stop()
    }
    const q = await openDatabase(db)
    try {
      const steps = await q.read.all<{ state: string; attempts: number }>(
        sql`SELECT state, attempts FROM reminder_steps WHERE document_id = ${ids[0]}`,
      )
      expect(steps).toEqual([{ state: 'refused', attempts: 2 }])
    } finally {
      q.close()
    }
  }, 120_000)
})
