// Who may call: authentication (401), Role permission (403) and the plan gate, over real requests.
import { describe, expect, test } from 'bun:test'
import { businessForFile, type Harness, type TestResponse } from '../../../test/harness'
import { createApiKey, revokeApiKey, updateBusiness } from '../../modules/business'

let h: Harness
let biz: { id: number; key: string }
businessForFile((t) => ({ h, biz } = t))

const base = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

function expectError(r: TestResponse, status: number, type: string): void {
  expect(r.status).toBe(status)
  expect(Object.keys(r.body)).toEqual(['error'])
  expect(r.body.error.type).toBe(type)
  expect(r.body.error.message).toBeString()
}

async function clientCount(key: string): Promise<number> {
  const r = await h.request('GET', '/v1/clients?limit=100', { key })
  expect(r.status).toBe(200)
  return r.body.data.length
}

describe('authentication (401)', () => {
  test('no header, an unknown key and a revoked key answer the same 401 authentication body', async () => {
    const { id, key } = await createApiKey(h.deps.db, h.clock, biz.id, { name: 'to revoke', role: 'admin' })
    await revokeApiKey(h.deps.db, h.clock, id)
    const none = await h.request('GET', '/v1/clients')
    const unknown = await h.request('GET', '/v1/clients', { key: 'inv_' + 'A'.repeat(32) })
    const revoked = await h.request('GET', '/v1/clients', { key })
    for (const r of [none, unknown, revoked]) expectError(r, 401, 'authentication')
    expect(unknown.text).toBe(none.text)
    expect(revoked.text).toBe(none.text)
  })

  test('a malformed Authorization header is the same 401', async () => {
    const none = await h.request('GET', '/v1/business')
    for (const authorization of [
      `Basic ${biz.key}`,
      'Bearer',
      `Bearer ${biz.key} extra`,
      biz.key,
      `Bearer ${biz.key}x`,
      'Bearer ' + 'inv_' + 'x'.repeat(300),
    ]) {
      const r = await h.request('GET', '/v1/business', { headers: { authorization } })
      expectError(r, 401, 'authentication')
      expect(r.text).toBe(none.text)
    }
  })

  test('a 401 counts against no key: it carries no rate-limit headers', async () => {
    const r = await h.request('GET', '/v1/clients', { key: 'inv_unknown_key' })
    expect(r.status).toBe(401)
    expect(r.headers.get('X-RateLimit-Limit')).toBeNull()
    expect(r.headers.get('X-RateLimit-Remaining')).toBeNull()
  })

  test('a 401 on a write creates nothing', async () => {
    const r = await h.request('POST', '/v1/clients', { key: 'inv_unknown_key', body: base })
    expectError(r, 401, 'authentication')
    const fresh = await h.business()
    expect(await clientCount(fresh.key)).toBe(0)
  })

  test("revocation acts on the very next request; the Business's other keys keep working", async () => {
    const { id, key } = await createApiKey(h.deps.db, h.clock, biz.id, { name: 'short-lived', role: 'member' })
    const other = await h.key(biz.id, 'member', 'stays')
    expect((await h.request('GET', '/v1/business', { key })).status).toBe(200)
    await revokeApiKey(h.deps.db, h.clock, id)
    expectError(await h.request('GET', '/v1/business', { key }), 401, 'authentication')
    expectError(await h.request('POST', '/v1/clients', { key, body: base }), 401, 'authentication')
    expect((await h.request('GET', '/v1/business', { key: other })).status).toBe(200)
  })

  test('public pages need no key', async () => {
    expect((await h.request('GET', '/openapi.json')).status).toBe(200)
    expect((await h.request('GET', '/docs')).status).toBe(200)
  })
})

describe('permission (403): Roles', () => {
  test('a Viewer reads but every write is 403 permission, and nothing is written', async () => {
    const b = await h.business()
    const viewer = await h.key(b.id, 'viewer')
    const created = await h.request('POST', '/v1/clients', { key: b.key, body: base })
    expect(created.status).toBe(201)
    expect((await h.request('GET', '/v1/clients', { key: viewer })).status).toBe(200)
    expect((await h.request('GET', `/v1/clients/${created.body.id}`, { key: viewer })).status).toBe(200)
    expectError(await h.request('POST', '/v1/clients', { key: viewer, body: base }), 403, 'permission')
    expectError(
      await h.request('PATCH', `/v1/clients/${created.body.id}`, { key: viewer, body: { notes: 'viewer was here' } }),
      403,
      'permission',
    )
    expect((await h.request('GET', `/v1/clients/${created.body.id}`, { key: b.key })).body.notes).toBeNull()
    expect(await clientCount(b.key)).toBe(1)
  })

  test('the Role is asked before the record or the body: a Viewer gets 403 for an unknown id and for an invalid body', async () => {
    const viewer = await h.key(biz.id, 'viewer')
    const unknownId = await h.request('PATCH', '/v1/clients/999999', { key: viewer, body: { notes: 'x' } })
    expectError(unknownId, 403, 'permission')
    expect(unknownId.body.error.code).toBeUndefined()
    expectError(await h.request('POST', '/v1/clients', { key: viewer, body: { nonsense: true } }), 403, 'permission')
    expectError(
      await h.request('POST', '/v1/clients', {
        key: viewer,
        raw: '{not json',
        headers: { 'content-type': 'application/json' },
      }),
      403,
      'permission',
    )
  })

  test('a Member writes Clients', async () => {
    const member = await h.key(biz.id, 'member')
    const r = await h.request('POST', '/v1/clients', { key: member, body: base })
    expect(r.status).toBe(201)
    expect((await h.request('PATCH', `/v1/clients/${r.body.id}`, { key: member, body: { notes: 'ok' } })).status).toBe(
      200,
    )
  })

  test('the request log is Admin-only: Member and Viewer get 403 permission, an Admin 200', async () => {
    expectError(await h.request('GET', '/v1/request-log', { key: await h.key(biz.id, 'member') }), 403, 'permission')
    expectError(await h.request('GET', '/v1/request-log', { key: await h.key(biz.id, 'viewer') }), 403, 'permission')
    expect((await h.request('GET', '/v1/request-log', { key: biz.key })).status).toBe(200)
  })
})

describe('permission (403): the plan gate', () => {
  for (const plan of ['free', 'paused'] as const) {
    test(`a Business on plan ${plan} is 403 paid_plan_required with remedy choose_plan on reads too, before 404 and 422`, async () => {
      const b = await h.business({ plan })
      const checks: TestResponse[] = [
        await h.request('GET', '/v1/business', { key: b.key }),
        await h.request('GET', '/v1/clients', { key: b.key }),
        await h.request('GET', '/v1/clients/999999', { key: b.key }),
        await h.request('GET', '/v1/clients?limit=0', { key: b.key }),
        await h.request('POST', '/v1/clients', { key: b.key, body: { nonsense: true } }),
        await h.request('POST', '/v1/clients', { key: b.key, body: base }),
        await h.request('GET', '/v1/request-log', { key: b.key }),
      ]
      for (const r of checks) {
        expectError(r, 403, 'permission')
        expect(r.body.error.code).toBe('paid_plan_required')
        expect(r.body.error.remedy).toBe('choose_plan')
      }
    })
  }

  test("the plan gate comes before the Role: a free plan's Viewer writing is told paid_plan_required", async () => {
    const b = await h.business({ plan: 'free' })
    const r = await h.request('POST', '/v1/clients', { key: await h.key(b.id, 'viewer'), body: base })
    expectError(r, 403, 'permission')
    expect(r.body.error.code).toBe('paid_plan_required')
  })

  test('a gated write creates nothing, and the same key works again once the Business is on a paid plan', async () => {
    const b = await h.business({ plan: 'paused' })
    expect((await h.request('POST', '/v1/clients', { key: b.key, body: base })).status).toBe(403)
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'pro' })
    expect(await clientCount(b.key)).toBe(0)
    expect((await h.request('POST', '/v1/clients', { key: b.key, body: base })).status).toBe(201)
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'free' })
    const again = await h.request('GET', '/v1/clients', { key: b.key })
    expect(again.body.error.code).toBe('paid_plan_required')
  })

  test('a Test business keeps the Public API on the free and paused plans', async () => {
    for (const plan of ['free', 'paused'] as const) {
      const b = await h.business({ plan, isTest: true })
      expect((await h.request('GET', '/v1/business', { key: b.key })).status).toBe(200)
      expect((await h.request('POST', '/v1/clients', { key: b.key, body: base })).status).toBe(201)
    }
  })

  test('pro and pro_plus Businesses use the API', async () => {
    for (const plan of ['pro', 'pro_plus'] as const) {
      const b = await h.business({ plan })
      expect((await h.request('GET', '/v1/clients', { key: b.key })).status).toBe(200)
    }
  })
})
