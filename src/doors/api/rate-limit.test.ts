// The per-key rate limit over real requests: 120 a minute, what counts, the 429 and the headers on every answer.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'

let h: Harness

beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

const base = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

const unixSeconds = (d: Date) => Math.ceil(d.getTime() / 1000)

async function clientCount(key: string): Promise<number> {
  const r = await h.request('GET', '/v1/clients?limit=100', { key })
  expect(r.status).toBe(200)
  return r.body.data.length
}

/** Spends `n` requests of the key on a cheap read, each expected to pass. */
async function spend(key: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await h.request('GET', '/v1/business', { key })
    expect(r.status).toBe(200)
  }
}

describe('headers', () => {
  test('every answer to a live key carries X-RateLimit-Limit 120, Remaining counting the request just answered, and Reset in unix seconds', async () => {
    const b = await h.business()
    const windowStart = h.clock.now()
    const answers = [
      await h.request('GET', '/v1/business', { key: b.key }),
      await h.request('POST', '/v1/clients', { key: b.key, body: base }),
      await h.request('GET', '/v1/clients/999999', { key: b.key }),
      await h.request('POST', '/v1/clients', { key: b.key, body: { country: 'DE' } }),
      await h.request('GET', '/v1/request-log', { key: await h.key(b.id, 'viewer') }),
    ]
    expect(answers.map((r) => r.status)).toEqual([200, 201, 404, 422, 403])
    answers.forEach((r, i) => {
      expect(r.headers.get('X-RateLimit-Limit')).toBe('120')
      // The Viewer's key has its own count.
      expect(r.headers.get('X-RateLimit-Remaining')).toBe(String(i < 4 ? 119 - i : 119))
      expect(r.headers.get('X-RateLimit-Reset')).toBe(String(unixSeconds(windowStart) + 60))
    })
  })

  test("the window starts with the key's first request: Reset stays put while the clock moves within it", async () => {
    const b = await h.business()
    const first = await h.request('GET', '/v1/business', { key: b.key })
    const reset = Number(first.headers.get('X-RateLimit-Reset'))
    h.clock.advance(42_000)
    const later = await h.request('GET', '/v1/business', { key: b.key })
    expect(Number(later.headers.get('X-RateLimit-Reset'))).toBe(reset)
    expect(later.headers.get('X-RateLimit-Remaining')).toBe('118')
    // A minute after the first request a new window opens with the next one.
    h.clock.advance(18_000)
    const next = await h.request('GET', '/v1/business', { key: b.key })
    expect(next.headers.get('X-RateLimit-Remaining')).toBe('119')
    expect(Number(next.headers.get('X-RateLimit-Reset'))).toBe(unixSeconds(h.clock.now()) + 60)
  })
})

describe('the limit', () => {
  test('the 121st request in a window is 429 rate_limit with Retry-After and does nothing', async () => {
    const b = await h.business()
    await spend(b.key, 119)
    const last = await h.request('GET', '/v1/clients', { key: b.key })
    expect(last.status).toBe(200)
    expect(last.headers.get('X-RateLimit-Remaining')).toBe('0')
    const over = await h.request('POST', '/v1/clients', { key: b.key, body: base })
    expect(over.status).toBe(429)
    expect(over.body.error.type).toBe('rate_limit')
    expect(over.body.error.message).toContain('120')
    expect(over.headers.get('Retry-After')).toBe('60')
    expect(over.body.error.message).toContain('60 seconds')
    expect(over.headers.get('X-RateLimit-Limit')).toBe('120')
    expect(over.headers.get('X-RateLimit-Remaining')).toBe('0')
    expect(over.headers.get('X-RateLimit-Reset')).toBe(last.headers.get('X-RateLimit-Reset'))
    // Nothing was created: the next window shows an empty list.
    h.clock.advance(60_000)
    expect(await clientCount(b.key)).toBe(0)
  })

  test('Retry-After counts down to the end of the window, and the limit lifts when it ends', async () => {
    const b = await h.business()
    await spend(b.key, 120)
    h.clock.advance(45_500)
    const over = await h.request('GET', '/v1/business', { key: b.key })
    expect(over.status).toBe(429)
    expect(over.headers.get('Retry-After')).toBe('15')
    h.clock.advance(14_499)
    expect((await h.request('GET', '/v1/business', { key: b.key })).status).toBe(429)
    h.clock.advance(1)
    const again = await h.request('GET', '/v1/business', { key: b.key })
    expect(again.status).toBe(200)
    expect(again.headers.get('X-RateLimit-Remaining')).toBe('119')
  })

  test('a resent create after a 429 is performed once the window has passed', async () => {
    const b = await h.business()
    await spend(b.key, 120)
    expect((await h.request('POST', '/v1/clients', { key: b.key, body: base })).status).toBe(429)
    h.clock.advance(60_000)
    expect((await h.request('POST', '/v1/clients', { key: b.key, body: base })).status).toBe(201)
    expect(await clientCount(b.key)).toBe(1)
  })

  test('another key of the same Business is unaffected by a key over its limit', async () => {
    const b = await h.business()
    const second = await h.key(b.id, 'admin', 'second')
    await spend(b.key, 120)
    expect((await h.request('GET', '/v1/business', { key: b.key })).status).toBe(429)
    const r = await h.request('POST', '/v1/clients', { key: second, body: base })
    expect(r.status).toBe(201)
    expect(r.headers.get('X-RateLimit-Remaining')).toBe('119')
  })

  test('404s on known paths and 422s count against the limit', async () => {
    const b = await h.business()
    for (let i = 0; i < 60; i++)
      expect((await h.request('GET', `/v1/clients/${900000 + i}`, { key: b.key })).status).toBe(404)
    for (let i = 0; i < 60; i++)
      expect((await h.request('GET', '/v1/clients?limit=0', { key: b.key })).status).toBe(422)
    const over = await h.request('GET', '/v1/business', { key: b.key })
    expect(over.status).toBe(429)
  })

  test('403s and 405s of a live key count against the limit', async () => {
    const b = await h.business()
    const viewer = await h.key(b.id, 'viewer')
    for (let i = 0; i < 60; i++)
      expect((await h.request('POST', '/v1/clients', { key: viewer, body: base })).status).toBe(403)
    for (let i = 0; i < 60; i++) expect((await h.request('DELETE', '/v1/clients', { key: viewer })).status).toBe(405)
    expect((await h.request('GET', '/v1/business', { key: viewer })).status).toBe(429)
  })

  test('unknown paths cost nothing: 200 of them leave the whole limit', async () => {
    const b = await h.business()
    for (let i = 0; i < 200; i++)
      expect((await h.request('GET', '/v1/unknown-endpoint', { key: b.key })).status).toBe(404)
    const r = await h.request('GET', '/v1/business', { key: b.key })
    expect(r.status).toBe(200)
    expect(r.headers.get('X-RateLimit-Remaining')).toBe('119')
  })

  test("an unknown path's 404 to a live key carries the rate headers, uncounted; to no key or an unknown one, none", async () => {
    const b = await h.business()
    expect((await h.request('GET', '/v1/business', { key: b.key })).headers.get('X-RateLimit-Remaining')).toBe('119')
    const r = await h.request('GET', '/v1/unknown-endpoint', { key: b.key })
    expect(r.status).toBe(404)
    expect(r.headers.get('X-RateLimit-Limit')).toBe('120')
    expect(r.headers.get('X-RateLimit-Remaining')).toBe('119')
    expect(Number(r.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(0)
    for (const key of [null, 'inv_unknown']) {
      const anonymous = await h.request('GET', '/v1/unknown-endpoint', { key })
      expect(anonymous.status).toBe(404)
      expect(anonymous.headers.get('X-RateLimit-Limit')).toBeNull()
    }
  })

  test('the plan gate answers before the rate limit', async () => {
    const b = await h.business({ plan: 'free' })
    for (let i = 0; i < 121; i++) await h.request('GET', '/v1/business', { key: b.key })
    const r = await h.request('GET', '/v1/business', { key: b.key })
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('paid_plan_required')
  })
})
