// The real VIES client against a local server speaking the VIES REST protocol, alone and behind POST /v1/clients.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import type { Server } from 'bun'
import { makeHarness, type Harness } from '../../test/harness'
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
  /** The service with VIES at `viesUrl` behind the real client and a 300 ms timeout, and an Admin key of a Business. */
  async function service(viesUrl: string): Promise<{ h: Harness; key: string }> {
    const h = await makeHarness({ config: { viesUrl }, overrides: { vies: httpViesClient(viesUrl, 300) } })
    return { h, key: (await h.business()).key }
  }

  const ACME = { name: 'Acme', email: 'a@acme.example', country: 'DE' }

  /** POST /v1/clients for a Client with this VAT number: Acme of Germany unless `who` says otherwise. */
  function clientWithVat(s: { h: Harness; key: string }, vat_number: string, who = ACME) {
    return s.h.request('POST', '/v1/clients', { key: s.key, body: { ...who, vat_number } })
  }

  let live: { h: Harness; key: string }
  beforeAll(async () => {
    live = await service(url())
  })
  afterAll(() => live.h.close())

  test('with VIES confirming, the Client is saved vat_verified true', async () => {
    const r = await clientWithVat(live, 'DE 123 456 789')
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(true)
    expect(seen.map((s) => s.body)).toEqual([{ countryCode: 'DE', vatNumber: '123456789' }])
  })

  test('with VIES denying, the Client is saved vat_verified false', async () => {
    const r = await clientWithVat(live, 'DE000000000')
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ vat_number: 'DE000000000', vat_verified: false })
  })

  test('the VAT number is sent to VIES with its country prefix split off', async () => {
    await clientWithVat(live, 'DE123456789')
    await clientWithVat(live, 'U12345678', { name: 'Acme AT', email: 'a@acme.example', country: 'AT' })
    expect(seen.map((s) => s.body)).toEqual([
      { countryCode: 'DE', vatNumber: '123456789' },
      { countryCode: 'AT', vatNumber: 'U12345678' },
    ])
  })

  test('a Greek Client is checked under VIES prefix EL', async () => {
    for (const vat_number of ['123456789', 'EL123456789', 'GR123456789']) {
      const r = await clientWithVat(live, vat_number, { name: 'Ελληνική', email: 'g@gr.example', country: 'GR' })
      expect(r.status).toBe(201)
      expect(r.body.vat_verified).toBe(true)
    }
    expect(seen.map((s) => s.body)).toEqual(Array(3).fill({ countryCode: 'EL', vatNumber: '123456789' }))
  })

  test("a non-EU Client's VAT number is not sent to VIES", async () => {
    const r = await clientWithVat(live, 'CHE-123.456.789', { name: 'Swiss AG', email: 's@ch.example', country: 'CH' })
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(false)
    expect(seen).toHaveLength(0)
  })

  test('with VIES too slow, the Client is still saved, vat_verified false, within roughly the timeout', async () => {
    behaviour = 'slow'
    const started = performance.now()
    const r = await clientWithVat(live, 'DE123456789')
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(false)
    expect(performance.now() - started).toBeLessThan(1200)
  })

  test('a changed VAT number is sent to VIES again on update', async () => {
    const c = await clientWithVat(live, 'DE000000000')
    expect(c.body.vat_verified).toBe(false)
    const r = await live.h.request('PATCH', `/v1/clients/${c.body.id}`, {
      key: live.key,
      body: { vat_number: 'DE123456789' },
    })
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
      const r = await clientWithVat(down, 'DE123456789')
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({ vat_number: 'DE123456789', vat_verified: false })
      const got = await down.h.request('GET', `/v1/clients/${r.body.id}`, { key: down.key })
      expect(got.body.vat_verified).toBe(false)
    } finally {
      await down.h.close()
    }
  })
})
