// Bodies are JSON objects of bounded depth on every route; anything else is 422 and nothing is done.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { draftFor, makeHarness, type Harness } from '../../../test/harness'

let h: Harness
let biz: { id: number; key: string }
let clientId: number

beforeAll(async () => {
  // Loopback webhook addresses allowed, so a webhook can be made without DNS.
  h = await makeHarness({ config: { webhookAllowPrivate: true } })
  biz = await h.business()
  clientId = await h.client(biz.key)
})
afterAll(() => h.close())
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
beforeEach(() => h.clock.advance(61_000))

const json = { 'content-type': 'application/json' }

async function draft(): Promise<number> {
  return (
    await draftFor(
      h,
      { bizId: biz.id, key: biz.key, clientId },
      { lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }] },
    )
  ).id
}

describe('a body that is not a JSON object', () => {
  test('a bare string, number, boolean, null or array sent to Issue is 422 naming body, and the Draft stays a Draft', async () => {
    const id = await draft()
    for (const raw of ['"x"', '1', 'true', 'null', '[]', '[1]']) {
      const r = await h.request('POST', `/v1/documents/${id}/issue`, { key: biz.key, raw, headers: json })
      expect({ raw, status: r.status, type: r.body.error.type }).toEqual({ raw, status: 422, type: 'invalid_request' })
      expect(r.body.error.errors.body).toBeDefined()
    }
    expect((await h.request('GET', `/v1/documents/${id}`, { key: biz.key })).body.document_number).toBeNull()
    // No body at all, or {}, still issues it.
    expect(
      (await h.request('POST', `/v1/documents/${id}/issue`, { key: biz.key, raw: '{}', headers: json })).status,
    ).toBe(200)
  })

  test('a create with an array body is 422 naming body, and nothing is created', async () => {
    const before = (await h.request('GET', '/v1/clients?limit=100', { key: biz.key })).body.data.length
    const r = await h.request('POST', '/v1/clients', {
      key: biz.key,
      raw: '[{"name":"A","email":"a@b.de","country":"DE"}]',
      headers: json,
    })
    expect(r.status).toBe(422)
    expect(r.body.error.errors.body).toBeDefined()
    expect((await h.request('GET', '/v1/clients?limit=100', { key: biz.key })).body.data.length).toBe(before)
  })
})

describe('nesting', () => {
  test('a body nested 50,000 levels deep (about 100 KB) is 422 naming body, never a 500', async () => {
    const raw = `{"notes":${'['.repeat(50_000)}${']'.repeat(50_000)}}`
    const r = await h.request('PATCH', `/v1/clients/${clientId}`, { key: biz.key, raw, headers: json })
    expect(r.status).toBe(422)
    expect(r.body.error.errors.body[0]).toContain('nested')
  })

  test('a NUL character deep in a Line is still named by its field path', async () => {
    const r = await h.request('POST', '/v1/documents', {
      key: biz.key,
      body: {
        type: 'invoice',
        client_id: clientId,
        lines: [
          { description: 'ok', quantity: '1', unit_price: '1.00' },
          { description: 'bad\u0000', quantity: '1', unit_price: '1.00' },
        ],
      },
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.error.errors)).toEqual(['lines.1.description'])
  })
})

describe('DELETE takes no body', () => {
  test('a field sent with DELETE of a Product, a Draft or a webhook is 422 naming it, and nothing is deleted', async () => {
    const product = await h.request('POST', '/v1/products', {
      key: biz.key,
      body: { name: 'Widget', type: 'product', price: '10.00', currency: 'EUR' },
    })
    const id = await draft()
    const webhook = await h.request('POST', '/v1/webhooks', { key: biz.key, body: { url: 'http://127.0.0.1:9/in' } })
    for (const path of [`/v1/products/${product.body.id}`, `/v1/documents/${id}`, `/v1/webhooks/${webhook.body.id}`]) {
      const r = await h.request('DELETE', path, { key: biz.key, body: { zzz_unknown: 1 } })
      expect({ path, status: r.status }).toEqual({ path, status: 422 })
      expect(r.body.error.errors.zzz_unknown).toBeDefined()
      expect((await h.request('GET', path, { key: biz.key })).status).toBe(200)
      expect((await h.request('DELETE', path, { key: biz.key })).status).toBe(204)
    }
  })
})
