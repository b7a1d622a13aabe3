// The contract's error answers over real requests: every type, its status, its shape, and nothing internal leaking out.
import { describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { businessForFile, makeHarness, type Harness, type TestResponse } from '../../../test/harness'
import { setNumbering } from '../../modules/business'
import { fromValidation } from './errors'
import { Text } from '../../shared/text-schema'

let h: Harness
let biz: { id: number; key: string }
businessForFile((t) => ({ h, biz } = t))

const base = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

/** No stack frame, database or framework word, source path or file name in an answer. */
function expectNothingInternal(text: string): void {
  expect(text).not.toMatch(/\n\s*at\s/)
  expect(text).not.toMatch(/\bat\s+\S+\s+\(.*:\d+:\d+\)/)
  expect(text).not.toMatch(/SQLITE|libsql|drizzle|typebox|elysia|constraint failed/i)
  expect(text).not.toMatch(/\/work\/|\/src\/|node_modules|[\w-]+\.(ts|js):\d+/)
}

function expectError(r: TestResponse, status: number, type: string): void {
  expect(r.status).toBe(status)
  expect(r.headers.get('content-type')).toContain('application/json')
  expect(Object.keys(r.body)).toEqual(['error'])
  expect(r.body.error.type).toBe(type)
  expect(typeof r.body.error.message).toBe('string')
  expect(r.body.error.message.length).toBeGreaterThan(0)
  expectNothingInternal(r.text)
}

async function clientCount(key: string): Promise<number> {
  const r = await h.request('GET', '/v1/clients?limit=100', { key })
  expect(r.status).toBe(200)
  expect(r.body.next_cursor).toBeNull()
  return r.body.data.length
}

/** Serves the app on a real port, for requests only a socket can carry (Content-Length, chunked bodies, the peer's IP). */
async function withServer(fn: (base: string) => Promise<void>): Promise<Headers[]> {
  const seen: Headers[] = []
  const server = Bun.serve({
    port: 0,
    fetch: (req, srv) => {
      seen.push(req.headers)
      return h.app.fetch(req, srv)
    },
  })
  try {
    await fn(`http://localhost:${server.port}`)
    return seen
  } finally {
    server.stop(true)
  }
}

describe('not_found', () => {
  test('an unknown path is 404 not_found JSON, answered without any credential', async () => {
    for (const [method, path] of [
      ['GET', '/nothing-here'],
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/clientz'],
      ['GET', '/v2/clients'],
    ] as const) {
      const r = await h.request(method, path)
      expectError(r, 404, 'not_found')
    }
  })

  test('an unknown path is not counted against the rate limit: X-RateLimit-Remaining is unchanged on the next real request', async () => {
    const key = await h.key(biz.id, 'admin', 'not-found counter')
    const before = await h.request('GET', '/v1/business', { key })
    expect(before.headers.get('X-RateLimit-Remaining')).toBe('119')
    for (let i = 0; i < 5; i++) expectError(await h.request('GET', `/v1/no-such-thing/${i}`, { key }), 404, 'not_found')
    const after = await h.request('GET', '/v1/business', { key })
    expect(after.headers.get('X-RateLimit-Remaining')).toBe('118')
  })

  test('an unknown record is 404 not_found, on reads and on writes', async () => {
    expectError(await h.request('GET', '/v1/clients/999999', { key: biz.key }), 404, 'not_found')
    expectError(await h.request('GET', '/v1/clients/not-a-number', { key: biz.key }), 404, 'not_found')
    expectError(
      await h.request('PATCH', '/v1/clients/999999', { key: biz.key, body: { notes: 'x' } }),
      404,
      'not_found',
    )
  })

  test("another Business's Client is answered 404 as if it did not exist, and is left unchanged", async () => {
    const other = await h.business()
    const created = await h.request('POST', '/v1/clients', { key: other.key, body: base })
    expect(created.status).toBe(201)
    const id = created.body.id
    expectError(await h.request('GET', `/v1/clients/${id}`, { key: biz.key }), 404, 'not_found')
    expectError(
      await h.request('PATCH', `/v1/clients/${id}`, { key: biz.key, body: { notes: 'taken over' } }),
      404,
      'not_found',
    )
    const still = await h.request('GET', `/v1/clients/${id}`, { key: other.key })
    expect(still.body.notes).toBeNull()
  })
})

describe('invalid_request', () => {
  test('a refused body is 422 invalid_request with errors keyed by field, and nothing is created', async () => {
    const key = (await h.business()).key
    const r = await h.request('POST', '/v1/clients', { key, body: { country: 'DE', name: 'No Mail' } })
    expectError(r, 422, 'invalid_request')
    expect(r.body.error.errors.email).toEqual([expect.any(String)])
    expect(await clientCount(key)).toBe(0)
  })

  test('a field the endpoint does not take (a typo or a read-only field) is 422 naming it', async () => {
    const r = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: { ...base, id: 7, vat_verified: true, emial: 'x@y.de' },
    })
    expectError(r, 422, 'invalid_request')
    expect(Object.keys(r.body.error.errors).sort()).toEqual(['emial', 'id', 'vat_verified'])
  })

  test('a body key "__proto__" is a field the endpoint does not take, named like any other, and nothing is created', async () => {
    const key = (await h.business()).key
    const raw = '{"name":"x","email":"a@b.co","country":"DE","__proto__":{"x":1}}'
    const r = await h.request('POST', '/v1/clients', { key, raw, headers: { 'content-type': 'application/json' } })
    expectError(r, 422, 'invalid_request')
    expect(Object.keys(r.body.error.errors)).toEqual(['__proto__'])
    expect(r.body.error.errors['__proto__']).toEqual(['is not a field this endpoint takes'])
    expect(r.body.error.message).toBe('__proto__: is not a field this endpoint takes')
    // Beside other unknown fields, each is named; on update too.
    const both = await h.request('POST', '/v1/clients', {
      key,
      raw: '{"name":"x","email":"a@b.co","country":"DE","__proto__":1,"emial":"x"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(Object.keys(both.body.error.errors).sort()).toEqual(['__proto__', 'emial'])
    const made = await h.request('POST', '/v1/clients', { key: biz.key, body: base })
    const patch = await h.request('PATCH', `/v1/clients/${made.body.id}`, {
      key: biz.key,
      raw: '{"__proto__":{"notes":"x"}}',
      headers: { 'content-type': 'application/json' },
    })
    expectError(patch, 422, 'invalid_request')
    expect(Object.keys(patch.body.error.errors)).toEqual(['__proto__'])
    expect(await clientCount(key)).toBe(0)
  })

  test("another Business's bank account in a list is refused under its index: preferred_bank_account_ids.0, .1", async () => {
    const other = await h.business()
    const foreign = await h.bankAccount(other.id)
    const own = await h.bankAccount(biz.id)
    const first = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: { ...base, preferred_bank_account_ids: [foreign] },
    })
    expectError(first, 422, 'invalid_request')
    expect(Object.keys(first.body.error.errors)).toEqual(['preferred_bank_account_ids.0'])
    const second = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: { ...base, preferred_bank_account_ids: [own, foreign] },
    })
    expectError(second, 422, 'invalid_request')
    expect(Object.keys(second.body.error.errors)).toEqual(['preferred_bank_account_ids.1'])
  })

  test('a list item of the wrong type is named by its index, with words for what it must be', async () => {
    const own = await h.bankAccount(biz.id)
    const wrongType = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: { ...base, preferred_bank_account_ids: [own, 'x'] },
    })
    expectError(wrongType, 422, 'invalid_request')
    expect(wrongType.body.error.errors).toEqual({ 'preferred_bank_account_ids.1': ['must be a whole number'] })
    const outOfRange = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: { ...base, preferred_bank_account_ids: [own, 0] },
    })
    expectError(outOfRange, 422, 'invalid_request')
    expect(outOfRange.body.error.errors).toEqual({ 'preferred_bank_account_ids.1': ['must be at least 1'] })
  })

  test('a decimal sent as a JSON number is 422 invalid_request naming the field', async () => {
    const r = await h.request('POST', '/v1/clients', { key: biz.key, body: { ...base, credit_limit: 1500.5 } })
    expectError(r, 422, 'invalid_request')
    expect(r.body.error.errors.credit_limit[0]).toContain('decimal string')
  })

  test('a refused value is never echoed back in the answer', async () => {
    const sentinel = 'ZZSENTINELZZ'
    const r = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: {
        ...base,
        name: sentinel.repeat(30),
        phone: sentinel.repeat(10),
        payment_terms: sentinel,
        email: 12345,
        account_code: `Q${sentinel}`,
      },
    })
    expectError(r, 422, 'invalid_request')
    expect(Object.keys(r.body.error.errors).length).toBeGreaterThanOrEqual(3)
    expect(r.text).not.toContain(sentinel)
    expect(r.text).not.toContain('12345')
  })

  test('malformed JSON is 400 invalid_request and nothing is created', async () => {
    const key = (await h.business()).key
    const r = await h.request('POST', '/v1/clients', {
      key,
      raw: '{"name": "Acme", ',
      headers: { 'content-type': 'application/json' },
    })
    expectError(r, 400, 'invalid_request')
    expect(r.body.error.errors).toBeUndefined()
    expect(await clientCount(key)).toBe(0)
  })

  test('a write with a body in another content type is 415 invalid_request, on POST and PATCH', async () => {
    const key = (await h.business()).key
    const json = JSON.stringify(base)
    expectError(
      await h.request('POST', '/v1/clients', { key, raw: json, headers: { 'content-type': 'text/plain' } }),
      415,
      'invalid_request',
    )
    expectError(
      await h.request('POST', '/v1/clients', {
        key,
        raw: 'name=Acme',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'invalid_request',
    )
    const created = await h.request('POST', '/v1/clients', { key, body: base })
    expect(created.status).toBe(201)
    const patch = await h.request('PATCH', `/v1/clients/${created.body.id}`, {
      key,
      raw: JSON.stringify({ notes: 'x' }),
      headers: { 'content-type': 'text/plain' },
    })
    expectError(patch, 415, 'invalid_request')
    expect((await h.request('GET', `/v1/clients/${created.body.id}`, { key })).body.notes).toBeNull()
    expect(await clientCount(key)).toBe(1)
  })

  test('application/json with a charset parameter is accepted', async () => {
    const r = await h.request('POST', '/v1/clients', {
      key: biz.key,
      raw: JSON.stringify(base),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(r.status).toBe(201)
  })

  test('a body over 1 MiB sent with Content-Length is 413 invalid_request and nothing is created', async () => {
    const key = (await h.business()).key
    const body = JSON.stringify({ ...base, notes: 'x'.repeat(1024 * 1024) })
    const seen = await withServer(async (url) => {
      const res = await fetch(`${url}/v1/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      })
      expect(res.status).toBe(413)
      const answer = (await res.json()) as any
      expect(answer.error.type).toBe('invalid_request')
      expectNothingInternal(JSON.stringify(answer))
    })
    expect(Number(seen[0]!.get('content-length'))).toBe(Buffer.byteLength(body))
    expect(await clientCount(key)).toBe(0)
  })

  test('a chunked body (no Content-Length) over 1 MiB is 413 invalid_request and nothing is created', async () => {
    const key = (await h.business()).key
    const enc = new TextEncoder()
    const chunk = enc.encode('x'.repeat(64 * 1024))
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode(`{"name":"Acme","email":"a@b.de","country":"DE","notes":"`))
        for (let i = 0; i < 17; i++) c.enqueue(chunk)
        c.enqueue(enc.encode('"}'))
        c.close()
      },
    })
    const seen = await withServer(async (url) => {
      const res = await fetch(`${url}/v1/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: stream,
      })
      expect(res.status).toBe(413)
      expect(((await res.json()) as any).error.type).toBe('invalid_request')
    })
    expect(seen[0]!.get('content-length')).toBeNull()
    expect(seen[0]!.get('transfer-encoding')).toBe('chunked')
    expect(await clientCount(key)).toBe(0)
  })

  test('a body of exactly 1 MiB is not refused for its size', async () => {
    const key = (await h.business()).key
    // Padded with whitespace between tokens: no field takes a megabyte (Client notes stop at 10,000 characters).
    const head = JSON.stringify(base)
    const body = head.slice(0, -1) + ' '.repeat(1024 * 1024 - head.length) + '}'
    expect(Buffer.byteLength(body)).toBe(1024 * 1024)
    const r = await h.request('POST', '/v1/clients', {
      key,
      raw: body,
      headers: { 'content-type': 'application/json' },
    })
    expect(r.status).toBe(201)
  })

  test('a method a path does not have is 405 invalid_request with an Allow header', async () => {
    const list = await h.request('DELETE', '/v1/clients', { key: biz.key })
    expectError(list, 405, 'invalid_request')
    expect(list.headers.get('Allow')).toBe('GET, POST')
    const one = await h.request('PUT', '/v1/clients/1', { key: biz.key, body: base })
    expectError(one, 405, 'invalid_request')
    expect(one.headers.get('Allow')).toBe('GET, PATCH')
    const business = await h.request('POST', '/v1/business', { key: biz.key, body: {} })
    expectError(business, 405, 'invalid_request')
    expect(business.headers.get('Allow')).toBe('GET')
  })

  // These two go straight to app.fetch: the harness's contract check expects only 405 on a method a path lacks.
  test('a public page answers 405 with Allow without any key; on an API path the key is asked first (401)', async () => {
    const page = await h.request('POST', '/openapi.json', { body: {} })
    expectError(page, 405, 'invalid_request')
    expect(page.headers.get('Allow')).toBe('GET')
    const res = await h.app.fetch(new Request('http://localhost/v1/clients', { method: 'DELETE' }))
    expect(res.status).toBe(401)
    expect(((await res.json()) as any).error.type).toBe('authentication')
  })

  test("a 405 on a free plan is the plan gate's 403 paid_plan_required, which comes before any other answer", async () => {
    const b = await h.business({ plan: 'free' })
    const res = await h.app.fetch(
      new Request('http://localhost/v1/clients', { method: 'DELETE', headers: { authorization: `Bearer ${b.key}` } }),
    )
    expect(res.status).toBe(403)
    const body = (await res.json()) as any
    expect(body.error).toMatchObject({ type: 'permission', code: 'paid_plan_required', remedy: 'choose_plan' })
  })

  test('a 405 to a live key is counted and carries the rate-limit headers like any other answer', async () => {
    const key = await h.key(biz.id, 'admin', '405 counter')
    const r = await h.request('DELETE', '/v1/clients', { key })
    expect(r.status).toBe(405)
    expect(r.headers.get('X-RateLimit-Limit')).toBe('120')
    expect(r.headers.get('X-RateLimit-Remaining')).toBe('119')
    const next = await h.request('GET', '/v1/business', { key })
    expect(next.headers.get('X-RateLimit-Remaining')).toBe('118')
  })
})

describe('fromValidation and Text, without a request', () => {
  const schema = Type.Object(
    {
      name: Type.Optional(Type.Union([Text({ maxLength: 3, minLength: 1 }), Type.Null()])),
      lines: Type.Optional(
        Type.Array(
          Type.Object(
            { notes: Type.Optional(Text({ maxLength: 2 })), quantity: Type.Optional(Type.String()) },
            { additionalProperties: false },
          ),
        ),
      ),
    },
    { additionalProperties: false },
  )
  const check = TypeCompiler.Compile(schema)
  const errorsFor = (value: unknown) => fromValidation('body', [...check.Errors(value)]).errors

  test('Text counts characters of the trimmed value: emoji count one each, spaces around count none', () => {
    for (const name of ['😀😀😀', '  abc ', 'a', null])
      expect({ name, ok: check.Check({ name }) }).toEqual({ name, ok: true })
    expect(errorsFor({ name: '😀😀😀😀' })).toEqual({ name: ['must be at most 3 characters'] })
    expect(errorsFor({ name: '   ' })).toEqual({ name: ['must not be empty'] })
    expect(errorsFor({ name: 3 })).toEqual({ name: ['must be a string or null'] })
  })

  test('Text stays a plain string with maxLength in JSON (the OpenAPI document), where JSON Schema counts characters too', () => {
    expect(JSON.parse(JSON.stringify(Text({ maxLength: 255 })))).toEqual({ type: 'string', maxLength: 255 })
  })

  test('an error under lines.N names the Line by its place N+1, once; other keys are left as they are', () => {
    expect(errorsFor({ lines: [{ notes: 'ok' }, { notes: 'abc', quantity: 1 }, 'x'], extra: 1 })).toEqual({
      'lines.1.notes': ['Line 2: must be at most 2 characters'],
      'lines.1.quantity': ['Line 2: must be a string'],
      'lines.2': ['Line 3: must be a JSON object'],
      extra: ['is not a field this endpoint takes'],
    })
    expect(errorsFor({ lines: {} })).toEqual({ lines: ['must be a list'] })
  })

  test('a key "__proto__" is an own key of the errors, never the prototype', () => {
    const errors = errorsFor(JSON.parse('{"__proto__":{"x":1}}'))
    expect(Object.keys(errors)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype)
    expect(JSON.parse(JSON.stringify(errors))).toEqual(
      JSON.parse('{"__proto__":["is not a field this endpoint takes"]}'),
    )
  })
})

describe('refusal', () => {
  test('the 9th Client under account codes X{N} is 422 refusal numbering_at_its_end, and nothing is written', async () => {
    const b = await h.business()
    await setNumbering(h.deps.db, b.id, 'client', 'X{N}')
    const codes: string[] = []
    for (let i = 1; i <= 8; i++) {
      const r = await h.request('POST', '/v1/clients', { key: b.key, body: { ...base, name: `Client ${i}` } })
      expect(r.status).toBe(201)
      codes.push(r.body.account_code)
    }
    expect(codes).toEqual(['X1', 'X2', 'X3', 'X4', 'X5', 'X6', 'X7', 'X8'])
    const ninth = await h.request('POST', '/v1/clients', { key: b.key, body: { ...base, name: 'Client 9' } })
    expectError(ninth, 422, 'refusal')
    expect(ninth.body.error.code).toBe('numbering_at_its_end')
    expect(ninth.body.error.errors).toBeUndefined()
    // The same request stays refused until something changes.
    const again = await h.request('POST', '/v1/clients', { key: b.key, body: { ...base, name: 'Client 9' } })
    expect(again.body.error.code).toBe('numbering_at_its_end')
    expect(await clientCount(b.key)).toBe(8)
  })
})

describe('nothing internal leaks', () => {
  test('an unexpected failure inside a request answers without its internal message or stack', async () => {
    const real = h.vies.check
    const realLogger = h.deps.logger
    const logged: string[] = []
    h.deps.logger = { info() {}, error: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields ?? {})}`) }
    h.vies.check = async () => {
      const e = new Error('SQLITE_BUSY: database is locked at /work/main/src/db/client.ts:42:7')
      e.stack = `${e.message}\n    at check (/work/main/src/adapters/vies.ts:12:3)`
      throw e
    }
    try {
      const res = await h.app.fetch(
        new Request('http://localhost/v1/clients', {
          method: 'POST',
          headers: { authorization: `Bearer ${biz.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...base, vat_number: 'DE999999999' }),
        }),
      )
      const text = await res.text()
      expectNothingInternal(text)
      expect(text).not.toContain('database is locked')
      if (res.status >= 400) {
        const body = JSON.parse(text)
        expect(Object.keys(body)).toEqual(['error'])
        expect(typeof body.error.type).toBe('string')
        expect(typeof body.error.message).toBe('string')
      }
      // The operator's log is where the failure is told, still without a stack.
      if (res.status >= 500) expect(logged.join('\n')).not.toMatch(/\n\s*at\s/)
    } finally {
      h.vies.check = real
      h.deps.logger = realLogger
    }
  })
})

describe('server_error', () => {
  test('a fault on our side (a table gone from under the service) answers 500 server_error, telling nothing internal', async () => {
    const own = await makeHarness()
    try {
      const b = await own.business()
      const created = await own.request('POST', '/v1/clients', { key: b.key, body: base })
      expect(created.status).toBe(201)
      await own.deps.db.writerClient.execute('ALTER TABLE clients RENAME TO clients_gone')
      // Straight through the app: the harness rightly refuses answers the contract does not declare for a route.
      const res = await own.app.fetch(
        new Request(`http://localhost/v1/clients/${created.body.id}`, {
          headers: { authorization: `Bearer ${b.key}` },
        }),
      )
      const text = await res.text()
      expect(res.status).toBe(500)
      expect(JSON.parse(text)).toEqual({ error: { type: 'server_error', message: expect.any(String) } })
      expectNothingInternal(text)
      expect(text).not.toMatch(/clients|SQL|table/i)
      expect(res.headers.get('x-request-id')).toBeTruthy()
    } finally {
      await own.close()
    }
  })
})

describe('X-Request-Id', () => {
  test('every answer carries its own X-Request-Id, whatever its status or path', async () => {
    const answers = [
      await h.request('GET', '/nothing-here'),
      await h.request('GET', '/v1/clients'),
      await h.request('GET', '/v1/clients', { key: 'inv_unknown' }),
      await h.request('GET', '/v1/clients', { key: biz.key }),
      await h.request('DELETE', '/v1/clients', { key: biz.key }),
      await h.request('POST', '/v1/clients', { key: biz.key, body: {} }),
      await h.request('GET', '/openapi.json'),
      await h.request('GET', '/docs'),
      await h.request('GET', '/health'),
    ]
    const ids = answers.map((r) => r.headers.get('X-Request-Id'))
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
