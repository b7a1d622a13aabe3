// Webhook management through the API (extensions §5): add, list, read, change, delete, roll; at most ten per
// Business; Admin keys only (Member and Viewer 403 on every route); the secret shown only on create and roll;
// deliveries of the last 30 days with their attempts; another Business's webhook is not found; the CLI adds one.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { cliOnHarness } from '../../../test/cli-on-harness'
import { eq, sql } from 'drizzle-orm'
import { FakeSender } from '../../adapters/http'
import { webhooks } from '../../db/schema'
import { deliveryContext } from '../../jobs/webhooks'
import { deliverDue, dispatchOutbox, pruneDeliveries } from './delivery'
import { issueForNewClient } from './webhooks.testkit'

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/
const DAY = 24 * 3_600_000

let h: Harness
let sender: FakeSender

beforeAll(async () => {
  sender = new FakeSender((r) => ({
    kind: 'answer',
    status: 200,
    excerpt: `took ${r.headers['webhook-id']}`,
    durationMs: 3,
  }))
  h = await makeHarness({ config: { webhookAllowPrivate: true }, overrides: { sender } })
})
afterAll(() => h.close())
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
beforeEach(() => h.clock.advance(61_000))

const url = (n: number | string = 1) => `http://127.0.0.1:9/hook-${n}`

describe('add, read, list, change, delete', () => {
  let key: string

  beforeAll(async () => {
    key = (await h.business()).key
  })

  test('POST answers 201 with the webhook and its secret (whsec_ + 44 characters), shown only then', async () => {
    const r = await h.request('POST', '/v1/webhooks', {
      key,
      body: { url: url('a'), events: ['document.issued', 'payment.recorded'] },
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      url: url('a'),
      events: ['document.issued', 'payment.recorded'],
      paused: false,
      paused_reason: null,
    })
    expect(r.body.secret).toMatch(SECRET)
    expect(r.body.secret.length - 'whsec_'.length).toBe(44)

    const one = await h.request('GET', `/v1/webhooks/${r.body.id}`, { key })
    expect(one.status).toBe(200)
    expect(one.body).not.toHaveProperty('secret')
    expect(one.text).not.toContain('whsec_')
    expect(one.body).toEqual({ ...r.body, secret: undefined })

    const list = await h.request('GET', '/v1/webhooks', { key })
    expect(list.status).toBe(200)
    expect(list.text).not.toContain('whsec_')
    expect(list.body.data.map((w: any) => w.id)).toContain(r.body.id)
  })

  test('events default to every event (an empty list); duplicates are kept once; an unknown event is 422 naming it', async () => {
    const all = await h.request('POST', '/v1/webhooks', { key, body: { url: url('b') } })
    expect(all.status).toBe(201)
    expect(all.body.events).toEqual([])
    const dup = await h.request('POST', '/v1/webhooks', {
      key,
      body: { url: url('c'), events: ['document.paid', 'document.paid'] },
    })
    expect(dup.body.events).toEqual(['document.paid'])
    const bad = await h.request('POST', '/v1/webhooks', {
      key,
      body: { url: url('d'), events: ['document.paid', 'invoice.created'] },
    })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.error.errors)).toEqual(['events.1'])
  })

  test('a field the endpoint does not take (secret, paused on create) is 422; nothing is created', async () => {
    const before = (await h.request('GET', '/v1/webhooks?limit=100', { key })).body.data.length
    const r = await h.request('POST', '/v1/webhooks', { key, body: { url: url('e'), secret: 'whsec_mine' } })
    expect(r.status).toBe(422)
    expect((await h.request('GET', '/v1/webhooks?limit=100', { key })).body.data.length).toBe(before)
  })

  test('PATCH changes url, events and paused; GET shows the change', async () => {
    const w = (await h.request('POST', '/v1/webhooks', { key, body: { url: url('f') } })).body
    const r = await h.request('PATCH', `/v1/webhooks/${w.id}`, {
      key,
      body: { url: url('g'), events: ['document.cancelled'], paused: true },
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      id: w.id,
      url: url('g'),
      events: ['document.cancelled'],
      paused: true,
      paused_reason: 'by_request',
    })
    expect(r.body).not.toHaveProperty('secret')
    expect((await h.request('GET', `/v1/webhooks/${w.id}`, { key })).body).toEqual(r.body)
    const on = await h.request('PATCH', `/v1/webhooks/${w.id}`, { key, body: { paused: false } })
    expect(on.body).toMatchObject({ paused: false, paused_reason: null, url: url('g') })
  })

  test('DELETE answers 204; the webhook is then not found', async () => {
    const w = (await h.request('POST', '/v1/webhooks', { key, body: { url: url('h') } })).body
    expect((await h.request('DELETE', `/v1/webhooks/${w.id}`, { key })).status).toBe(204)
    expect((await h.request('GET', `/v1/webhooks/${w.id}`, { key })).status).toBe(404)
    expect((await h.request('DELETE', `/v1/webhooks/${w.id}`, { key })).status).toBe(404)
    expect((await h.request('GET', `/v1/webhooks/${w.id}/deliveries`, { key })).status).toBe(404)
  })

  test('roll-secret answers the webhook with a new secret, shown once', async () => {
    const w = (await h.request('POST', '/v1/webhooks', { key, body: { url: url('i') } })).body
    const r = await h.request('POST', `/v1/webhooks/${w.id}/roll-secret`, { key })
    expect(r.status).toBe(200)
    expect(r.body.secret).toMatch(SECRET)
    expect(r.body.secret).not.toBe(w.secret)
    expect((await h.request('GET', `/v1/webhooks/${w.id}`, { key })).text).not.toContain('whsec_')
  })

  const open = (stored: string) => h.deps.db.secrets.open(stored, 'webhook-secret')

  test('two rolls at once: each answers a secret, and the previous secret kept is the one the other roll replaced', async () => {
    const w = (await h.request('POST', '/v1/webhooks', { key, body: { url: url('twice') } })).body
    const [a, b] = await Promise.all([1, 2].map(() => h.request('POST', `/v1/webhooks/${w.id}/roll-secret`, { key })))
    expect([a!.status, b!.status]).toEqual([200, 200])
    const sealed = await h.deps.db.read.select().from(webhooks).where(eq(webhooks.id, w.id)).get()
    // Stored sealed (secrets at rest); opened here to compare with what the rolls answered.
    const stored = { secret: open(sealed!.secret), previousSecret: open(sealed!.previousSecret!) }
    const secrets = [a!.body.secret, b!.body.secret]
    expect(secrets).toContain(stored!.secret)
    // The rolls are serialised: the later one keeps the earlier one's secret as previous, never the original's (which
    // would leave a receiver that took the earlier roll's secret unable to verify for 24 hours).
    const other = secrets.find((x) => x !== stored!.secret)
    expect(stored!.previousSecret).toBe(other)
  })

  test('roll-secret takes no body: a field sent with it is 422 naming it, and the secret is not rolled', async () => {
    const w = (await h.request('POST', '/v1/webhooks', { key, body: { url: url('j') } })).body
    const r = await h.request('POST', `/v1/webhooks/${w.id}/roll-secret`, { key, body: { secret: 'whsec_mine' } })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(r.body.error.errors.secret).toBeDefined()
    const stored = await h.deps.db.read.select().from(webhooks).where(eq(webhooks.id, w.id)).get()
    expect({ secret: open(stored!.secret), previous: stored!.previousSecret }).toEqual({
      secret: w.secret,
      previous: null,
    })
    // An empty object is no field at all: the roll is made.
    const rolled = await h.request('POST', `/v1/webhooks/${w.id}/roll-secret`, { key, body: {} })
    expect(rolled.status).toBe(200)
    expect(rolled.body.secret).not.toBe(w.secret)
  })

  test('the list is paged oldest first', async () => {
    const k = (await h.business()).key
    const ids: number[] = []
    for (let i = 0; i < 5; i++)
      ids.push((await h.request('POST', '/v1/webhooks', { key: k, body: { url: url(`p${i}`) } })).body.id)
    const p1 = await h.request('GET', '/v1/webhooks?limit=2', { key: k })
    const p2 = await h.request('GET', `/v1/webhooks?limit=2&cursor=${encodeURIComponent(p1.body.next_cursor)}`, {
      key: k,
    })
    const p3 = await h.request('GET', `/v1/webhooks?limit=2&cursor=${encodeURIComponent(p2.body.next_cursor)}`, {
      key: k,
    })
    expect([...p1.body.data, ...p2.body.data, ...p3.body.data].map((w: any) => w.id)).toEqual(ids)
    expect(p3.body.next_cursor).toBeNull()
  })
})

describe('at most ten webhooks per Business', () => {
  test('the eleventh is refused (422 refusal) and nothing is created; after a delete one can be added again', async () => {
    const b = await h.business()
    const other = await h.business()
    const ids: number[] = []
    for (let i = 0; i < 10; i++) {
      const r = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url(i) } })
      expect(r.status).toBe(201)
      ids.push(r.body.id)
    }
    const eleventh = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url(11) } })
    expect(eleventh.status).toBe(422)
    expect(eleventh.body.error.type).toBe('refusal')
    expect(eleventh.body.error.code).toBeString()
    expect((await h.request('GET', '/v1/webhooks?limit=100', { key: b.key })).body.data).toHaveLength(10)
    // Another Business counts its own.
    expect((await h.request('POST', '/v1/webhooks', { key: other.key, body: { url: url(1) } })).status).toBe(201)
    expect((await h.request('DELETE', `/v1/webhooks/${ids[0]}`, { key: b.key })).status).toBe(204)
    expect((await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url(12) } })).status).toBe(201)
  })
})

describe('Admin keys only', () => {
  let b: { id: number; key: string }
  let hookId: number
  let deliveryId: number

  beforeAll(async () => {
    b = await h.business()
    hookId = (await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url() } })).body.id
    await issueForNewClient(h, b.key)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    deliveryId = (await h.request('GET', `/v1/webhooks/${hookId}/deliveries`, { key: b.key })).body.data[0].id
  })

  const routes = (id: () => number, delivery: () => number): Array<[string, () => string, unknown?]> => [
    ['GET', () => '/v1/webhooks'],
    ['POST', () => '/v1/webhooks', { url: url('role') }],
    ['GET', () => `/v1/webhooks/${id()}`],
    ['PATCH', () => `/v1/webhooks/${id()}`, { paused: true }],
    ['DELETE', () => `/v1/webhooks/${id()}`],
    ['POST', () => `/v1/webhooks/${id()}/roll-secret`],
    ['GET', () => `/v1/webhooks/${id()}/deliveries`],
    ['POST', () => `/v1/webhook-deliveries/${delivery()}/resend`],
  ]

  for (const role of ['member', 'viewer'] as const) {
    test(`a ${role} key is answered 403 permission on every webhook route, for real and unknown ids alike, and changes nothing`, async () => {
      const k = await h.key(b.id, role)
      for (const [method, path, body] of [
        ...routes(
          () => hookId,
          () => deliveryId,
        ),
        ...routes(
          () => 999_999,
          () => 999_999,
        ),
      ]) {
        const r = await h.request(method, path(), { key: k, body })
        expect(`${method} ${path()} ${r.status} ${r.body?.error?.type}`).toBe(`${method} ${path()} 403 permission`)
      }
      const hook = await h.request('GET', `/v1/webhooks/${hookId}`, { key: b.key })
      expect(hook.body.paused).toBe(false)
      expect((await h.request('GET', '/v1/webhooks', { key: b.key })).body.data).toHaveLength(1)
      expect((await h.request('GET', `/v1/webhooks/${hookId}/deliveries`, { key: b.key })).body.data).toHaveLength(1)
    })
  }
})

describe('tenant isolation', () => {
  test("another Business's webhook and deliveries are answered 404 and are not listed; nothing changes", async () => {
    const a = await h.business()
    const z = await h.business()
    const w = (await h.request('POST', '/v1/webhooks', { key: a.key, body: { url: url('mine') } })).body
    await issueForNewClient(h, a.key)
    await dispatchOutbox(deliveryContext(h.deps))
    const delivery = (await h.request('GET', `/v1/webhooks/${w.id}/deliveries`, { key: a.key })).body.data[0]

    expect((await h.request('GET', `/v1/webhooks/${w.id}`, { key: z.key })).status).toBe(404)
    expect(
      (await h.request('PATCH', `/v1/webhooks/${w.id}`, { key: z.key, body: { paused: true, url: url('theirs') } }))
        .status,
    ).toBe(404)
    expect((await h.request('POST', `/v1/webhooks/${w.id}/roll-secret`, { key: z.key })).status).toBe(404)
    expect((await h.request('GET', `/v1/webhooks/${w.id}/deliveries`, { key: z.key })).status).toBe(404)
    expect((await h.request('POST', `/v1/webhook-deliveries/${delivery.id}/resend`, { key: z.key })).status).toBe(404)
    expect((await h.request('DELETE', `/v1/webhooks/${w.id}`, { key: z.key })).status).toBe(404)
    expect((await h.request('GET', '/v1/webhooks', { key: z.key })).body.data).toEqual([])

    const still = await h.request('GET', `/v1/webhooks/${w.id}`, { key: a.key })
    expect(still.body).toMatchObject({ url: url('mine'), paused: false })
    expect((await h.request('GET', `/v1/webhooks/${w.id}/deliveries`, { key: a.key })).body.data).toHaveLength(1)
  })
})

describe('deliveries list', () => {
  test('each delivery with its event, address, state and every attempt (time, duration, status, start of the answer); only the last 30 days; erased by retention', async () => {
    const b = await h.business()
    const w = (await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url('list') } })).body
    await issueForNewClient(h, b.key)
    const ctx = { ...deliveryContext(h.deps), jitter: () => 0 }
    sender.answer = () => ({ kind: 'answer', status: 500, excerpt: 'x'.repeat(1024), durationMs: 7 })
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    const attemptedAt = h.clock.now().toISOString()
    h.clock.advance(5_000)
    sender.answer = (r) => ({ kind: 'answer', status: 200, excerpt: `took ${r.headers['webhook-id']}`, durationMs: 3 })
    await deliverDue(ctx)

    const list = await h.request('GET', `/v1/webhooks/${w.id}/deliveries`, { key: b.key })
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    const one = list.body.data[0]
    expect(one).toMatchObject({
      webhook_id: w.id,
      event: 'document.issued',
      url: url('list'),
      status: 'delivered',
      next_attempt_at: null,
    })
    expect(one.webhook_message_id).toMatch(/^msg_[0-9A-Z]{26}$/)
    expect(one.attempts).toEqual([
      { at: attemptedAt, duration_ms: 7, status_code: 500, error: null, response: 'x'.repeat(1024) },
      {
        at: h.clock.now().toISOString(),
        duration_ms: 3,
        status_code: 200,
        error: null,
        response: `took ${one.webhook_message_id}`,
      },
    ])

    // Past 30 days it is no longer listed, and retention erases it.
    h.clock.advance(30 * DAY + 1)
    expect((await h.request('GET', `/v1/webhooks/${w.id}/deliveries`, { key: b.key })).body.data).toEqual([])
    expect(await pruneDeliveries(h.deps.db, h.clock)).toBeGreaterThanOrEqual(1)
  })
})

describe('CLI: invoicing webhook add', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    cliOnHarness(h, args, { env: { INVOICING_WEBHOOK_ALLOW_PRIVATE: '', ...env } })

  test('prints the webhook with its secret once; the API then lists it without the secret', async () => {
    const b = await h.business()
    const p = run(
      [
        'webhook',
        'add',
        String(b.id),
        '--url',
        'http://127.0.0.1:9/cli',
        '--events',
        'document.issued,payment.recorded',
      ],
      {
        INVOICING_WEBHOOK_ALLOW_PRIVATE: '1',
      },
    )
    expect(p.code, p.err).toBe(0)
    const out = p.json()
    expect(out).toMatchObject({
      url: 'http://127.0.0.1:9/cli',
      events: ['document.issued', 'payment.recorded'],
      paused: false,
    })
    expect(out.secret).toMatch(SECRET)
    const listed = await h.request('GET', '/v1/webhooks', { key: b.key })
    expect(listed.body.data.map((w: any) => w.id)).toEqual([out.id])
    expect(listed.text).not.toContain('whsec_')
  })

  test('a refused address exits non-zero with a one-line message naming url, and adds nothing', async () => {
    const b = await h.business()
    const p = run(['webhook', 'add', String(b.id), '--url', 'http://127.0.0.1:9/cli'])
    expect(p.code).not.toBe(0)
    const err = p.err
    expect(err.split('\n')).toHaveLength(1)
    expect(err).toContain('url')
    expect((await h.request('GET', '/v1/webhooks', { key: b.key })).body.data).toEqual([])
  })
})

describe('the signing secret under an Idempotency-Key', () => {
  test('a replay of the create answers the webhook without its secret, and no stored answer holds it', async () => {
    const b = await h.business()
    const headers = { 'Idempotency-Key': 'hook-once' }
    const first = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url('secret-once') }, headers })
    expect(first.status).toBe(201)
    expect(first.body.secret).toMatch(SECRET)
    // Rolled (say, after a leak): the old secret must not come back through the key.
    expect((await h.request('POST', `/v1/webhooks/${first.body.id}/roll-secret`, { key: b.key })).status).toBe(200)
    const replay = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: url('secret-once') }, headers })
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body.id).toBe(first.body.id)
    expect(replay.body.secret).toBeUndefined()
    expect(replay.text).not.toContain('whsec_')
    const stored = await h.deps.db.read.all<{ body: string }>(sql`SELECT body FROM idempotency_keys`)
    for (const row of stored) expect(row.body).not.toContain('whsec_')
  })
})
