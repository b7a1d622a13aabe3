// A Connected app on the API: its token acts with its Role and its own rate count, names the app where the contract
// names the credential, and answers 401 from the next request after each way the connection ends.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { connectApp, refreshAt } from '../../../test/oauth'
import { deleteApp, expireConnections } from '.'
import { deleteBusiness } from '../business'
import { addMember, removeMember } from '../people'
import { eq } from 'drizzle-orm'
import { connectedApps } from '../../db/schema'

let h: Harness
let biz: { id: number; publicId: string; key: string }
const ISSUER = 'https://invoices.example'

beforeAll(async () => {
  h = await makeHarness({ config: { publicUrl: ISSUER } })
  biz = await h.business()
})
afterAll(() => h.close())

const business = (key: string) => h.request('GET', '/v1/business', { key })

describe('a Connected app on the API', () => {
  test('its access token reads the Business with the granted Role; a viewer grant cannot write', async () => {
    const c = await connectApp(h, { businessId: biz.id, role: 'viewer' })
    expect((await business(c.access)).status).toBe(200)
    const w = await h.request('POST', '/v1/clients', { key: c.access, body: { name: 'X', country: 'DE' } })
    expect(w.status).toBe(403)
    expect(w.body.error.type).toBe('permission')
  })

  test('a member grant writes, and recorded_by names the app', async () => {
    const c = await connectApp(h, { businessId: biz.id, role: 'member', name: 'Till App' })
    const clientId = await h.client(c.access)
    const d = await h.request('POST', '/v1/documents', {
      key: c.access,
      body: {
        type: 'invoice',
        client_id: clientId,
        lines: [{ description: 'Work', quantity: '1', unit_price: '50.00', vat_rate: '0' }],
      },
    })
    expect(d.status).toBe(201)
    expect((await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: c.access })).status).toBe(200)
    const p = await h.request('POST', `/v1/documents/${d.body.id}/payments`, {
      key: c.access,
      body: { amount: '10.00', payment_date: '2026-03-09', payment_method: 'cash' },
    })
    expect(p.status).toBe(201)
    expect(p.body.recorded_by).toEqual({ type: 'connected_app', name: 'Till App' })
  })

  test('the request log names the app', async () => {
    const c = await connectApp(h, { businessId: biz.id, name: 'Logged App' })
    await business(c.access)
    await h.app.requestLog.flush()
    const log = await h.request('GET', '/v1/request-log?limit=100', { key: biz.key })
    expect(
      log.body.data.some((e: any) => e.credential.type === 'connected_app' && e.credential.name === 'Logged App'),
    ).toBe(true)
  })

  test('its rate count is its own: 120 a minute, beside the API key of the same Business', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    const key = await h.key(biz.id, 'viewer', 'rate key')
    await business(key)
    let last = await business(c.access)
    expect(last.headers.get('x-ratelimit-remaining')).toBe('119')
    for (let i = 0; i < 119; i++) last = await business(c.access)
    expect(last.status).toBe(200)
    expect((await business(c.access)).status).toBe(429)
    const k = await business(key)
    expect(k.status).toBe(200)
    expect(k.headers.get('x-ratelimit-remaining')).toBe('118')
    h.clock.advance(61_000)
  })

  test('a token issued only for the MCP resource is refused on the API (RFC 8707)', async () => {
    const c = await connectApp(h, { businessId: biz.id, resources: [`${ISSUER}/mcp`] })
    expect((await business(c.access)).status).toBe(401)
  })

  test('on the Free plan the API answers an app token paid_plan_required, like a key', async () => {
    const free = await h.business({ plan: 'free' })
    const c = await connectApp(h, { businessId: free.id, role: 'admin' })
    const r = await business(c.access)
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe('paid_plan_required')
  })
})

describe('its Role', () => {
  test("is lowered to the connecting person's Role should that fall, and rises no higher than granted", async () => {
    const c = await connectApp(h, {
      businessId: biz.id,
      role: 'admin',
      email: 'falling@people.example',
      memberRole: 'admin',
    })
    expect((await h.request('GET', '/v1/webhooks', { key: c.access })).status).toBe(200)
    await addMember(h.deps, biz.id, { email: 'falling@people.example', role: 'viewer' })
    expect((await h.request('GET', '/v1/webhooks', { key: c.access })).status).toBe(403)
    expect((await h.request('POST', '/v1/clients', { key: c.access, body: { name: 'X', country: 'DE' } })).status).toBe(
      403,
    )
    await addMember(h.deps, biz.id, { email: 'falling@people.example', role: 'owner' })
    expect((await h.request('GET', '/v1/webhooks', { key: c.access })).status).toBe(200)
  })
})

describe('GET and DELETE /v1/connected-apps', () => {
  test('an Admin key lists the Connected apps of its Business; a Member key is refused', async () => {
    const other = await h.business()
    const c = await connectApp(h, { businessId: other.id, role: 'viewer', name: 'Listed App' })
    const r = await h.request('GET', '/v1/connected-apps', { key: other.key })
    expect(r.status).toBe(200)
    expect(r.body.data).toHaveLength(1)
    expect(r.body.data[0]).toMatchObject({
      id: c.connectedAppId,
      app: { client_id: c.clientId, name: 'Listed App' },
      role: 'viewer',
      connected_by: { name: `Person ${c.email}` },
    })
    expect((await h.request('GET', '/v1/connected-apps', { key: await h.key(other.id, 'member') })).status).toBe(403)
  })

  test("another Business's Connected app is 404 and stays connected", async () => {
    const other = await h.business()
    const c = await connectApp(h, { businessId: biz.id })
    expect((await h.request('DELETE', `/v1/connected-apps/${c.connectedAppId}`, { key: other.key })).status).toBe(404)
    expect((await business(c.access)).status).toBe(200)
  })
})

describe('every end of a Connected app answers 401 on the next request', () => {
  test('disconnected with DELETE /v1/connected-apps/{id}', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    expect((await business(c.access)).status).toBe(200)
    expect((await h.request('DELETE', `/v1/connected-apps/${c.connectedAppId}`, { key: biz.key })).status).toBe(204)
    expect((await business(c.access)).status).toBe(401)
    expect((await refreshAt(h, c)).body.error).toBe('invalid_grant')
  })

  test('revoked: its refresh token revoked at /oauth/revoke', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    const res = await h.app.fetch(
      new Request(`${ISSUER}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: c.refresh, client_id: c.clientId }),
      }),
    )
    expect(res.status).toBe(200)
    expect((await business(c.access)).status).toBe(401)
  })

  test('a rotated refresh token presented again', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    const r = await refreshAt(h, c)
    expect(r.status).toBe(200)
    expect((await business(r.body.access_token)).status).toBe(200)
    expect((await refreshAt(h, c)).status).toBe(400)
    expect((await business(r.body.access_token)).status).toBe(401)
  })

  test('90 days unused: 401 at once, and the daily job ends the connection', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    h.clock.advance(90 * 24 * 3600_000 + 1000)
    expect((await business(c.access)).status).toBe(401)
    expect(await expireConnections(h.deps.db, h.clock)).toBeGreaterThanOrEqual(1)
    expect((await refreshAt(h, c)).body.error).toBe('invalid_grant')
  })

  test('used within 90 days it stays: each use counts', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    for (let i = 0; i < 3; i++) {
      h.clock.advance(50 * 24 * 3600_000)
      const r = await refreshAt(h, c)
      expect(r.status).toBe(200)
      c.refresh = r.body.refresh_token
      c.access = r.body.access_token
      expect((await business(c.access)).status).toBe(200)
      await h.app.connectionUsage.flush()
      await expireConnections(h.deps.db, h.clock)
    }
  })

  test('a refresh counts as a use: refreshed on day 80, the connection still acts on day 160', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    h.clock.advance(80 * 24 * 3600_000)
    const r = await refreshAt(h, c)
    expect(r.status).toBe(200)
    const row = await h.deps.db.read.select().from(connectedApps).where(eq(connectedApps.id, c.connectedAppId)).get()
    expect(row!.lastUsedAt).toBe(h.clock.now().toISOString())
    h.clock.advance(80 * 24 * 3600_000)
    await expireConnections(h.deps.db, h.clock)
    const again = await refreshAt(h, { clientId: c.clientId, refresh: r.body.refresh_token })
    expect(again.status).toBe(200)
    expect((await business(again.body.access_token)).status).toBe(200)
  })

  test('its person no longer a member of the Business', async () => {
    const c = await connectApp(h, { businessId: biz.id, email: 'leaving@people.example', memberRole: 'member' })
    expect((await business(c.access)).status).toBe(200)
    await removeMember(h.deps, biz.id, 'leaving@people.example')
    expect((await business(c.access)).status).toBe(401)
    // Coming back does not bring the connection back.
    await addMember(h.deps, biz.id, { email: 'leaving@people.example', role: 'member' })
    expect((await business(c.access)).status).toBe(401)
    expect((await refreshAt(h, c)).body.error).toBe('invalid_grant')
  })

  test('the Business deleted', async () => {
    const gone = await h.business()
    const c = await connectApp(h, { businessId: gone.id })
    expect((await business(c.access)).status).toBe(200)
    await deleteBusiness(h.deps.db, h.clock, gone.id)
    expect((await business(c.access)).status).toBe(401)
  })

  test('the app deleted', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    await deleteApp(h.deps.db, c.clientId)
    expect((await business(c.access)).status).toBe(401)
  })

  test('an access token past its hour (the refresh token still works)', async () => {
    const c = await connectApp(h, { businessId: biz.id })
    h.clock.advance(3600_000)
    expect((await business(c.access)).status).toBe(401)
    const r = await refreshAt(h, c)
    expect((await business(r.body.access_token)).status).toBe(200)
  })
})
