// Delivery: the retry schedule (injected clock, pinned jitter), failed after the tenth attempt, 410 pauses, a
// redirect is a failure never followed, the first kilobyte of an answer is kept, the plan rules (failed unsent,
// resend refused while Free), two processes never make the same attempt twice, a restart loses no committed event,
// and deliveries older than 30 days are erased. Real receivers are Bun.serve on 127.0.0.1 reached by the real
// httpSender; every message they get is verified with the `standardwebhooks` library.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../../test/harness'
import { FakeSender, type PostRequest, type PostResult } from '../../adapters/http'
import { buildApp } from '../../app'
import { loadConfig } from '../../config'
import { openDatabase, type Database } from '../../db/client'
import { outbox, webhookAttempts, webhookDeliveries, webhookMessages, webhooks } from '../../db/schema'
import { createDeps } from '../../deps'
import { appDeliveryContext, deliveryContext } from '../../jobs/webhooks'
import { deliverDueAppWebhooks } from '../oauth/app-webhooks'
import { FixedClock } from '../../shared/clock'
import { silentLogger } from '../../shared/logger'
import { createApiKey, createBusiness, updateBusiness } from '../business'
import { deliverDue, dispatchOutbox, pruneDeliveries, type DeliveryContext } from './delivery'
import {
  acmeClient,
  liveDeliveryFixture,
  liveDeliveryHarness,
  CONSULTING_LINE,
  issueInvoice,
  receiver,
  verify,
} from './webhooks.testkit'
import { ANSWER_TIMEOUT_MS, MAX_ATTEMPTS } from './engine'
import { resendDelivery } from './webhooks.service'

// ------------------------------------------------------------------------------------------------------------
// Helpers

async function addWebhook(
  h: Harness,
  key: string,
  url: string,
  events: string[] = [],
): Promise<{ id: number; secret: string }> {
  const r = await h.request('POST', '/v1/webhooks', { key, body: { url, events } })
  if (r.status !== 201) throw new Error(`webhook refused: ${r.status} ${r.text}`)
  return r.body
}

/** A new Business with a webhook to `url` and an Invoice issued: one event committed, for that webhook alone. */
async function hookedBusiness(h: Harness, url: string) {
  const b = await h.business()
  const w = await addWebhook(h, b.key, url)
  await issueInvoice(h, b.key, await acmeClient(h, b.key), CONSULTING_LINE)
  return { b, w }
}

async function deliveries(h: Harness, key: string, webhookId: number): Promise<any[]> {
  const r = await h.request('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`, { key })
  expect(r.status).toBe(200)
  return r.body.data
}

/** The waits after each failed attempt, as the contract lists them. */
const SCHEDULE_MS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600].map(
  (s) => s * 1000,
)

/** The stored message a delivery sends: its body is kept once, under the webhook-id. */
async function messageOf(h: Harness, messageId: string) {
  const m = await h.deps.db.read.select().from(webhookMessages).where(eq(webhookMessages.messageId, messageId)).get()
  if (!m) throw new Error(`no stored message ${messageId}`)
  return m
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

// ------------------------------------------------------------------------------------------------------------

describe('retry schedule', () => {
  let h: Harness
  let rx: ReturnType<typeof receiver>

  beforeAll(async () => {
    h = await makeHarness({ config: { webhookAllowPrivate: true, rateLimit: 100_000 } })
    rx = receiver(h.clock, () => new Response('down for maintenance', { status: 500 }))
  })
  afterAll(async () => {
    rx.stop()
    await h.close()
  })

  async function runSchedule(jitter: number) {
    const { b, w } = await hookedBusiness(h, rx.url)
    const ctx: DeliveryContext = { ...deliveryContext(h.deps), jitter: () => jitter }
    await dispatchOutbox(ctx)
    const from = rx.got.length
    const times: number[] = [h.clock.now().getTime()]
    for (const wait of SCHEDULE_MS) times.push(times.at(-1)! + Math.round(wait * (1 + jitter)))

    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      if (i > 0) {
        // A millisecond early, nothing is due.
        h.clock.set(new Date(times[i]! - 1))
        expect(await deliverDue(ctx)).toBe(0)
      }
      h.clock.set(new Date(times[i]!))
      expect(await deliverDue(ctx)).toBe(1)
      expect(rx.got.length - from).toBe(i + 1)
    }
    const got = rx.got.slice(from)
    // Same webhook-id on every attempt; each attempt has its own timestamp (the attempt's time) and signature.
    expect(new Set(got.map((m) => m.headers['webhook-id'])).size).toBe(1)
    expect(got.map((m) => Number(m.headers['webhook-timestamp']))).toEqual(times.map((t) => Math.floor(t / 1000)))
    expect(new Set(got.map((m) => m.headers['webhook-signature'])).size).toBe(MAX_ATTEMPTS)
    expect(new Set(got.map((m) => m.body)).size).toBe(1)
    for (const m of got) expect(verify(w.secret, m).type).toBe('document.issued')

    // Marked failed after the tenth; nothing more is ever sent.
    const [d] = await deliveries(h, b.key, w.id)
    expect(d.status).toBe('failed')
    expect(d.next_attempt_at).toBeNull()
    expect(d.reason).toContain('500')
    expect(d.attempts.map((a: any) => a.at)).toEqual(times.map((t) => new Date(t).toISOString()))
    expect(d.attempts.every((a: any) => a.status_code === 500 && a.response === 'down for maintenance')).toBe(true)
    h.clock.advance(30 * DAY)
    expect(await deliverDue(ctx)).toBe(0)
    expect(rx.got.length - from).toBe(MAX_ATTEMPTS)
  }

  test('jitter 0: ten attempts at 0, +5 s, +5 min, +30 min, +2 h, +5 h, +10 h, +14 h, +20 h, +24 h, then failed', async () => {
    await runSchedule(0)
  })

  test('jitter 0.1: every wait lengthened by a tenth, ten attempts, then failed', async () => {
    await runSchedule(0.1)
  })

  test('the default jitter lengthens a wait by at most a tenth', async () => {
    const b = await h.business()
    const w = await addWebhook(h, b.key, rx.url)
    const c = await acmeClient(h, b.key)
    for (let i = 0; i < 5; i++) await issueInvoice(h, b.key, c, CONSULTING_LINE)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    const at = h.clock.now().getTime()
    expect(await deliverDue(ctx)).toBe(5)
    for (const d of await deliveries(h, b.key, w.id)) {
      const wait = new Date(d.next_attempt_at).getTime() - at
      expect(wait).toBeGreaterThanOrEqual(5_000)
      expect(wait).toBeLessThanOrEqual(5_500)
    }
    // Deleting the webhook deletes its deliveries: nothing of this test stays due for the next.
    expect((await h.request('DELETE', `/v1/webhooks/${w.id}`, { key: b.key })).status).toBe(204)
  })

  test('a 2xx on a retry ends the schedule as delivered', async () => {
    const { b, w } = await hookedBusiness(h, rx.url)
    const ctx: DeliveryContext = { ...deliveryContext(h.deps), jitter: () => 0 }
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    rx.answer = () => new Response(null, { status: 204 })
    try {
      h.clock.advance(5_000)
      expect(await deliverDue(ctx)).toBe(1)
      const [d] = await deliveries(h, b.key, w.id)
      expect(d.status).toBe('delivered')
      expect(d.attempts.map((a: any) => a.status_code)).toEqual([500, 204])
      h.clock.advance(DAY)
      expect(await deliverDue(ctx)).toBe(0)
    } finally {
      rx.answer = () => new Response('down for maintenance', { status: 500 })
    }
  })

  test('the answer time limit is 15 seconds', () => {
    expect(ANSWER_TIMEOUT_MS).toBe(15_000)
  })
})

describe('answers: 410, redirects, no connection, slow, long', () => {
  let h: Harness
  let key: string
  let clientId: number

  liveDeliveryFixture((f) => ({ h, key, clientId } = f))

  async function deliverAll(ctx: DeliveryContext = deliveryContext(h.deps)) {
    await dispatchOutbox(ctx)
    return deliverDue(ctx)
  }

  test('410 Gone pauses the webhook; a paused webhook gets nothing until PATCH paused:false, then gets what waited', async () => {
    const rx = receiver(h.clock, () => new Response('gone', { status: 410 }))
    try {
      const w = await addWebhook(h, key, rx.url)
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      await deliverAll()
      expect(rx.got).toHaveLength(1)
      const hook = await h.request('GET', `/v1/webhooks/${w.id}`, { key })
      expect(hook.body.paused).toBe(true)
      expect(hook.body.paused_reason).toBe('gone')
      const [first] = await deliveries(h, key, w.id)
      expect(first.status).toBe('failed')
      expect(first.reason).toContain('410')

      // Events while paused: nothing sent, however long we wait.
      rx.answer = () => new Response('ok')
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      await deliverAll()
      h.clock.advance(2 * DAY)
      await deliverAll()
      expect(rx.got).toHaveLength(1)
      h.clock.set(new Date())

      const on = await h.request('PATCH', `/v1/webhooks/${w.id}`, { key, body: { paused: false } })
      expect(on.status).toBe(200)
      expect(on.body.paused).toBe(false)
      expect(on.body.paused_reason).toBeNull()
      expect(await deliverAll()).toBe(2)
      expect(rx.got).toHaveLength(3)
      for (const m of rx.got) verify(w.secret, m)
      // The 410'd message itself is not retried.
      const list = await deliveries(h, key, w.id)
      expect(list.map((d) => d.status)).toEqual(['failed', 'delivered', 'delivered'])
    } finally {
      rx.stop()
    }
  })

  test('a webhook paused by PATCH gets nothing until turned on again', async () => {
    const rx = receiver(h.clock)
    try {
      const w = await addWebhook(h, key, rx.url)
      expect((await h.request('PATCH', `/v1/webhooks/${w.id}`, { key, body: { paused: true } })).body.paused).toBe(true)
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      await deliverAll()
      expect(rx.got).toHaveLength(0)
      await h.request('PATCH', `/v1/webhooks/${w.id}`, { key, body: { paused: false } })
      await deliverAll()
      expect(rx.got).toHaveLength(1)
      verify(w.secret, rx.got[0]!)
    } finally {
      rx.stop()
    }
  })

  test('a redirect is a failure: it is not followed and its target is never contacted', async () => {
    const target = receiver(h.clock)
    const rx = receiver(h.clock, () => new Response(null, { status: 302, headers: { location: target.url } }))
    try {
      const w = await addWebhook(h, key, rx.url)
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      const ctx: DeliveryContext = { ...deliveryContext(h.deps), jitter: () => 0 }
      await deliverAll(ctx)
      h.clock.advance(5_000)
      await deliverAll(ctx)
      expect(rx.got).toHaveLength(2)
      expect(target.got).toHaveLength(0)
      const [d] = await deliveries(h, key, w.id)
      expect(d.status).toBe('pending')
      expect(d.attempts.map((a: any) => a.status_code)).toEqual([302, 302])
      // 301, 307 and 308 alike.
      for (const status of [301, 307, 308]) {
        rx.answer = () => new Response(null, { status, headers: { location: target.url } })
        h.clock.advance(DAY)
        await deliverAll(ctx)
      }
      expect(target.got).toHaveLength(0)
      expect((await deliveries(h, key, w.id))[0].attempts.map((a: any) => a.status_code)).toEqual([
        302, 302, 301, 307, 308,
      ])
      for (const m of rx.got) verify(w.secret, m)
      await h.request('DELETE', `/v1/webhooks/${w.id}`, { key })
    } finally {
      rx.stop()
      target.stop()
      h.clock.set(new Date())
    }
  })

  test('no connection is a failure recorded with its reason, and retried', async () => {
    const gone = receiver(h.clock)
    const url = gone.url
    gone.stop()
    const w = await addWebhook(h, key, url)
    await issueInvoice(h, key, clientId, CONSULTING_LINE)
    await deliverAll()
    const [d] = await deliveries(h, key, w.id)
    expect(d.status).toBe('pending')
    expect(d.attempts[0].status_code).toBeNull()
    expect(d.attempts[0].error).toContain('no connection')
    expect(d.next_attempt_at).not.toBeNull()
    await h.request('DELETE', `/v1/webhooks/${w.id}`, { key })
  })

  test('only the first kilobyte of an answer is kept (a 5 KB answer is stored as at most 1024 characters, its start)', async () => {
    const big = 'A'.repeat(1000) + 'B'.repeat(4120)
    const rx = receiver(h.clock, () => new Response(big, { status: 200 }))
    try {
      const w = await addWebhook(h, key, rx.url)
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      await deliverAll()
      const [d] = await deliveries(h, key, w.id)
      expect(d.status).toBe('delivered')
      const kept: string = d.attempts[0].response
      expect(kept.length).toBeLessThanOrEqual(1024)
      expect(kept.length).toBeGreaterThan(1000)
      expect(big.startsWith(kept)).toBe(true)
      // A failing 5 KB answer likewise.
      rx.answer = () => new Response(big, { status: 503 })
      await issueInvoice(h, key, clientId, CONSULTING_LINE)
      await deliverAll()
      const second = (await deliveries(h, key, w.id))[1]
      expect(second.attempts[0].status_code).toBe(503)
      expect(second.attempts[0].response.length).toBeLessThanOrEqual(1024)
      for (const m of rx.got) verify(w.secret, m)
      await h.request('DELETE', `/v1/webhooks/${w.id}`, { key })
    } finally {
      rx.stop()
    }
  })

  test('an answer slower than the limit is a failure ("no answer"), judged by the sender', async () => {
    const { httpSender } = await import('../../adapters/http')
    const slow = receiver(h.clock, async () => {
      await Bun.sleep(1_000)
      return new Response('late')
    })
    try {
      const r = await httpSender.post({
        url: new URL(slow.url),
        address: '127.0.0.1',
        headers: {},
        body: '{}',
        timeoutMs: 200,
      })
      expect(r.kind).toBe('error')
      if (r.kind === 'error') expect(r.error).toContain('no answer')
    } finally {
      slow.stop()
    }
  })
})

describe('plan rules', () => {
  let h: Harness
  let rx: ReturnType<typeof receiver>

  beforeAll(async () => {
    h = await liveDeliveryHarness()
    rx = receiver(h.clock, () => new Response('busy', { status: 500 }))
  })
  afterAll(async () => {
    rx.stop()
    await h.close()
  })

  test('on Free a waiting retry becomes failed_unsent with its body kept; resend is refused until back on a paid plan, then goes out with the same webhook-id and body', async () => {
    const { b, w } = await hookedBusiness(h, rx.url)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    expect(rx.got).toHaveLength(1)
    const original = rx.got[0]!
    expect(verify(w.secret, original).type).toBe('document.issued')
    const [waiting] = await deliveries(h, b.key, w.id)
    expect(waiting.status).toBe('pending')

    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'free' })
    h.clock.advance(10 * 60_000)
    expect(await deliverDue(ctx)).toBe(1)
    expect(rx.got).toHaveLength(1)
    const row = await h.deps.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, waiting.id)).get()
    expect(row!.status).toBe('failed_unsent')
    expect(row!.reason).toBeString()
    expect(row!.nextAttemptAt).toBeNull()
    expect((await messageOf(h, row!.messageId)).body).toBe(original.body)

    // New events while Free are not sent either.
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'pro' })
    await issueInvoice(h, b.key, await acmeClient(h, b.key), CONSULTING_LINE)
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'free' })
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    expect(rx.got).toHaveLength(1)
    // The webhook is neither deleted nor paused.
    const hook = await h.deps.db.read.select().from(webhooks).where(eq(webhooks.id, w.id)).get()
    expect(hook!.paused).toBe(false)

    // While Free: the API answers the plan gate, and the application's resend is refused webhooks_need_a_paid_plan.
    const viaApi = await h.request('POST', `/v1/webhook-deliveries/${waiting.id}/resend`, { key: b.key })
    expect(viaApi.status).toBe(403)
    expect(viaApi.body.error.code).toBe('paid_plan_required')
    const w2 = { db: h.deps.db, clock: h.clock, resolve: h.deps.resolve, allowPrivate: true }
    await expect(resendDelivery(w2, b.id, waiting.id)).rejects.toMatchObject({ code: 'webhooks_need_a_paid_plan' })
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'paused' })
    await expect(resendDelivery(w2, b.id, waiting.id)).rejects.toMatchObject({ code: 'webhooks_need_a_paid_plan' })
    const count = (await h.deps.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, w.id)))
      .length

    // Back on a paid plan: resend works, same webhook-id and body.
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'pro' })
    rx.answer = () => new Response('ok')
    const resent = await h.request('POST', `/v1/webhook-deliveries/${waiting.id}/resend`, { key: b.key })
    expect(resent.status).toBe(201)
    expect(resent.body.id).not.toBe(waiting.id)
    expect(resent.body.webhook_message_id).toBe(waiting.webhook_message_id)
    expect(resent.body.status).toBe('pending')
    expect(
      (await h.deps.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, w.id))).length,
    ).toBe(count + 1)
    await deliverDue(ctx)
    expect(rx.got).toHaveLength(2)
    const again = rx.got[1]!
    expect(again.headers['webhook-id']).toBe(original.headers['webhook-id'])
    expect(again.body).toBe(original.body)
    expect(verify(w.secret, again).type).toBe('document.issued')
    const list = await deliveries(h, b.key, w.id)
    expect(list.find((d) => d.id === resent.body.id).status).toBe('delivered')
    rx.answer = () => new Response('busy', { status: 500 })
  })

  test('a Test business on Free or Paused is held to the paid-plan rule: nothing is sent, a waiting retry becomes failed_unsent, resend is refused webhooks_need_a_paid_plan', async () => {
    const b = await h.business({ isTest: true, plan: 'pro' })
    const local = receiver(h.clock, () => new Response('busy', { status: 500 }))
    try {
      const w = await addWebhook(h, b.key, local.url)
      await issueInvoice(h, b.key, await acmeClient(h, b.key), CONSULTING_LINE)
      const ctx = deliveryContext(h.deps)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      // On a paid plan a Test business's webhook is delivered like any other.
      expect(local.got).toHaveLength(1)
      verify(w.secret, local.got[0]!)
      const [waiting] = await deliveries(h, b.key, w.id)
      expect(waiting.status).toBe('pending')

      await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'free' })
      h.clock.advance(10 * 60_000)
      expect(await deliverDue(ctx)).toBe(1)
      expect(local.got).toHaveLength(1)
      const row = await h.deps.db.read
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, waiting.id))
        .get()
      expect(row!.status).toBe('failed_unsent')
      expect(row!.nextAttemptAt).toBeNull()
      expect((await messageOf(h, row!.messageId)).body).toBe(local.got[0]!.body)

      // New events while Free are not sent either (the Test business keeps the API, so it still issues).
      await issueInvoice(h, b.key, await acmeClient(h, b.key), CONSULTING_LINE)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      expect(local.got).toHaveLength(1)

      // Resend is refused on Free and on Paused, through the API (which a Test business keeps) and the service.
      const viaApi = await h.request('POST', `/v1/webhook-deliveries/${waiting.id}/resend`, { key: b.key })
      expect(viaApi.body.error.code).toBe('webhooks_need_a_paid_plan')
      const w2 = { db: h.deps.db, clock: h.clock, resolve: h.deps.resolve, allowPrivate: true }
      await expect(resendDelivery(w2, b.id, waiting.id)).rejects.toMatchObject({ code: 'webhooks_need_a_paid_plan' })
      await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'paused' })
      await expect(resendDelivery(w2, b.id, waiting.id)).rejects.toMatchObject({ code: 'webhooks_need_a_paid_plan' })

      // Back on a paid plan the failed_unsent message can be resent and is delivered.
      await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'pro' })
      local.answer = () => new Response('ok')
      const resent = await h.request('POST', `/v1/webhook-deliveries/${waiting.id}/resend`, { key: b.key })
      expect(resent.status).toBe(201)
      await deliverDue(ctx)
      expect(local.got).toHaveLength(2)
      expect(local.got[1]!.headers['webhook-id']).toBe(local.got[0]!.headers['webhook-id'])
      verify(w.secret, local.got[1]!)
    } finally {
      local.stop()
    }
  })

  test('resend on a paused webhook is refused webhook_paused, and writes nothing', async () => {
    const { b, w } = await hookedBusiness(h, rx.url)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    const [d] = await deliveries(h, b.key, w.id)
    await h.request('PATCH', `/v1/webhooks/${w.id}`, { key: b.key, body: { paused: true } })
    const r = await h.request('POST', `/v1/webhook-deliveries/${d.id}/resend`, { key: b.key })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('refusal')
    expect(r.body.error.code).toBe('webhook_paused')
    expect(await deliveries(h, b.key, w.id)).toHaveLength(1)
  })

  test("another Business's delivery cannot be resent (404)", async () => {
    const a = await h.business()
    const other = await h.business()
    const w = await addWebhook(h, a.key, rx.url)
    await issueInvoice(h, a.key, await acmeClient(h, a.key), CONSULTING_LINE)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    const [d] = await deliveries(h, a.key, w.id)
    const r = await h.request('POST', `/v1/webhook-deliveries/${d.id}/resend`, { key: other.key })
    expect(r.status).toBe(404)
  })
})

describe('two processes, restarts, retention', () => {
  let dir: string
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  /** A database file holding one Business with `hooks` webhooks and `events` committed document.issued events. */
  async function seed(hooks: number, events: number, clock: FixedClock) {
    dir = mkdtempSync(join(tmpdir(), 'invoicing-webhooks-'))
    const config = loadConfig({}, { dbPath: join(dir, 'w.db'), webhookAllowPrivate: true, rateLimit: 100_000 })
    const deps = await createDeps(config, { clock, logger: silentLogger, sender: new FakeSender() })
    const app = await buildApp(deps)
    const biz = await createBusiness(deps.db, clock, { name: 'Seeded', country: 'DE', currency: 'EUR', plan: 'pro' })
    const { key } = await createApiKey(deps.db, clock, biz.id, { name: 'admin', role: 'admin' })
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.fetch(
        new Request(`http://localhost${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      )
      return { status: res.status, body: (await res.json()) as any }
    }
    for (let i = 0; i < hooks; i++)
      expect((await call('POST', '/v1/webhooks', { url: `http://127.0.0.1:9/hook-${i}` })).status).toBe(201)
    const c = await call('POST', '/v1/clients', {
      name: 'Acme',
      email: 'a@acme.example',
      country: 'DE',
      currency: 'EUR',
    })
    for (let i = 0; i < events; i++) {
      const d = await call('POST', '/v1/documents', { type: 'invoice', client_id: c.body.id, lines: [CONSULTING_LINE] })
      expect((await call('POST', `/v1/documents/${d.body.id}/issue`)).status).toBe(200)
    }
    await app.requestLog.flush()
    return { config, deps, app }
  }

  /**
   * A second process on the same database file: a real child process (the SQLite driver waits for a lock
   * synchronously, so two connections in one thread would only wait for each other). It polls `deliverDue` (or
   * `dispatchOutbox`) from `startAt` until it finds nothing several times, and prints what its FakeSender was asked.
   */
  async function spawnWorker(mode: 'deliver' | 'dispatch', dbPath: string, at: string, startAt: number) {
    const src = join(import.meta.dir, '..', '..')
    const script = join(dir, `worker-${mode}-${Math.random().toString(36).slice(2)}.ts`)
    await Bun.write(
      script,
      `
import { openDatabase } from ${JSON.stringify(join(src, 'db/client'))}
import { unlockSecrets } from ${JSON.stringify(join(src, 'db/secrets'))}
import { FakeSender } from ${JSON.stringify(join(src, 'adapters/http'))}
import { deliverDue, dispatchOutbox } from ${JSON.stringify(join(src, 'modules/webhooks/delivery'))}
import { FixedClock } from ${JSON.stringify(join(src, 'shared/clock'))}
import { silentLogger } from ${JSON.stringify(join(src, 'shared/logger'))}
const errors: string[] = []
const db = await openDatabase(${JSON.stringify(dbPath)})
// The webhooks' secrets are stored sealed: the worker opens them with the key file beside the database, as a server does.
db.secrets = await unlockSecrets(db, null)
const sender = new FakeSender()
const post = sender.post.bind(sender)
// A short answer time, so the two processes' attempts overlap.
sender.post = async (r) => { await Bun.sleep(20); return post(r) }
const ctx = {
  db, clock: new FixedClock(${JSON.stringify(at)}), sender, resolve: async () => ['127.0.0.1'], allowPrivate: true, build: async () => ({}),
  logger: { ...silentLogger, error: (m: string, f?: unknown) => { errors.push(m + ' ' + JSON.stringify(f)) } },
}
while (Date.now() < ${startAt}) await Bun.sleep(1)
let done = 0, idle = 0
while (idle < 5) {
  const n = ${mode === 'deliver' ? 'await deliverDue(ctx, 5)' : 'await dispatchOutbox(ctx, 3)'}
  done += n
  idle = n === 0 ? idle + 1 : 0
  await Bun.sleep(1)
}
console.log(JSON.stringify({ done, errors, sent: sender.requests.map((r) => r.headers['webhook-id'] + ' ' + r.url.pathname) }))
db.close()
`,
    )
    return Bun.spawn([process.execPath, script], { stdout: 'pipe', stderr: 'pipe' })
  }

  async function outcome(
    p: Awaited<ReturnType<typeof spawnWorker>>,
  ): Promise<{ done: number; errors: string[]; sent: string[] }> {
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited])
    if (code !== 0) throw new Error(`worker failed (${code}): ${err}`)
    return JSON.parse(out.trim().split('\n').at(-1)!)
  }

  /** Two worker processes started together on the database file; answers what each did, both having met no error. */
  async function twoWorkersAtOnce(mode: 'deliver' | 'dispatch', dbPath: string) {
    const startAt = Date.now() + 1500
    const a = spawnWorker(mode, dbPath, '2026-03-10T09:00:01.000Z', startAt)
    const b = spawnWorker(mode, dbPath, '2026-03-10T09:00:01.000Z', startAt)
    const [ra, rb] = await Promise.all([outcome(await a), outcome(await b)])
    expect(ra.errors).toEqual([])
    expect(rb.errors).toEqual([])
    return [ra, rb] as const
  }

  /** Reads the database file over a connection of its own, closed again after `read`. */
  async function inDatabase(dbPath: string, read: (db: Database) => Promise<void>) {
    const db = await openDatabase(dbPath)
    try {
      await read(db)
    } finally {
      db.close()
    }
  }

  test('two processes on one database file delivering at once make every attempt exactly once', async () => {
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const { config, deps } = await seed(3, 20, clock)
    // Fan out: 20 events x 3 webhooks = 60 deliveries due.
    await dispatchOutbox(deliveryContext(deps), 1000)
    deps.db.close()

    const [ra, rb] = await twoWorkersAtOnce('deliver', config.dbPath)
    // Both processes took part.
    expect(ra.sent.length).toBeGreaterThan(0)
    expect(rb.sent.length).toBeGreaterThan(0)
    const sent = [...ra.sent, ...rb.sent]
    // Each of the 60 deliveries attempted exactly once, across both processes.
    expect(sent).toHaveLength(60)
    expect(new Set(sent).size).toBe(60)
    expect(ra.done + rb.done).toBe(60)

    await inDatabase(config.dbPath, async (db) => {
      const rows = await db.read.select().from(webhookDeliveries)
      expect(rows).toHaveLength(60)
      expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true)
      expect(await db.read.select().from(webhookAttempts)).toHaveLength(60)
    })
  }, 30_000)

  test('two processes fanning out the outbox at once create each delivery once', async () => {
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const { config, deps } = await seed(2, 15, clock)
    deps.db.close()
    await twoWorkersAtOnce('dispatch', config.dbPath)
    await inDatabase(config.dbPath, async (db) => {
      const rows = await db.read.select().from(webhookDeliveries)
      expect(rows).toHaveLength(30)
      expect(new Set(rows.map((r) => `${r.messageId} ${r.webhookId}`)).size).toBe(30)
      expect((await db.read.select().from(outbox)).every((e) => e.dispatchedAt !== null)).toBe(true)
    })
  }, 30_000)

  test('after a restart every committed event is delivered: events committed, the process gone before dispatching, a new process delivers them all', async () => {
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const { config, deps } = await seed(2, 6, clock)
    const committed = (await deps.db.read.select().from(outbox).orderBy(asc(outbox.id))).map((e) => e.messageId)
    expect(committed).toHaveLength(6)
    // The process stops with nothing dispatched.
    deps.db.close()

    const sender = new FakeSender()
    const deps2 = await createDeps(config, { clock, logger: silentLogger, sender })
    try {
      const ctx = deliveryContext(deps2)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      expect(sender.requests).toHaveLength(12)
      const ids = sender.requests.map((r) => r.headers['webhook-id'])
      expect([...new Set(ids)].sort()).toEqual([...committed].sort())
      // The messages carry the documents as the new process reads them.
      for (const r of sender.requests) expect(JSON.parse(r.body).data.document.status).toBe('issued')
    } finally {
      deps2.db.close()
    }
  })

  test('a process killed in the middle of an attempt: after its claim lapses another process makes the attempt', async () => {
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const { config, deps } = await seed(1, 1, clock)
    // This process dispatches, claims the delivery and then hangs forever inside the POST (as if killed).
    const hanging = {
      requests: [] as PostRequest[],
      post(r: PostRequest): Promise<PostResult> {
        hanging.requests.push(r)
        return new Promise<PostResult>(() => {})
      },
    }
    const ctxA = { ...deliveryContext(deps), sender: hanging }
    await dispatchOutbox(ctxA)
    void deliverDue(ctxA)
    await Bun.sleep(50)
    expect(hanging.requests).toHaveLength(1)

    const sender = new FakeSender()
    const deps2 = await createDeps(config, { clock, logger: silentLogger, sender })
    try {
      const ctxB = deliveryContext(deps2)
      // While the claim stands, the second process leaves it alone.
      expect(await deliverDue(ctxB)).toBe(0)
      clock.advance(61_000)
      expect(await deliverDue(ctxB)).toBe(1)
      expect(sender.requests).toHaveLength(1)
      expect(sender.requests[0]!.headers['webhook-id']).toBe(hanging.requests[0]!.headers['webhook-id'])
    } finally {
      deps2.db.close()
      deps.db.close()
    }
  })

  test('a process that stalled past its claim does not overwrite the outcome written by the process that claimed it next', async () => {
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const { config, deps } = await seed(1, 1, clock)
    let answerLate: (r: PostResult) => void = () => {}
    const stalled = {
      post(): Promise<PostResult> {
        return new Promise<PostResult>((resolve) => (answerLate = resolve))
      },
    }
    const ctxA = { ...deliveryContext(deps), sender: stalled }
    await dispatchOutbox(ctxA)
    const first = deliverDue(ctxA)
    await Bun.sleep(50)

    const deps2 = await createDeps(config, { clock, logger: silentLogger, sender: new FakeSender() })
    try {
      clock.advance(61_000)
      expect(await deliverDue(deliveryContext(deps2))).toBe(1)
      const [delivered] = await deps.db.read.select().from(webhookDeliveries)
      expect(delivered!.status).toBe('delivered')
      // Now the stalled process's attempt ends, a failure: its write must find the claim gone and leave the row be.
      answerLate({ kind: 'error', error: 'no connection (ECONNRESET)', durationMs: 61_000 })
      await first
      const [after] = await deps.db.read.select().from(webhookDeliveries)
      expect(after).toMatchObject({ status: 'delivered', attempts: delivered!.attempts, nextAttemptAt: null })
    } finally {
      deps2.db.close()
      deps.db.close()
    }
  })

  test('deliveries older than 30 days are erased with their attempts; younger ones stay', async () => {
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const { deps } = await seed(1, 2, clock)
    try {
      const ctx = deliveryContext(deps)
      await dispatchOutbox(ctx, 1)
      await deliverDue(ctx)
      clock.advance(DAY)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      expect(await deps.db.read.select().from(webhookDeliveries)).toHaveLength(2)

      clock.set(new Date(Date.parse('2026-03-10T09:00:00.000Z') + 30 * DAY))
      expect(await pruneDeliveries(deps.db, clock)).toBe(0)
      clock.advance(1)
      expect(await pruneDeliveries(deps.db, clock)).toBe(1)
      const left = await deps.db.read.select().from(webhookDeliveries)
      expect(left).toHaveLength(1)
      expect(left[0]!.createdAt).toBe('2026-03-11T09:00:00.000Z')
      const attempts = await deps.db.read.select().from(webhookAttempts)
      expect(attempts.map((a) => a.deliveryId)).toEqual([left[0]!.id])
    } finally {
      deps.db.close()
    }
  })
})

// ------------------------------------------------------------------------------------------------------------

/** A server's delivery jobs over a database that counts the write transactions they open. */
async function countingWrites() {
  const h = await makeHarness({ config: { webhookAllowPrivate: true } })
  let writes = 0
  const db = { ...h.deps.db, write: ((fn: never) => (writes++, h.deps.db.write(fn))) as typeof h.deps.db.write }
  const ctx: DeliveryContext = { ...deliveryContext(h.deps), db }
  return { h, rx: receiver(h.clock), db, ctx, writes: () => writes, reset: () => void (writes = 0) }
}

describe('an idle server', () => {
  test('the jobs that run every second find nothing due and nothing waiting without a write transaction, and still take work that comes', async () => {
    const { h, rx, db, ctx, writes } = await countingWrites()
    try {
      const appCtx = { ...appDeliveryContext(h.deps), db }
      const b = await h.business()
      const w = await addWebhook(h, b.key, rx.url)
      for (let i = 0; i < 3; i++) {
        expect(await dispatchOutbox(ctx)).toBe(0)
        expect(await deliverDue(ctx)).toBe(0)
        expect(await deliverDueAppWebhooks(appCtx)).toBe(0)
      }
      // Only with the hot reader to ask: through @libsql/client alone (a libSQL server) each job runs its own query.
      if (h.deps.db.hot) expect(writes()).toBe(0)
      // Work that comes is taken at once: an event is fanned out, and its delivery made.
      await issueInvoice(h, b.key, await acmeClient(h, b.key), CONSULTING_LINE)
      expect(await dispatchOutbox(ctx)).toBe(1)
      expect(await deliverDue(ctx)).toBe(1)
      expect(rx.got).toHaveLength(1)
      expect((await deliveries(h, b.key, w.id))[0].status).toBe('delivered')
    } finally {
      rx.stop()
      await h.close()
    }
  })

  test("a paused webhook's waiting message takes no write transaction each second either, and goes once it is on again", async () => {
    const { h, rx, ctx, writes, reset } = await countingWrites()
    try {
      const b = await h.business()
      const w = await addWebhook(h, b.key, rx.url)
      await h.request('PATCH', `/v1/webhooks/${w.id}`, { key: b.key, body: { paused: true } })
      await issueInvoice(h, b.key, await acmeClient(h, b.key), CONSULTING_LINE)
      expect(await dispatchOutbox(ctx)).toBe(1)
      reset()
      for (let i = 0; i < 3; i++) expect(await deliverDue(ctx)).toBe(0)
      if (h.deps.db.hot) expect(writes()).toBe(0)
      expect(rx.got).toHaveLength(0)
      await h.request('PATCH', `/v1/webhooks/${w.id}`, { key: b.key, body: { paused: false } })
      expect(await deliverDue(ctx)).toBe(1)
      expect(rx.got).toHaveLength(1)
    } finally {
      rx.stop()
      await h.close()
    }
  })
})
