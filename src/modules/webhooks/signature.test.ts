// Standard Webhooks signing: secrets are `whsec_` + 44 characters, every message verifies with the
// `standardwebhooks` library (real receiver, real httpSender), and after a secret roll both the new and the old
// secret verify for 24 hours, then only the new one.
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from 'bun:test'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import type { Harness } from '../../../test/harness'
import { deliveryContext } from '../../jobs/webhooks'
import { deliverDue, dispatchOutbox } from './delivery'
import { messageId, microTimestamp } from './outbox'
import { newSecret, sign, signatureHeader } from './signature'
import { issueInvoice, liveDeliveryHarness, receiver, verify, type Received } from './webhooks.testkit'

describe('secrets, ids and signatures (units)', () => {
  test('a secret is whsec_ + 44 characters of base64 (32 random bytes), never twice the same', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 50; i++) {
      const s = newSecret()
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(s.length).toBe(6 + 44)
      expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32)
      seen.add(s)
    }
    expect(seen.size).toBe(50)
  })

  test('sign() is what the standardwebhooks library computes and verifies', () => {
    const secret = newSecret()
    const id = messageId(new Date('2026-03-10T09:00:00Z'))
    const ts = Math.floor(Date.now() / 1000)
    const body = JSON.stringify({ type: 'document.issued', ünïcode: '€ 100,00' })
    const wh = new Webhook(secret)
    expect(sign(secret, id, ts, body)).toBe(wh.sign(id, new Date(ts * 1000), body))
    expect(
      wh.verify(body, {
        'webhook-id': id,
        'webhook-timestamp': String(ts),
        'webhook-signature': sign(secret, id, ts, body),
      }),
    ).toEqual(JSON.parse(body))
  })

  test('a signature over another body, id or timestamp does not verify', () => {
    const secret = newSecret()
    const id = messageId(new Date())
    const ts = Math.floor(Date.now() / 1000)
    const wh = new Webhook(secret)
    const headers = (sig: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sig })
    expect(() => wh.verify('{"a":2}', headers(sign(secret, id, ts, '{"a":1}')))).toThrow(WebhookVerificationError)
    expect(() => wh.verify('{"a":1}', headers(sign(secret, messageId(new Date()), ts, '{"a":1}')))).toThrow(
      WebhookVerificationError,
    )
    expect(() => wh.verify('{"a":1}', headers(sign(secret, id, ts - 1, '{"a":1}')))).toThrow(WebhookVerificationError)
    expect(() => wh.verify('{"a":1}', headers(sign(newSecret(), id, ts, '{"a":1}')))).toThrow(WebhookVerificationError)
  })

  test('during a roll the header carries two signatures separated by a space, each verifying with its own secret', () => {
    const [fresh, old] = [newSecret(), newSecret()]
    const id = messageId(new Date())
    const ts = Math.floor(Date.now() / 1000)
    const header = signatureHeader([fresh, old], id, ts, '{}')
    expect(header.split(' ')).toEqual([sign(fresh, id, ts, '{}'), sign(old, id, ts, '{}')])
    for (const s of [fresh, old])
      expect(
        new Webhook(s).verify('{}', { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': header }),
      ).toEqual({})
  })

  test('webhook-id is msg_ + 26 Crockford base32 characters, sortable by time, unique', () => {
    const a = messageId(new Date('2026-03-10T09:00:00.000Z'))
    const b = messageId(new Date('2026-03-10T09:00:00.001Z'))
    expect(a).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(a.slice(0, 14) < b.slice(0, 14)).toBe(true)
    expect(new Set(Array.from({ length: 100 }, () => messageId(new Date(0)))).size).toBe(100)
  })

  test('the message timestamp is UTC ISO 8601 with microseconds', () => {
    expect(microTimestamp(new Date('2026-03-10T09:00:00.123Z'))).toBe('2026-03-10T09:00:00.123000Z')
    expect(microTimestamp(new Date('2026-03-10T09:00:00.000Z'))).toBe('2026-03-10T09:00:00.000000Z')
  })
})

describe('every delivery verifies with the standardwebhooks library, through a secret roll', () => {
  let h: Harness
  let key: string
  let clientId: number
  let hookId: number
  let first: string
  let rx: ReturnType<typeof receiver>

  beforeAll(async () => {
    // The library refuses a webhook-timestamp more than 5 minutes from its clock: the service runs on the real now.
    h = await liveDeliveryHarness()
    rx = receiver(h.clock)
    const b = await h.business()
    key = b.key
    clientId = await h.client(key, { name: 'Acme', email: 'a@acme.example', currency: 'EUR' })
    const w = await h.request('POST', '/v1/webhooks', { key, body: { url: rx.url } })
    expect(w.status).toBe(201)
    hookId = w.body.id
    first = w.body.secret
  })
  afterAll(async () => {
    rx.stop()
    await h.close()
  })

  /** One event, delivered; returns the message the receiver got. */
  async function oneMessage() {
    await issueInvoice(h, key, clientId)
    const before = rx.got.length
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    expect(rx.got.length).toBe(before + 1)
    return rx.got.at(-1)!
  }

  /** Verifies as a receiver whose clock reads the time the message arrived. */
  function verifies(secret: string, m: Received): boolean {
    try {
      verify(secret, m)
      return true
    } catch (e) {
      if (e instanceof WebhookVerificationError) return false
      throw e
    }
  }

  test('a delivery verifies with the secret shown at creation, on the real clock', async () => {
    const m = await oneMessage()
    // On the real clock, with no help.
    expect(new Webhook(first).verify(m.body, m.headers)).toMatchObject({ type: 'document.issued' })
    expect(m.headers['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(m.headers['webhook-signature']).toStartWith('v1,')
    expect(verifies(newSecret(), m)).toBe(false)
  })

  test('the library refuses a message more than 5 minutes from its clock (why the tests run the service on the real now)', async () => {
    const m = await oneMessage()
    setSystemTime(new Date(m.at.getTime() + 6 * 60_000))
    try {
      expect(() => new Webhook(first).verify(m.body, m.headers)).toThrow(WebhookVerificationError)
    } finally {
      setSystemTime()
    }
  })

  test('after roll-secret both the new and the old secret verify for 24 hours; after 24 h + 1 s only the new one', async () => {
    const rolledAt = h.clock.now().getTime()
    const r = await h.request('POST', `/v1/webhooks/${hookId}/roll-secret`, { key })
    expect(r.status).toBe(200)
    const second: string = r.body.secret
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(second).not.toBe(first)
    // GET never shows a secret.
    const shown = await h.request('GET', `/v1/webhooks/${hookId}`, { key })
    expect(shown.body.secret).toBeUndefined()
    expect(shown.text).not.toContain('whsec_')

    const right = await oneMessage()
    expect(right.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(verifies(second, right)).toBe(true)
    expect(verifies(first, right)).toBe(true)
    // Also on the real clock, with no help.
    expect(new Webhook(second).verify(right.body, right.headers)).toBeDefined()
    expect(new Webhook(first).verify(right.body, right.headers)).toBeDefined()

    h.clock.set(new Date(rolledAt + 24 * 3_600_000 - 1_000))
    const late = await oneMessage()
    expect(verifies(second, late)).toBe(true)
    expect(verifies(first, late)).toBe(true)

    h.clock.set(new Date(rolledAt + 24 * 3_600_000 + 1_000))
    const after = await oneMessage()
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(verifies(second, after)).toBe(true)
    expect(verifies(first, after)).toBe(false)
  })

  test('rolling again within 24 hours: the newest and the one before sign; the oldest no longer does', async () => {
    h.clock.set(new Date())
    const second = (await h.request('POST', `/v1/webhooks/${hookId}/roll-secret`, { key })).body.secret
    const third = (await h.request('POST', `/v1/webhooks/${hookId}/roll-secret`, { key })).body.secret
    const m = await oneMessage()
    expect(verifies(third, m)).toBe(true)
    expect(verifies(second, m)).toBe(true)
    expect(verifies(first, m)).toBe(false)
  })

  test('a retry of a message sent before the roll is signed with the secrets standing at the retry', async () => {
    h.clock.set(new Date())
    const failing = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('no', { status: 503 }) })
    try {
      const w = await h.request('POST', '/v1/webhooks', { key, body: { url: `http://127.0.0.1:${failing.port}/hook` } })
      const before: string = w.body.secret
      const ctx = { ...deliveryContext(h.deps), jitter: () => 0 }
      await issueInvoice(h, key, clientId)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      const rolled = (await h.request('POST', `/v1/webhooks/${w.body.id}/roll-secret`, { key })).body.secret
      await h.request('PATCH', `/v1/webhooks/${w.body.id}`, {
        key,
        body: { url: rx.url },
      })
      const n = rx.got.length
      h.clock.advance(5_000)
      await deliverDue(ctx)
      // Only the retry arrives (the first webhook already took its copy).
      expect(rx.got.length).toBe(n + 1)
      const retry = rx.got.at(-1)!
      expect(verifies(rolled, retry)).toBe(true)
      expect(verifies(before, retry)).toBe(true)
      await h.request('DELETE', `/v1/webhooks/${w.body.id}`, { key })
    } finally {
      failing.stop(true)
    }
  })
})
