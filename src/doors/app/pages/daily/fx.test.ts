// The application and documents in another currency (extensions §16): a person sets the exchange rate on a Draft in
// the editor, the document page shows the rate and the VAT in the Business's currency, and a Draft with no rate at all
// shows why it cannot be issued.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, person } from '../../../../../test/app-client'
import { inAppWords } from '../../../../shared/errors'

// Each test walks several pages; a loaded machine takes seconds.
setDefaultTimeout(60_000)

let h: Harness
beforeAll(async () => {
  // No reference rates: a rate comes from the person or not at all.
  h = await makeHarness({ config: { rateLimit: 1_000_000 }, referenceRates: false })
})
afterAll(() => h.close())

let n = 0
async function setup() {
  n++
  const b = await h.business({ name: `Shop ${n}`, currency: 'EUR', plan: 'pro' })
  const client = await h.client(b.key, { name: 'Acme Inc', currency: 'USD' })
  const p = await person(h, { email: `fx${n}@example.com`, businessId: b.id, role: 'owner' })
  const browser = new AppClient(h)
  expect((await browser.signIn(p.email, p.password)).status).toBe(303)
  return { key: b.key, client, browser, base: `/app/b/${b.publicId}` }
}

const form = (client: number, extra: Record<string, string>) => ({
  type: 'invoice',
  client_id: String(client),
  currency: 'USD',
  lines__present: '1',
  'lines.0.description': 'Design',
  'lines.0.quantity': '1',
  'lines.0.unit_price': '1000.00',
  'lines.0.vat_rate': '19',
  ...extra,
})

const apiDoc = async (key: string, id: number) => (await h.request('GET', `/v1/documents/${id}`, { key })).body

describe('the exchange rate in the application', () => {
  test('a person sets the rate in the editor; the document page shows it and the VAT in EUR', async () => {
    const s = await setup()
    const saved = await s.browser.submit(
      `${s.base}/documents/new?type=invoice`,
      form(s.client, { exchange_rate: '0.9123' }),
      `${s.base}/documents`,
    )
    expect(saved.status).toBe(303)
    const id = Number(/\/documents\/(\d+)/.exec(saved.location!)![1])
    // 190.00 USD × 0.9123 = 173.337 → 173.34 EUR
    expect(await apiDoc(s.key, id)).toMatchObject({ exchange_rate: '0.9123', vat_total_accounting: '173.34' })
    const page = await s.browser.get(`${s.base}/documents/${id}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('1 USD = 0.9123 EUR')
    expect(page.text).toMatch(/id="doc-vat-accounting">[\s\S]*?173\.34/)
    // The editor shows the rate kept.
    expect((await s.browser.get(`${s.base}/documents/${id}/edit`)).text).toMatch(
      /name="exchange_rate"[^>]*value="0.9123"/,
    )
  })

  test('a bad rate is shown on its field and nothing is saved; a blank one clears it', async () => {
    const s = await setup()
    const made = await s.browser.submit(
      `${s.base}/documents/new?type=invoice`,
      form(s.client, { exchange_rate: '0.9' }),
      `${s.base}/documents`,
    )
    const id = Number(/\/documents\/(\d+)/.exec(made.location!)![1])
    const bad = await s.browser.submit(
      `${s.base}/documents/${id}/edit`,
      form(s.client, { exchange_rate: '0' }),
      `${s.base}/documents/${id}`,
    )
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('must be above zero')
    expect((await apiDoc(s.key, id)).exchange_rate).toBe('0.9')
    const cleared = await s.browser.submit(
      `${s.base}/documents/${id}/edit`,
      form(s.client, { exchange_rate: '' }),
      `${s.base}/documents/${id}`,
    )
    expect(cleared.status).toBe(303)
    expect((await apiDoc(s.key, id)).exchange_rate).toBeNull()
  })

  test('with no rate sent and none held, the page says why the Draft is not issued, and issuing it is refused', async () => {
    const s = await setup()
    const made = await s.browser.submit(
      `${s.base}/documents/new?type=invoice`,
      form(s.client, {}),
      `${s.base}/documents`,
    )
    const id = Number(/\/documents\/(\d+)/.exec(made.location!)![1])
    const page = await s.browser.get(`${s.base}/documents/${id}`)
    expect(page.text).toContain('the ECB rate of the issue date, fixed at issue')
    expect(page.text).toContain(
      `id="why-act-issue">${inAppWords('exchange_rate_missing', '').replace(/'/g, '&#x27;')}<`,
    )
    expect((await apiDoc(s.key, id)).actions.issue).toEqual({ open: false, code: 'exchange_rate_missing' })
  })
})
