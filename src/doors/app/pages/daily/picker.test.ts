// The editor's Client and Product pickers over HTTP, on a Business with more Clients and Products than any list shows
// at once (320 of each): the editor never asks for an id; /pick/clients and /pick/products find any of them by name,
// email or code and keep the chosen one selected; without script, "Find" shows the editor again with the matches and
// saves nothing; a Draft made with a Client and a Product found past the first page names them. Other Businesses'
// Clients are never offered. A Credit Note's credited Invoice is chosen the same way, from its Client's issued ones.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, csrfOf, person } from '../../../../../test/app-client'
import { createClient } from '../../../../modules/clients'
import { createProduct } from '../../../../modules/products'
import { parseFragment } from 'parse5'
import { PICK_MAX } from './picker'

setDefaultTimeout(60_000)

const MANY = 320

let h: Harness
let b: { id: number; publicId: string; key: string }
let base: string
let browser: AppClient
const clientIds: number[] = []
const productIds: number[] = []

beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
  b = await h.business({ name: 'Großhandel', currency: 'EUR' })
  base = `/app/b/${b.publicId}`
  // Through the services the API calls (faster than 640 requests, the same rules).
  for (let i = 1; i <= MANY; i++) {
    const n = String(i).padStart(4, '0')
    clientIds.push(
      (
        await createClient(h.deps, { id: b.id, currency: 'EUR' }, {
          name: `Kunde ${n} GmbH`,
          email: `einkauf-${n}@kunde.example`,
          country: 'DE',
        } as never)
      ).id,
    )
    productIds.push(
      (
        await createProduct(h.deps, b.id, {
          name: `Artikel ${n}`,
          type: 'product',
          price: `${i}.50`,
          currency: 'EUR',
          vat_rate: '19',
          code: `ART-${n}`,
        } as never)
      ).id,
    )
  }
  const p = await person(h, { email: 'owner@grosshandel.example', businessId: b.id, role: 'owner' })
  browser = new AppClient(h)
  await browser.signIn(p.email, p.password)
})
afterAll(() => h.close())

/** A picker's answer as htmx asks for it: a fragment of <option>s, parsed without error, with the pages' headers. */
async function pick(path: string): Promise<{ status: number; text: string }> {
  const res = await h.app.fetch(
    new Request(`http://localhost${path}`, {
      headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    }),
  )
  const text = await res.text()
  const problems: string[] = []
  parseFragment(text, { onParseError: (e) => problems.push(e.code) })
  expect(problems).toEqual([])
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
  expect(res.headers.get('cache-control')).toBe('no-store')
  return { status: res.status, text }
}

/** The options of a picker answer or page: [value, words, selected]. */
function options(html: string, selectId?: string): Array<[string, string, boolean]> {
  let part = html
  if (selectId) {
    const at = html.indexOf(`id="${selectId}"`)
    part = html.slice(at, html.indexOf('</select>', at))
  }
  return [...part.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)].map((m) => [
    m[1]!,
    m[3]!,
    m[2] !== undefined,
  ])
}

describe('the editor with more Clients and Products than a list shows', () => {
  test('the editor offers search boxes and selects of at most PICK_MAX matches, never an id field', async () => {
    const page = await browser.get(`${base}/documents/new?type=invoice`)
    expect(page.status).toBe(200)
    expect(page.text).not.toMatch(/Client id|Product id/)
    expect(page.text).toContain(`hx-get="${base}/pick/clients"`)
    expect(page.text).toContain(`hx-get="${base}/pick/products"`)
    const clients = options(page.text, 'f-client_id')
    expect(clients.length).toBe(PICK_MAX + 1)
    expect(page.text).toContain('More Clients match')
    expect(options(page.text, 'f-line-0-product').length).toBe(PICK_MAX + 1)
  })

  test('/pick/clients finds a Client past the first page by name, by email and in any case; the chosen one stays selected', async () => {
    const last = clientIds.at(-1)!
    for (const q of ['Kunde 0320', 'einkauf-0320@', 'KUNDE 0320 GMBH']) {
      const r = await pick(`${base}/pick/clients?client_q=${encodeURIComponent(q)}&client_id=`)
      expect(r.status).toBe(200)
      expect(options(r.text)).toEqual([
        ['', 'Choose a Client', false],
        [String(last), 'Kunde 0320 GmbH · einkauf-0320@kunde.example · C00320', false],
      ])
    }
    // By account code; and a search that matches nothing keeps the chosen Client selected and says so.
    expect(options((await pick(`${base}/pick/clients?client_q=C00319`)).text).map((o) => o[0])).toEqual([
      '',
      String(clientIds.at(-2)),
    ])
    const none = await pick(`${base}/pick/clients?client_q=nobody&client_id=${clientIds[4]}`)
    expect(options(none.text)).toEqual([
      ['', 'Choose a Client', false],
      [String(clientIds[4]), 'Kunde 0005 GmbH · einkauf-0005@kunde.example · C00005', true],
    ])
    expect(none.text).toContain('No Clients matches “nobody”')
  })

  test('/pick/products finds a Product by name or code for the Line that asked', async () => {
    const r = await pick(
      `${base}/pick/products?${new URLSearchParams({ 'lines.3.product_q': 'art-0317', 'lines.3.product_id': '' })}`,
    )
    expect(options(r.text)).toEqual([
      ['', 'Free line', false],
      [String(productIds[316]), 'Artikel 0317 · ART-0317 (317.50 EUR)', false],
    ])
    const chosen = await pick(
      `${base}/pick/products?${new URLSearchParams({ 'lines.0.product_q': 'Artikel 030', 'lines.0.product_id': String(productIds[300]) })}`,
    )
    expect(
      options(chosen.text)
        .filter((o) => o[2])
        .map((o) => o[0]),
    ).toEqual([String(productIds[300])])
    expect(options(chosen.text).length).toBe(1 + 10)
  })

  test("another Business's Clients are never offered, not even as the chosen one", async () => {
    const other = await h.business({ name: 'Fremd' })
    const foreign = await h.client(other.key, { name: 'Kunde 0320 Fremd' })
    const r = await pick(`${base}/pick/clients?client_q=Fremd&client_id=${foreign}`)
    expect(options(r.text)).toEqual([['', 'Choose a Client', false]])
  })

  test('without script, Find shows the editor again with the matches and what was typed, and saves nothing', async () => {
    const page = await browser.get(`${base}/documents/new?type=invoice`)
    const before = (await h.request('GET', '/v1/documents', { key: b.key })).body.data.length
    const r = await browser.request('POST', `${base}/documents`, {
      _csrf: csrfOf(page.text),
      type: 'invoice',
      client_q: 'einkauf-0301',
      client_id: '',
      lines__present: '1',
      'lines.0.product_q': 'ART-0302',
      'lines.0.description': 'Kept as typed',
      'lines.0.quantity': '2',
      find: '1',
    })
    expect(r.status).toBe(200)
    expect(options(r.text, 'f-client_id').map((o) => o[0])).toEqual(['', String(clientIds[300])])
    expect(options(r.text, 'f-line-0-product').map((o) => o[0])).toEqual(['', String(productIds[301])])
    expect(r.text).toContain('value="Kept as typed"')
    expect((await h.request('GET', '/v1/documents', { key: b.key })).body.data.length).toBe(before)
  })

  test('a Draft made with a Client and a Product found past the first page names them', async () => {
    const page = await browser.get(`${base}/documents/new?type=invoice`)
    const made = await browser.request('POST', `${base}/documents`, {
      _csrf: csrfOf(page.text),
      type: 'invoice',
      client_q: 'Kunde 0299',
      client_id: String(clientIds[298]),
      lines__present: '1',
      'lines.0.product_q': 'ART-0310',
      'lines.0.product_id': String(productIds[309]),
      'lines.0.quantity': '3',
    })
    expect(made.status).toBe(303)
    const id = Number(/\/documents\/(\d+)/.exec(made.location!)![1])
    const doc = (await h.request('GET', `/v1/documents/${id}`, { key: b.key })).body
    expect(doc).toMatchObject({
      client_id: clientIds[298],
      lines: [{ product_id: productIds[309], unit_price: '310.50', quantity: '3' }],
    })
    // Its edit page shows both chosen, though neither is among the first matches.
    const edit = await browser.get(`${base}/documents/${id}/edit`)
    expect(
      options(edit.text, 'f-client_id')
        .filter((o) => o[2])
        .map((o) => o[0]),
    ).toEqual([String(clientIds[298])])
    expect(
      options(edit.text, 'f-line-0-product')
        .filter((o) => o[2])
        .map((o) => o[0]),
    ).toEqual([String(productIds[309])])
  })
})

describe('the credited Invoice of a Credit Note', () => {
  test("an issued Invoice links to a new Credit Note with it chosen; /pick/invoices finds the chosen Client's issued Invoices by number; the Credit Note credits it", async () => {
    const clientId = clientIds[310]!
    const line = { description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' }
    const invoices: Array<{ id: number; number: string }> = []
    for (let i = 0; i < 2; i++) {
      const d = (
        await h.request('POST', '/v1/documents', {
          key: b.key,
          body: { type: 'invoice', client_id: clientId, lines: [line] },
        })
      ).body
      const issued = (await h.request('POST', `/v1/documents/${d.id}/issue`, { key: b.key })).body
      invoices.push({ id: d.id, number: issued.document_number })
    }
    const draft = (
      await h.request('POST', '/v1/documents', {
        key: b.key,
        body: { type: 'invoice', client_id: clientId, lines: [line] },
      })
    ).body
    const otherClients = (
      await h.request('POST', '/v1/documents', {
        key: b.key,
        body: { type: 'invoice', client_id: clientIds[0], lines: [line] },
      })
    ).body
    await h.request('POST', `/v1/documents/${otherClients.id}/issue`, { key: b.key })

    const page = await browser.get(`${base}/documents/${invoices[0]!.id}`)
    const link = /<a class="button quiet" href="([^"]+)" id="new-credit-note">/
      .exec(page.text)![1]!
      .replaceAll('&amp;', '&')
    const editor = await browser.get(link)
    expect(editor.text).not.toContain('Credited Invoice (id)')
    expect(
      options(editor.text, 'f-credited_document_id')
        .filter((o) => o[2])
        .map((o) => o[0]),
    ).toEqual([String(invoices[0]!.id)])
    expect(
      options(editor.text, 'f-client_id')
        .filter((o) => o[2])
        .map((o) => o[0]),
    ).toEqual([String(clientId)])

    // The chosen Client's issued Invoices only: no Draft, no other Client's Invoice.
    const all = await pick(`${base}/pick/invoices?credited_q=&client_id=${clientId}&credited_document_id=`)
    expect(options(all.text).map((o) => o[0])).toEqual(['', String(invoices[0]!.id), String(invoices[1]!.id)])
    expect(all.text).not.toContain(`value="${draft.id}"`)
    const byNumber = await pick(
      `${base}/pick/invoices?credited_q=${encodeURIComponent(invoices[1]!.number.toLowerCase())}&client_id=${clientId}&credited_document_id=${invoices[0]!.id}`,
    )
    expect(options(byNumber.text).map((o) => [o[0], o[2]])).toEqual([
      ['', false],
      [String(invoices[0]!.id), true],
      [String(invoices[1]!.id), false],
    ])

    const made = await browser.request('POST', `${base}/documents`, {
      _csrf: csrfOf(editor.text),
      type: 'credit_note',
      client_id: String(clientId),
      credited_q: '',
      credited_document_id: String(invoices[1]!.id),
      lines__present: '1',
      'lines.0.description': 'Refund',
      'lines.0.quantity': '1',
      'lines.0.unit_price': '100.00',
      'lines.0.vat_rate': '19',
    })
    expect(made.status).toBe(303)
    const id = Number(/\/documents\/(\d+)/.exec(made.location!)![1])
    expect((await h.request('GET', `/v1/documents/${id}`, { key: b.key })).body).toMatchObject({
      type: 'credit_note',
      credited_document_id: invoices[1]!.id,
    })
  })
})
