// The contract's six idempotency rules over real POST /v1/clients requests, and the in-flight wait on the class itself.
import { describe, expect, jest, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { type Harness, type TestResponse, harnessForFile } from '../../test/harness'
import { idempotencyKeys } from '../db/schema'
import { createApiKey } from '../modules/business'
import { IdempotencyInFlight } from '../shared/errors'
import { answerResponse } from '../doors/api/answer'
import { errorResponse } from '../doors/api/errors'
import {
  expireIdempotencyKeys,
  Idempotency,
  IDEMPOTENCY_TTL_MS,
  type Answer,
  type IdempotentRequest,
} from './idempotency'

/** The API door's use of the record: the answer written as its HTTP response. */
async function run(idem: Idempotency, req: IdempotentRequest, perform: () => Promise<Answer>): Promise<Response> {
  const { answer, replayed } = await idem.answer(req, perform)
  return answerResponse(answer, replayed)
}

let h: Harness
harnessForFile((made) => (h = made))

const base = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

function post(key: string, body: unknown, idempotencyKey?: string): Promise<TestResponse> {
  return h.request('POST', '/v1/clients', {
    key,
    body,
    headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
  })
}

async function clientCount(key: string): Promise<number> {
  const r = await h.request('GET', '/v1/clients?limit=100', { key })
  expect(r.status).toBe(200)
  return r.body.data.length
}

async function storedKeys(apiKey: string): Promise<number> {
  return (await h.deps.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, apiKey)).all()).length
}

/** A promise the test resolves by hand. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((r) => (open = r))
  return { promise, open }
}

describe('rule 1: same key, same body', () => {
  test('50 concurrent identical creates under one key make exactly one Client; all answer 201 with identical bytes', async () => {
    const b = await h.business()
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(b.key, base, 'fifty-at-once')))
    for (const r of answers) expect(r.status).toBe(201)
    expect(new Set(answers.map((r) => r.text)).size).toBe(1)
    const replayed = answers.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')
    expect(replayed.length).toBe(49)
    expect(await clientCount(b.key)).toBe(1)
  })

  test('a replay later returns the first answer byte for byte with Idempotent-Replayed: true', async () => {
    const b = await h.business()
    const first = await post(b.key, base, 'replay-me')
    expect(first.status).toBe(201)
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    h.clock.advance(60 * 60 * 1000)
    const again = await post(b.key, base, 'replay-me')
    expect(again.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await clientCount(b.key)).toBe(1)
  })

  test('a key is remembered until 24 hours have passed, then forgotten: the same request creates again', async () => {
    const b = await h.business()
    const first = await post(b.key, base, 'day-long')
    h.clock.advance(IDEMPOTENCY_TTL_MS - 1000)
    const within = await post(b.key, base, 'day-long')
    expect(within.headers.get('Idempotent-Replayed')).toBe('true')
    expect(within.text).toBe(first.text)
    h.clock.advance(2000)
    const after = await post(b.key, base, 'day-long')
    expect(after.status).toBe(201)
    expect(after.headers.get('Idempotent-Replayed')).toBeNull()
    expect(after.body.id).not.toBe(first.body.id)
    expect(await clientCount(b.key)).toBe(2)
  })
})

describe('rule 2: same key, another body', () => {
  test('is 422 idempotency and creates nothing', async () => {
    const b = await h.business()
    expect((await post(b.key, base, 'one-body')).status).toBe(201)
    const other = await post(b.key, { ...base, name: 'Someone Else' }, 'one-body')
    expect(other.status).toBe(422)
    expect(other.body.error.type).toBe('idempotency')
    expect(other.body.error.message).toBeString()
    expect(other.headers.get('Idempotent-Replayed')).toBeNull()
    expect(await clientCount(b.key)).toBe(1)
  })

  test('the body is compared as parsed JSON (extensions §11): the same fields in another order and layout replay; another value is another body', async () => {
    const b = await h.business()
    const raw1 = JSON.stringify({ name: 'A', email: 'a@b.de', country: 'DE' })
    const raw2 = JSON.stringify({ country: 'DE', email: 'a@b.de', name: 'A' }, null, 2)
    const raw3 = JSON.stringify({ name: 'A', email: 'a@b.de', country: 'AT' })
    const headers = { 'content-type': 'application/json', 'Idempotency-Key': 'order' }
    const first = await h.request('POST', '/v1/clients', { key: b.key, raw: raw1, headers })
    expect(first.status).toBe(201)
    const r = await h.request('POST', '/v1/clients', { key: b.key, raw: raw2, headers })
    expect(r.status).toBe(201)
    expect(r.headers.get('Idempotent-Replayed')).toBe('true')
    expect(r.text).toBe(first.text)
    const other = await h.request('POST', '/v1/clients', { key: b.key, raw: raw3, headers })
    expect(other.status).toBe(422)
    expect(other.body.error.type).toBe('idempotency')
    expect(await clientCount(b.key)).toBe(1)
  })
})

describe('rule 3: a refused request keeps no key', () => {
  test('a 422 refused by the service keeps no key: the corrected body under the same key is created', async () => {
    const b = await h.business()
    const other = await h.business()
    const foreign = await h.bankAccount(other.id)
    const refused = await post(b.key, { ...base, preferred_bank_account_ids: [foreign] }, 'fix-and-resend')
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe('invalid_request')
    expect(await storedKeys('fix-and-resend')).toBe(0)
    const fixed = await post(b.key, base, 'fix-and-resend')
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get('Idempotent-Replayed')).toBeNull()
    expect(await clientCount(b.key)).toBe(1)
  })

  test('a body refused by validation keeps no key either', async () => {
    const b = await h.business()
    expect((await post(b.key, { country: 'DE' }, 'validation-first')).status).toBe(422)
    const fixed = await post(b.key, base, 'validation-first')
    expect(fixed.status).toBe(201)
    expect(await clientCount(b.key)).toBe(1)
  })

  test('a request answered 429 keeps no key: resent after the window it is created once', async () => {
    const b = await h.business()
    for (let i = 0; i < 120; i++) await h.request('GET', '/v1/business', { key: b.key })
    expect((await post(b.key, base, 'after-429')).status).toBe(429)
    h.clock.advance(60_000)
    const r = await post(b.key, base, 'after-429')
    expect(r.status).toBe(201)
    expect(r.headers.get('Idempotent-Replayed')).toBeNull()
  })
})

describe('rule 4: simultaneous requests under one key', () => {
  test('a duplicate sent while the first is still running waits for it and answers its result', async () => {
    const b = await h.business()
    const gate = latch()
    const entered = latch()
    const real = h.vies.check
    let checks = 0
    h.vies.check = async () => {
      checks++
      entered.open()
      await gate.promise
      return false
    }
    try {
      const body = { ...base, vat_number: 'DE111111111' }
      const first = post(b.key, body, 'slow-first')
      await entered.promise
      let secondDone = false
      const second = post(b.key, body, 'slow-first').finally(() => (secondDone = true))
      await Bun.sleep(50)
      expect(secondDone).toBe(false)
      gate.open()
      const [a, c] = await Promise.all([first, second])
      expect(a.status).toBe(201)
      expect(c.status).toBe(201)
      expect(c.text).toBe(a.text)
      expect(c.headers.get('Idempotent-Replayed')).toBe('true')
      expect(checks).toBe(1)
      expect(await clientCount(b.key)).toBe(1)
    } finally {
      h.vies.check = real
    }
  })

  test('a duplicate waits up to 10 seconds; while the first still runs it is 409 idempotency_in_flight and performs nothing', async () => {
    const { id } = await createApiKey(h.deps.db, h.clock, (await h.business()).id, { name: 'direct', role: 'admin' })
    const idem = new Idempotency(h.deps.db, h.clock)
    const req = { apiKeyId: id, key: 'still-running', method: 'POST', path: '/v1/clients', rawBody: '{"name":"A"}' }
    const gate = latch()
    const entered = latch()
    let performed = 0
    const first = run(idem, req, async () => {
      performed++
      entered.open()
      await gate.promise
      return { status: 201, body: '{"id":1}' }
    })
    await entered.promise

    jest.useFakeTimers()
    let second: Promise<Response>
    let settled = false
    try {
      second = run(idem, req, async () => {
        performed++
        return { status: 201, body: '{"id":2}' }
      })
      second.then(
        () => (settled = true),
        () => (settled = true),
      )
      jest.advanceTimersByTime(9_999)
      for (let i = 0; i < 10; i++) await Promise.resolve()
      expect(settled).toBe(false)
      jest.advanceTimersByTime(1)
    } finally {
      jest.useRealTimers()
    }
    const err = await second!.then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(IdempotencyInFlight)
    const res = errorResponse(err as IdempotencyInFlight)
    expect(res.status).toBe(409)
    const answer = (await res.json()) as any
    expect(answer.error.type).toBe('idempotency_in_flight')
    expect(answer.error.message).toBeString()

    gate.open()
    const r = await first
    expect(r.status).toBe(201)
    expect(await r.text()).toBe('{"id":1}')
    expect(performed).toBe(1)
    // Resent once the first has finished, the request answers the first result.
    const resent = await run(idem, req, async () => {
      performed++
      return { status: 201, body: '{"id":3}' }
    })
    expect(resent.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await resent.text()).toBe('{"id":1}')
    expect(performed).toBe(1)
  })
})

describe('rule 5: a key belongs to the API key that sent it', () => {
  test('another key of the same Business with the same Idempotency-Key creates a new Client', async () => {
    const b = await h.business()
    const second = await h.key(b.id, 'member', 'second')
    const a = await post(b.key, base, 'shared-words')
    const c = await post(second, base, 'shared-words')
    expect(a.status).toBe(201)
    expect(c.status).toBe(201)
    expect(c.headers.get('Idempotent-Replayed')).toBeNull()
    expect(c.body.id).not.toBe(a.body.id)
    // And each key still replays its own.
    expect((await post(second, base, 'shared-words')).text).toBe(c.text)
    expect((await post(b.key, base, 'shared-words')).text).toBe(a.text)
    expect(await clientCount(b.key)).toBe(2)
  })

  test('another key with the same Idempotency-Key and another body is not refused', async () => {
    const b = await h.business()
    const second = await h.key(b.id, 'admin', 'second')
    expect((await post(b.key, base, 'mine')).status).toBe(201)
    expect((await post(second, { ...base, name: 'Other' }, 'mine')).status).toBe(201)
  })

  test('expireIdempotencyKeys deletes keys older than 24 hours and keeps younger ones', async () => {
    const b = await h.business()
    expect((await post(b.key, base, 'old-one')).status).toBe(201)
    h.clock.advance(IDEMPOTENCY_TTL_MS - 60_000)
    expect((await post(b.key, base, 'young-one')).status).toBe(201)
    h.clock.advance(60_001)
    const removed = await expireIdempotencyKeys(h.deps.db, h.clock)
    expect(removed).toBeGreaterThanOrEqual(1)
    expect(await storedKeys('old-one')).toBe(0)
    expect(await storedKeys('young-one')).toBe(1)
  })
})

describe('rule 6 and the key itself', () => {
  test('without a key, the same body sent twice makes two Clients', async () => {
    const b = await h.business()
    const a = await post(b.key, base)
    const c = await post(b.key, base)
    expect(a.status).toBe(201)
    expect(c.status).toBe(201)
    expect(c.body.id).not.toBe(a.body.id)
    expect(c.headers.get('Idempotent-Replayed')).toBeNull()
    expect(await clientCount(b.key)).toBe(2)
  })

  test('an invalid Idempotency-Key (a space, 256 characters, empty) is 422 naming the header, and nothing is created', async () => {
    const b = await h.business()
    for (const bad of ['has space', 'k'.repeat(256), '', 'tab\there']) {
      const r = await post(b.key, base, bad)
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toEqual(['Idempotency-Key'])
    }
    expect(await clientCount(b.key)).toBe(0)
  })

  test('a 255-character key of printable characters is accepted', async () => {
    const b = await h.business()
    const key = '!~'.repeat(127) + 'Z'
    expect(key.length).toBe(255)
    expect((await post(b.key, base, key)).status).toBe(201)
    expect((await post(b.key, base, key)).headers.get('Idempotent-Replayed')).toBe('true')
  })
})
