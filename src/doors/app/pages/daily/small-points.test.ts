// Issue 32, item 9 (the smaller points a new user met on the pages), each where it was seen: the editor's dates are
// date pickers; a refusal's words name no API path to a person; "1 document" in other currencies, not "1 documents".
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, person } from '../../../../../test/app-client'

setDefaultTimeout(60_000)

let h: Harness
let b: { id: number; publicId: string; key: string }
let browser: AppClient
let base: string

beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
  b = await h.business({ currency: 'EUR' })
  const who = await person(h, { email: 'owner@small.example', businessId: b.id, role: 'owner' })
  browser = new AppClient(h)
  expect((await browser.signIn(who.email, who.password)).status).toBe(303)
  base = `/app/b/${b.publicId}`
})
afterAll(() => h.close())

describe('the smaller points', () => {
  test("the editor's issue, due and delivery dates are date pickers", async () => {
    const page = await browser.get(`${base}/documents/new?type=invoice`)
    for (const name of ['issue_date', 'due_date', 'delivery_date'])
      expect(page.text).toMatch(new RegExp(`name="${name}"[^>]*type="date"|type="date"[^>]*name="${name}"`))
  })

  test('cancelling a Draft is refused in words that name no API path', async () => {
    const client = await h.client(b.key)
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: client,
        lines: [{ description: 'W', quantity: '1', unit_price: '1.00', vat_rate: '0' }],
      },
    })
    const page = await browser.get(`${base}/documents/${d.body.id}`)
    expect(page.text).toContain('A Draft is not cancelled: delete it instead.')
    expect(page.text).not.toContain('/v1/documents')
  })

  test('one document in another currency is "1 document", not "1 documents"', async () => {
    const usd = await h.client(b.key, { name: 'US Client', currency: 'USD' })
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: usd,
        lines: [{ description: 'W', quantity: '1', unit_price: '1.00', vat_rate: '0' }],
      },
    })
    await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
    const page = await browser.get(`${base}/reports?from=2026-01-01&to=2026-12-31`)
    expect(page.text).toContain('1 document in other currencies not included.')
    expect(page.text).not.toContain('1 documents')
  })
})
