// The idempotency record across processes and crashes (extensions §12, ARCHITECTURE rule 6): the record commits in the
// transaction of the change it answers, so a server killed while keyed Payments are in flight never lets a resend
// record a second Payment; a key in flight in one process is waited for (or answered 409) in another.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Database } from '../src/db/client'
import { applyMigrations } from '../src/db/migrate'
import { createApiKey, createBusiness } from '../src/modules/business'
import { Idempotency } from '../src/platform/idempotency'
import { systemClock } from '../src/shared/clock'
import { seed, startServer, type Server } from './processes'

/** The servers run on the system clock: a Payment is dated the day it is recorded. */
const TODAY = new Date().toISOString().slice(0, 10)

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'invoicing-idem-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function post(
  s: Server,
  key: string,
  path: string,
  body: unknown,
  idem?: string,
): Promise<{ status: number; body: any }> {
  const res = await fetch(s.url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(idem ? { 'idempotency-key': idem } : {}),
    },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json().catch(() => null) }
}

/** An issued Invoice of 1000.00 to record Payments on. */
async function invoice(s: Server, key: string): Promise<number> {
  const c = await post(s, key, '/v1/clients', { name: 'Payer', email: 'payer@example.com', country: 'DE' })
  const d = await post(s, key, '/v1/documents', {
    type: 'invoice',
    client_id: c.body.id,
    lines: [{ description: 'Work', quantity: '1', unit_price: '1000.00', vat_rate: '0.00', vat_category: 'Z' }],
  })
  if (d.status !== 201) throw new Error(JSON.stringify(d.body))
  const i = await post(s, key, `/v1/documents/${d.body.id}/issue`, {})
  if (i.status !== 200) throw new Error(JSON.stringify(i.body))
  return d.body.id
}

async function paymentAmounts(s: Server, key: string, documentId: number): Promise<string[]> {
  const res = await fetch(`${s.url}/v1/payments?limit=100&document_id=${documentId}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  return ((await res.json()) as any).data.map((p: any) => p.amount)
}

describe('across processes and crashes', () => {
  test('a server killed (SIGKILL) while keyed Payments are in flight, restarted and resent: never two Payments under one key', async () => {
    const db = join(dir, 'crash.db')
    const { key } = seed(db)
    let s = await startServer(db, { INVOICING_RATE_LIMIT: '100000' })
    const doc = await invoice(s, key)
    // Each key's Payment has its own amount, so the Payments on the document tell which key made each.
    const keys = Array.from({ length: 40 }, (_, i) => ({ key: `crash-${i}`, amount: (i + 1).toFixed(2) }))
    const inFlight = keys.map((k) =>
      post(
        s,
        key,
        `/v1/documents/${doc}/payments`,
        { amount: k.amount, payment_date: TODAY, payment_method: 'cash' },
        k.key,
      ).catch(() => null),
    )
    await Bun.sleep(30)
    await s.stop('SIGKILL')
    await Promise.all(inFlight)
    s = await startServer(db, { INVOICING_RATE_LIMIT: '100000' })
    try {
      for (const k of keys) {
        const r = await post(
          s,
          key,
          `/v1/documents/${doc}/payments`,
          { amount: k.amount, payment_date: TODAY, payment_method: 'cash' },
          k.key,
        )
        // A Payment recorded before the kill replays (or, its answer lost with the process, is 409); the rest record now.
        if (![201, 409].includes(r.status)) throw new Error(`${r.status} ${JSON.stringify(r.body)}`)
      }
      const amounts = await paymentAmounts(s, key, doc)
      expect(amounts.length).toBe(new Set(amounts).size)
      expect(amounts.length).toBeLessThanOrEqual(keys.length)
    } finally {
      await s.stop('SIGKILL')
    }
  }, 90_000)

  test('killed (SIGKILL) with keyed Payments held in their transactions: after a restart every resend answers 201 at once, a committed one replayed byte for byte, nothing recorded twice', async () => {
    const db = join(dir, 'held.db')
    const { key } = seed(db)
    // Each keyed Payment's transaction stays open 400 ms before its commit, and its request waits 400 ms after it (test
    // hook): the first Payment to show is committed and not yet answered when the server is killed.
    let s = await startServer(db, {
      INVOICING_RATE_LIMIT: '100000',
      NODE_ENV: 'test',
      INVOICING_TEST_HOLD_COMMIT_MS: '400',
    })
    const doc = await invoice(s, key)
    const keys = Array.from({ length: 6 }, (_, i) => ({ key: `held-${i}`, amount: (i + 1).toFixed(2) }))
    const body = (amount: string) => JSON.stringify({ amount, payment_date: TODAY, payment_method: 'cash' })
    const send = (srv: Server, k: { key: string; amount: string }) =>
      fetch(`${srv.url}/v1/documents/${doc}/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': k.key },
        body: body(k.amount),
      }).then(async (r) => ({ status: r.status, text: await r.text(), replayed: r.headers.get('idempotent-replayed') }))
    const firsts = keys.map((k) => send(s, k).catch(() => null))
    // Killed once the first Payment has committed, while the others are claimed and waiting or inside their transaction.
    const deadline = Date.now() + 20_000
    while ((await paymentAmounts(s, key, doc)).length === 0 && Date.now() < deadline) await Bun.sleep(20)
    await s.stop('SIGKILL')
    const answeredBefore = await Promise.all(firsts)
    s = await startServer(db, { INVOICING_RATE_LIMIT: '100000' })
    try {
      let replays = 0
      for (const [i, k] of keys.entries()) {
        const started = performance.now()
        const r = await send(s, k)
        // At once: not after a lease (10 s) or the 10 s wait for a key in flight.
        expect(performance.now() - started).toBeLessThan(3_000)
        expect(r.status).toBe(201)
        expect(JSON.parse(r.text).amount).toBe(k.amount)
        const before = answeredBefore[i]
        if (r.replayed === 'true') replays++
        // A Payment answered before the kill is replayed with the very bytes of its first answer.
        if (before?.status === 201) {
          expect(r.replayed).toBe('true')
          expect(r.text).toBe(before.text)
        }
      }
      expect(replays).toBeGreaterThan(0)
      expect(replays).toBeLessThan(keys.length)
      const amounts = await paymentAmounts(s, key, doc)
      expect(amounts.sort()).toEqual(keys.map((k) => k.amount).sort())
    } finally {
      await s.stop('SIGKILL')
    }
  }, 90_000)

  test('30 identical keyed Payments split over two servers on one file make one Payment and one answer', async () => {
    const db = join(dir, 'two.db')
    const { key } = seed(db)
    const a = await startServer(db, { INVOICING_RATE_LIMIT: '100000' })
    const b = await startServer(db, { INVOICING_RATE_LIMIT: '100000' })
    try {
      const doc = await invoice(a, key)
      const body = { amount: '10.00', payment_date: TODAY, payment_method: 'cash' }
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          post(i % 2 ? a : b, key, `/v1/documents/${doc}/payments`, body, 'one-key'),
        ),
      )
      for (const r of answers) expect([201, 409]).toContain(r.status)
      const ok = answers.filter((r) => r.status === 201)
      expect(ok.length).toBeGreaterThan(0)
      expect(new Set(ok.map((r) => r.body.id)).size).toBe(1)
      expect(await paymentAmounts(a, key, doc)).toEqual(['10.00'])
    } finally {
      await a.stop('SIGKILL')
      await b.stop('SIGKILL')
    }
  }, 90_000)
})

describe('a key in flight in another process', () => {
  let one: Database
  let two: Database
  let apiKeyId: number
  beforeAll(async () => {
    const db = join(dir, 'direct.db')
    // Two connections with their own in-process state: as two processes on one file see each other.
    one = await openDatabase(db)
    await applyMigrations(one)
    two = await openDatabase(db)
    const b = await createBusiness(one, systemClock, {
      name: 'Direct GmbH',
      country: 'DE',
      currency: 'EUR',
      plan: 'pro',
    })
    apiKeyId = (await createApiKey(one, systemClock, b.id, { name: 'direct', role: 'admin' })).id
  })
  afterAll(() => {
    one.close()
    two.close()
  })

  test('is answered 409 idempotency_in_flight while it runs, and its answer once it is done; one record', async () => {
    const first = new Idempotency(one, systemClock, 300)
    const second = new Idempotency(two, systemClock, 300)
    const req = { apiKeyId, key: 'held', method: 'POST', path: '/v1/clients', rawBody: '{"name":"A"}' }
    let open!: () => void
    const gate = new Promise<void>((r) => (open = r))
    let entered!: () => void
    const inside = new Promise<void>((r) => (entered = r))
    let performed = 0
    const running = first.answer(req, async () => {
      performed++
      entered()
      await gate
      return { status: 201, body: '{"id":1}' }
    })
    await inside
    const refused = await second.answer(req, async () => ({ status: 201, body: '{"id":2}' })).catch((e) => e)
    expect(refused.type).toBe('idempotency_in_flight')
    expect(refused.status).toBe(409)
    open()
    expect((await running).answer.body).toBe('{"id":1}')
    const replay = await second.answer(req, async () => ({ status: 201, body: '{"id":3}' }))
    expect(replay).toEqual({
      answer: { status: 201, body: '{"id":1}', contentType: 'application/json' },
      replayed: true,
    })
    expect(performed).toBe(1)
    const rows = (await one.read.all(`SELECT count(*) AS n FROM idempotency_keys WHERE key = 'held'`)) as any[]
    expect(rows[0].n).toBe(1)
  })

  test('a claim whose holder died before its change committed is taken over after its lease; nothing was done twice', async () => {
    const dead = new Idempotency(one, systemClock, 300, 50)
    const alive = new Idempotency(two, systemClock, 2_000, 50)
    const req = { apiKeyId, key: 'orphan', method: 'POST', path: '/v1/clients', rawBody: '{}' }
    // The first holder claims and never finishes (its process "dies" with its change uncommitted).
    void dead.answer(req, () => new Promise(() => {}))
    await Bun.sleep(100)
    const r = await alive.answer(req, async () => ({ status: 201, body: '{"id":9}' }))
    expect(r.answer.body).toBe('{"id":9}')
  })
})
