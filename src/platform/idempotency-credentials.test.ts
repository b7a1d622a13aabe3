// Each credential has its own Idempotency-Key space, Connected apps included: a keyed create by an app's access token
// is kept (it names no API key) and replays for that app only.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'
import { connectApp } from '../../test/oauth'

let h: Harness
beforeAll(async () => {
  h = await makeHarness({ config: { publicUrl: 'https://invoices.example' } })
})
afterAll(() => h.close())

test("a Connected app's keyed create is kept and replayed for it; an API key with the same Idempotency-Key creates its own", async () => {
  const b = await h.business()
  const app = await connectApp(h, { businessId: b.id, role: 'member' })
  const body = { name: 'Keyed', email: 'keyed@example.com', country: 'DE' }
  const headers = { 'idempotency-key': 'same-key' }
  const first = await h.request('POST', '/v1/clients', { key: app.access, body, headers })
  expect(first.status).toBe(201)
  const again = await h.request('POST', '/v1/clients', { key: app.access, body, headers })
  expect(again.headers.get('idempotent-replayed')).toBe('true')
  expect(again.body.id).toBe(first.body.id)
  const byKey = await h.request('POST', '/v1/clients', { key: b.key, body, headers })
  expect(byKey.status).toBe(201)
  expect(byKey.body.id).not.toBe(first.body.id)
})
