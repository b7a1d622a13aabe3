// The real VIES client against a local server speaking the VIES REST protocol, alone and behind POST /v1/clients.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server } from 'bun'
import { buildApp, type App } from '../app'
import { loadConfig } from '../config'
import { createDeps, type Deps } from '../deps'
import { createApiKey, createBusiness } from '../modules/business'
import { FixedClock } from '../shared/clock'
import { silentLogger } from '../shared/logger'
import { contractValidator } from '../../test/harness'
import { httpViesClient } from './vies'

type Behaviour = 'answer' | 'error500' | 'slow' | 'garbled' | 'redirect'

interface Seen {
  method: string
  contentType: string | null
  body: unknown
}

/** A VIES stand-in: answers valid for the numbers it holds; its behaviour can be switched per test. */
let behaviour: Behaviour = 'answer'
const validNumbers = new Set(['DE123456789', 'EL123456789'])
const seen: Seen[] = []
let server: Server<undefined>

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const text = await req.text()
      let body: any = null
      try {
        body = JSON.parse(text)
      } catch {}
      seen.push({ method: req.method, contentType: req.headers.get('content-type'), body })
      if (behaviour === 'error500')
        return new Response('{"errorWrappers":[{"error":"SERVICE_UNAVAILABLE"}]}', { status: 500 })
      if (behaviour === 'slow') await Bun.sleep(1500)
      if (behaviour === 'garbled')
        return new Response('<html>not json</html>', { headers: { 'content-type': 'application/json' } })
      if (behaviour === 'redirect') return Response.redirect(`http://127.0.0.1:${server.port}/elsewhere`, 302)
      const valid = validNumbers.has(`${body?.countryCode}${body?.vatNumber}`)
      return Response.json({
        countryCode: body?.countryCode,
        vatNumber: body?.vatNumber,
        requestDate: '2026-03-10T09:00:00.000Z',
        valid,
        name: valid ? 'ACME GMBH' : '---',
        address: valid ? 'BERLIN' : '---',
      })
    },
  })
})
afterAll(() => server.stop(true))
afterEach(() => {
  behaviour = 'answer'
  seen.length = 0
})

const url = () => `http://127.0.0.1:${server.port}/check-vat-number`

/** A port nothing listens on: one just opened and closed again. */
async function deadUrl(): Promise<string> {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = s.port
  await s.stop(true)
  return `http://127.0.0.1:${port}/check-vat-number`
}

describe('httpViesClient', () => {
  test('a number VIES confirms is true, sent as a JSON POST of {countryCode, vatNumber}', async () => {
    expect(await httpViesClient(url(), 2000).check('DE', '123456789')).toBe(true)
    expect(seen).toEqual([
      { method: 'POST', contentType: 'application/json', body: { countryCode: 'DE', vatNumber: '123456789' } },
    ])
  })

  test('a number VIES denies is false', async () => {
    expect(await httpViesClient(url(), 2000).check('DE', '000000000')).toBe(false)
    expect(seen).toHaveLength(1)
  })

  test('VIES answering 500 is false', async () => {
    behaviour = 'error500'
    expect(await httpViesClient(url(), 2000).check('DE', '123456789')).toBe(false)
  })

  test('VIES answering something that is not JSON is false', async () => {
    behaviour = 'garbled'
    expect(await httpViesClient(url(), 2000).check('DE', '123456789')).toBe(false)
  })

  test('a redirect is not followed and is false', async () => {
    behaviour = 'redirect'
    expect(await httpViesClient(url(), 2000).check('DE', '123456789')).toBe(false)
    expect(seen).toHaveLength(1)
  })

  test('VIES slower than the timeout is false within roughly the timeout', async () => {
    behaviour = 'slow'
    const started = performance.now()
    expect(await httpViesClient(url(), 200).check('DE', '123456789')).toBe(false)
    const took = performance.now() - started
    expect(took).toBeGreaterThanOrEqual(150)
    expect(took).toBeLessThan(1000)
  })

  test('nothing listening is false', async () => {
    const started = performance.now()
    expect(await httpViesClient(await deadUrl(), 2000).check('DE', '123456789')).toBe(false)
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

describe('creating a Client with the real VIES client', () => {
  interface Service {
    deps: Deps
    app: App
    key: string
    dir: string
    request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>
    close(): void
  }

  /** The service built as serve builds it, but with VIES at `viesUrl` and a 300 ms timeout. */
  async function service(viesUrl: string): Promise<Service> {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-vies-'))
    const clock = new FixedClock('2026-03-10T09:00:00.000Z')
    const config = loadConfig({}, { dbPath: join(dir, 'test.db'), viesUrl })
    const deps = await createDeps(config, { vies: httpViesClient(viesUrl, 300), clock, logger: silentLogger })
    const app = await buildApp(deps)
    const validate = await contractValidator(app)
    const biz = await createBusiness(deps.db, clock, { name: 'VIES Test', country: 'DE', currency: 'EUR', plan: 'pro' })
    const key = (await createApiKey(deps.db, clock, biz.id, { name: 'admin', role: 'admin' })).key
    return {
      deps,
      app,
      key,
      dir,
      async request(method, path, body) {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` }
        if (body !== undefined) headers['content-type'] = 'application/json'
        const res = await app.fetch(
          new Request(`http://localhost${path}`, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        )
        const parsed = await res.json()
        validate(method, path, res.status, res.headers, parsed)
        return { status: res.status, body: parsed }
      },
      close() {
        deps.db.close()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }

  let live: Service
  beforeAll(async () => {
    live = await service(url())
  })
  afterAll(async () => {
    await live.app.requestLog.flush()
    live.close()
  })

  test('with VIES confirming, the Client is saved vat_verified true', async () => {
    const r = await live.request('POST', '/v1/clients', {
      name: 'Acme',
      email: 'a@acme.example',
      country: 'DE',
      vat_number: 'DE 123 456 789',
    })
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(true)
    expect(seen.map((s) => s.body)).toEqual([{ countryCode: 'DE', vatNumber: '123456789' }])
  })

  test('with VIES denying, the Client is saved vat_verified false', async () => {
    const r = await live.request('POST', '/v1/clients', {
      name: 'Acme',
      email: 'a@acme.example',
      country: 'DE',
      vat_number: 'DE000000000',
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ vat_number: 'DE000000000', vat_verified: false })
  })

  test('the VAT number is sent to VIES with its country prefix split off', async () => {
    await live.request('POST', '/v1/clients', {
      name: 'Acme',
      email: 'a@acme.example',
      country: 'DE',
      vat_number: 'DE123456789',
    })
    await live.request('POST', '/v1/clients', {
      name: 'Acme AT',
      email: 'a@acme.example',
      country: 'AT',
      vat_number: 'U12345678',
    })
    expect(seen.map((s) => s.body)).toEqual([
      { countryCode: 'DE', vatNumber: '123456789' },
      { countryCode: 'AT', vatNumber: 'U12345678' },
    ])
  })

  test('a Greek Client is checked under VIES prefix EL', async () => {
    for (const vat_number of ['123456789', 'EL123456789', 'GR123456789']) {
      const r = await live.request('POST', '/v1/clients', {
        name: 'Ελληνική',
        email: 'g@gr.example',
        country: 'GR',
        vat_number,
      })
      expect(r.status).toBe(201)
      expect(r.body.vat_verified).toBe(true)
    }
    expect(seen.map((s) => s.body)).toEqual(Array(3).fill({ countryCode: 'EL', vatNumber: '123456789' }))
  })

  test("a non-EU Client's VAT number is not sent to VIES", async () => {
    const r = await live.request('POST', '/v1/clients', {
      name: 'Swiss AG',
      email: 's@ch.example',
      country: 'CH',
      vat_number: 'CHE-123.456.789',
    })
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(false)
    expect(seen).toHaveLength(0)
  })

  test('with VIES too slow, the Client is still saved, vat_verified false, within roughly the timeout', async () => {
    behaviour = 'slow'
    const started = performance.now()
    const r = await live.request('POST', '/v1/clients', {
      name: 'Acme',
      email: 'a@acme.example',
      country: 'DE',
      vat_number: 'DE123456789',
    })
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(false)
    expect(performance.now() - started).toBeLessThan(1200)
  })

  test('a changed VAT number is sent to VIES again on update', async () => {
    const c = await live.request('POST', '/v1/clients', {
      name: 'Acme',
      email: 'a@acme.example',
      country: 'DE',
      vat_number: 'DE000000000',
    })
    expect(c.body.vat_verified).toBe(false)
    const r = await live.request('PATCH', `/v1/clients/${c.body.id}`, { vat_number: 'DE123456789' })
    expect(r.status).toBe(200)
    expect(r.body.vat_verified).toBe(true)
    expect(seen.map((s) => s.body)).toEqual([
      { countryCode: 'DE', vatNumber: '000000000' },
      { countryCode: 'DE', vatNumber: '123456789' },
    ])
  })

  test('with VIES unreachable, the Client is still saved (201) with vat_verified false', async () => {
    const down = await service(await deadUrl())
    try {
      const r = await down.request('POST', '/v1/clients', {
        name: 'Acme',
        email: 'a@acme.example',
        country: 'DE',
        vat_number: 'DE123456789',
      })
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ vat_number: 'DE123456789', vat_verified: false })
      const got = await down.request('GET', `/v1/clients/${r.body.id}`)
      expect(got.body.vat_verified).toBe(false)
    } finally {
      await down.app.requestLog.flush()
      down.close()
    }
  })
})
