// Issue 32, item 9 (the smaller points a new user met on the pages), each where it was seen: the editor's dates are
// date pickers; a refusal's words name no API path to a person; "1 document" in other currencies, not "1 documents";
// a new Product's and Line's VAT rate starts at the Business's usual rate; VAT categories in words, with the K-or-AE
// mark on a business Client in another EU country; the password rule said once; a Credit Note shows no due date.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, csrfOf, person } from '../../../../../test/app-client'
import type { BusinessInput } from '../../../../modules/business'
import { addPerson } from '../../../../modules/people'

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

/** A document made through the API (an Invoice of one 1.00 Line unless `body` says otherwise), issued when asked. */
async function made(key: string, body: Record<string, unknown>, issue = false) {
  const lines = [{ description: 'W', quantity: '1', unit_price: '1.00', vat_rate: '0' }]
  const draft = await h.request('POST', '/v1/documents', { key, body: { type: 'invoice', lines, ...body } })
  expect(draft.status).toBe(201)
  if (!issue) return draft.body
  const issued = await h.request('POST', `/v1/documents/${draft.body.id}/issue`, { key })
  expect(issued.status).toBe(200)
  return issued.body
}

describe('the smaller points', () => {
  test("the editor's issue, due and delivery dates are date pickers", async () => {
    const page = await browser.get(`${base}/documents/new?type=invoice`)
    for (const name of ['issue_date', 'due_date', 'delivery_date'])
      expect(page.text).toMatch(new RegExp(`name="${name}"[^>]*type="date"|type="date"[^>]*name="${name}"`))
  })

  test("the recurring editor's first and last dates are date pickers", async () => {
    const page = await browser.get(`${base}/recurring/new`)
    for (const name of ['start_date', 'end_date'])
      expect(page.text).toMatch(new RegExp(`name="${name}"[^>]*type="date"`))
  })

  test("a Payment's date received is a date picker, where it is recorded and where it is amended, as a refund's is", async () => {
    const d = await made(b.key, { client_id: await h.client(b.key) }, true)
    const picker = /name="payment_date"[^>]*type="date"/
    expect((await browser.get(`${base}/documents/${d.id}`)).text).toMatch(picker)
    const paid = await h.request('POST', `/v1/documents/${d.id}/payments`, {
      key: b.key,
      body: { amount: '0.50', payment_date: '2026-03-10', payment_method: 'cash' },
    })
    expect(paid.status).toBe(201)
    expect((await browser.get(`${base}/payments/${paid.body.id}`)).text).toMatch(picker)
  })

  test('cancelling a Draft is refused in words that name no API path', async () => {
    const d = await made(b.key, { client_id: await h.client(b.key) })
    const page = await browser.get(`${base}/documents/${d.id}`)
    expect(page.text).toContain('A Draft is not cancelled: delete it instead.')
    expect(page.text).not.toContain('/v1/documents')
  })

  test('one document in another currency is "1 document", not "1 documents"', async () => {
    await made(b.key, { client_id: await h.client(b.key, { name: 'US Client', currency: 'USD' }) }, true)
    const page = await browser.get(`${base}/reports?from=2026-01-01&to=2026-12-31`)
    expect(page.text).toContain('1 document in other currencies not included.')
    expect(page.text).not.toContain('1 documents')
  })
})

let people = 0
/** A fresh Business (DE, EUR, VAT-registered unless told) with its Owner signed in to the application. */
/** A Product at a VAT rate, through the API. */
async function product(key: string, name: string, rate: string): Promise<void> {
  const r = await h.request('POST', '/v1/products', {
    key,
    body: { name, type: 'product', price: '10.00', currency: 'EUR', vat_rate: rate },
  })
  expect(r.status).toBe(201)
}

async function signedInto(input: Partial<BusinessInput> = {}) {
  const business = await h.business({ currency: 'EUR', ...input })
  const who = await person(h, { email: `owner${++people}@vat.example`, businessId: business.id, role: 'owner' })
  const app = new AppClient(h)
  expect((await app.signIn(who.email, who.password)).status).toBe(303)
  return { business, app, base: `/app/b/${business.publicId}` }
}

/** The value an input named `name` holds on the page. */
function valueOf(html: string, name: string): string | undefined {
  return new RegExp(`name="${name.replace(/\./g, '\\.')}"[^>]*value="([^"]*)"`).exec(html)?.[1]
}

/** The `<option>` of a select offering `id`, as written. */
function optionOf(html: string, id: number): string {
  return new RegExp(`<option value="${id}"[^>]*>`).exec(html)?.[0] ?? ''
}

describe("a new Product's and Line's VAT rate", () => {
  test("starts at the country's standard rate for a VAT-registered Business that uses none yet, at 0 for a Non-VAT Payer", async () => {
    const de = await signedInto({ country: 'DE' })
    expect(valueOf((await de.app.get(`${de.base}/products/new`)).text, 'vat_rate')).toBe('19.00')
    const fr = await signedInto({ country: 'FR' })
    expect(valueOf((await fr.app.get(`${fr.base}/products/new`)).text, 'vat_rate')).toBe('20.00')
    const editor = (await fr.app.get(`${fr.base}/documents/new?type=invoice`)).text
    expect(valueOf(editor, 'lines.0.vat_rate')).toBe('20.00')
    expect(valueOf(editor, 'lines.1.vat_rate')).toBe('20.00')
    const none = await signedInto({ country: 'DE', isVatPayer: false })
    expect(valueOf((await none.app.get(`${none.base}/products/new`)).text, 'vat_rate')).toBe('0')
    const noneEditor = (await none.app.get(`${none.base}/documents/new?type=invoice`)).text
    expect(valueOf(noneEditor, 'lines.0.vat_rate')).toBe('')
    expect(noneEditor).not.toContain('vat_rate_suggested')
  })

  test('starts at the rate the Business uses most on its Products and Lines, in the Product form and both editors', async () => {
    const s = await signedInto({ country: 'DE' })
    for (const [name, rate] of [
      ['Book', '7'],
      ['Map', '7'],
      ['Desk', '19'],
      ['Gift', '0'],
      ['Card', '0'],
      ['Pin', '0'],
    ])
      await product(s.business.key, name, rate)
    const client = await h.client(s.business.key)
    const doc = await made(s.business.key, {
      client_id: client,
      lines: [
        { description: 'A', quantity: '1', unit_price: '1.00', vat_rate: '19' },
        { description: 'B', quantity: '1', unit_price: '1.00', vat_rate: '7' },
      ],
    })
    // 7% three times, 19% twice; the 0% Products (a rate chosen on purpose, or never chosen) are not counted.
    expect(valueOf((await s.app.get(`${s.base}/products/new`)).text, 'vat_rate')).toBe('7.00')
    const editor = (await s.app.get(`${s.base}/documents/new?type=invoice`)).text
    expect(valueOf(editor, 'lines.0.vat_rate')).toBe('7.00')
    expect(valueOf(editor, 'lines.0.vat_rate_suggested')).toBe('7.00')
    const recurring = (await s.app.get(`${s.base}/recurring/new`)).text
    expect(valueOf(recurring, 'lines.0.vat_rate')).toBe('7.00')
    // A stored Line keeps its own rate: only the blank rows are suggested.
    const edit = (await s.app.get(`${s.base}/documents/${doc.id}/edit`)).text
    expect(valueOf(edit, 'lines.0.vat_rate')).toBe('19.00')
    expect(valueOf(edit, 'lines.0.vat_rate_suggested')).toBeUndefined()
    expect(valueOf(edit, 'lines.2.vat_rate')).toBe('7.00')
  })

  test('is kept from one editor to the next only until the Business writes: a new Product moves it at once', async () => {
    const s = await signedInto({ country: 'DE' })
    const suggested = async () =>
      valueOf((await s.app.get(`${s.base}/documents/new?type=invoice`)).text, 'lines.0.vat_rate')
    await product(s.business.key, 'Book', '7')
    expect(await suggested()).toBe('7.00')
    expect(await suggested()).toBe('7.00')
    await product(s.business.key, 'Desk', '19')
    await product(s.business.key, 'Lamp', '19')
    expect(await suggested()).toBe('19.00')
  })

  test("left as suggested, it gives way to the chosen Product's rate, or to 0 for a category that takes 0; a typed rate is kept", async () => {
    const s = await signedInto({ country: 'DE' })
    const product = await h.request('POST', '/v1/products', {
      key: s.business.key,
      body: { name: 'Book', type: 'product', price: '10.00', currency: 'EUR', vat_rate: '7' },
    })
    const client = await h.client(s.business.key)
    const suggested = { vat_rate: '19.00', vat_rate_suggested: '19.00' }
    const line = (i: number, fields: Record<string, string>) =>
      Object.fromEntries(Object.entries({ quantity: '1', ...fields }).map(([k, v]) => [`lines.${i}.${k}`, v]))
    const made = await s.app.submit(
      `${s.base}/documents/new?type=invoice`,
      {
        type: 'invoice',
        client_id: String(client),
        lines__present: '1',
        ...line(0, { product_id: String(product.body.id), ...suggested }),
        ...line(1, {
          description: 'Parts to Lyon',
          unit_price: '5.00',
          ...suggested,
          vat_category: 'K',
          vat_exemption_code: 'VATEX-EU-IC',
        }),
        ...line(2, { description: 'Work', unit_price: '5.00', ...suggested }),
        ...line(3, { product_id: String(product.body.id), vat_rate: '10', vat_rate_suggested: '19.00' }),
      },
      `${s.base}/documents`,
    )
    expect(made.status).toBe(303)
    const id = /\/documents\/(\d+)/.exec(made.location!)![1]
    const doc = await h.request('GET', `/v1/documents/${id}`, { key: s.business.key })
    expect(doc.body.lines.map((l: { vat_rate: string; vat_category: string }) => [l.vat_rate, l.vat_category])).toEqual(
      [
        ['7.00', 'S'],
        ['0.00', 'K'],
        ['19.00', 'S'],
        ['10.00', 'S'],
      ],
    )
  })
})

describe('VAT categories in the editor', () => {
  test('each category is offered in words, in the Draft editor and the recurring editor', async () => {
    for (const path of [`${base}/documents/new?type=invoice`, `${base}/recurring/new`]) {
      const page = (await browser.get(path)).text
      for (const [code, words] of [
        ['S', 'Standard rate'],
        ['Z', 'Zero rated'],
        ['E', 'Exempt'],
        ['AE', 'Reverse charge'],
        ['K', 'Intra-EU supply, VAT exempt'],
        ['G', 'Export outside the EU, VAT exempt'],
        ['O', 'Not subject to VAT'],
      ])
        expect(page).toContain(`<option value="${code}">${code} — ${words}</option>`)
    }
  })

  test('a business Client in another EU country with a VAT number is marked for the K-or-AE hint; no other is', async () => {
    const s = await signedInto({ country: 'DE' })
    const paris = await h.client(s.business.key, { name: 'Paris SARL', country: 'FR', vat_number: 'FR40303265045' })
    const lyon = await h.client(s.business.key, { name: 'Lyon (no VAT number)', country: 'FR' })
    const berlin = await h.client(s.business.key, { name: 'Berlin GmbH', country: 'DE', vat_number: 'DE136695976' })
    const ny = await h.client(s.business.key, { name: 'New York Inc', country: 'US', vat_number: 'US123' })
    const page = (await s.app.get(`${s.base}/documents/new?type=invoice&client_id=${paris}`)).text
    expect(optionOf(page, paris)).toContain('data-vat="eu-business"')
    for (const other of [lyon, berlin, ny]) expect(optionOf(page, other)).not.toContain('data-vat')
    // The hint beside each Line's category, in words that say K for goods and AE for services.
    expect(page).toContain(
      'The Client is a business in another EU country with a VAT number: K (Intra-EU supply, VAT exempt) for goods, AE (Reverse charge) for services.',
    )
    // What a picker's search answers carries the mark too, and the recurring editor's Clients.
    const picked = (await s.app.fragment(`${s.base}/pick/clients?client_q=paris`)).text
    expect(optionOf(picked, paris)).toContain('data-vat="eu-business"')
    const recurring = (await s.app.get(`${s.base}/recurring/new?client_id=${paris}`)).text
    expect(optionOf(recurring, paris)).toContain('data-vat="eu-business"')
    // A Non-VAT Payer's supplies carry no VAT to shift: no mark.
    const none = await signedInto({ country: 'DE', isVatPayer: false })
    const theirs = await h.client(none.business.key, { name: 'Paris SARL', country: 'FR', vat_number: 'FR40303265045' })
    const noneEditor = (await none.app.get(`${none.base}/documents/new?type=invoice&client_id=${theirs}`)).text
    expect(optionOf(noneEditor, theirs)).not.toContain('data-vat')
  })
})

describe('VAT bands in words', () => {
  test("the editor's live totals and a document's page name each band as its PDF does, not by a bare code", async () => {
    const client = await h.client(b.key)
    const lines = [
      { description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' },
      {
        description: 'Advice',
        quantity: '1',
        unit_price: '50.00',
        vat_rate: '0',
        vat_category: 'AE',
        vat_exemption_code: 'VATEX-EU-AE',
      },
    ]
    const d = await made(b.key, { client_id: client, lines })
    const page = (await browser.get(`${base}/documents/${d.id}`)).text
    expect(page).toContain('VAT 19% on ')
    expect(page).toContain('Reverse charge on ')
    expect(page).not.toContain('VAT AE')
    const form: Record<string, string> = { lines__present: '1', client_id: String(client), currency: 'EUR' }
    lines.forEach((l, i) => {
      for (const [k, v] of Object.entries(l)) form[`lines.${i}.${k}`] = v
    })
    form._csrf = csrfOf((await browser.get(`${base}/documents/new?type=invoice`)).text)
    const totals = await browser.fragment(`${base}/documents/totals`, form)
    expect(totals.status).toBe(200)
    expect(totals.text).toContain('VAT 19% on 100.00')
    expect(totals.text).toContain('Reverse charge on 50.00')
  })
})

describe('the password rule', () => {
  const times = (text: string) => text.split('10 characters').length - 1

  test('is said once on the form a sign-in link opens, and once when a short password is refused there', async () => {
    const { token } = await addPerson(h.deps, { email: 'newcomer@small.example', name: 'Newcomer' })
    const visitor = new AppClient(h)
    const form = await visitor.get(`/app/sign-in/link/${token}`)
    expect(form.status).toBe(200)
    expect(times(form.text)).toBe(1)
    const refused = await visitor.request('POST', `/app/sign-in/link/${token}`, {
      _csrf: csrfOf(form.text),
      password: 'short',
    })
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('must be at least 10 characters')
    expect(times(refused.text)).toBe(1)
  })

  test("is said once on the profile's change of password, and once when a short one is refused", async () => {
    const s = await signedInto()
    expect(times((await s.app.get('/app/profile')).text)).toBe(1)
    const refused = await s.app.submit(
      '/app/profile',
      { current_password: 'x', new_password: 'short' },
      '/app/profile/password',
    )
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('must be at least 10 characters')
    expect(times(refused.text)).toBe(1)
  })
})

describe('a Credit Note has no due date', () => {
  test('none on its page, in its editor or in the list, where its Invoice shows one', async () => {
    const s = await signedInto()
    const client = await h.client(s.business.key)
    const lines = [{ description: 'W', quantity: '1', unit_price: '100.00', vat_rate: '19' }]
    const invoice = await made(s.business.key, { client_id: client, lines, due_date: '2026-05-05' }, true)
    const note = await made(
      s.business.key,
      { type: 'credit_note', client_id: client, credited_document_id: invoice.id, lines, due_date: '2026-06-06' },
      true,
    )
    expect(note.due_date).toBe('2026-06-06')

    const invoicePage = (await s.app.get(`${s.base}/documents/${invoice.id}`)).text
    expect(invoicePage).toContain('<dt>Due</dt>')
    expect(invoicePage).toContain('2026-05-05')
    const notePage = (await s.app.get(`${s.base}/documents/${note.id}`)).text
    expect(notePage).not.toContain('<dt>Due</dt>')
    expect(notePage).not.toContain('2026-06-06')

    // Nor is one asked for in its editor, where an Invoice's is.
    expect((await s.app.get(`${s.base}/documents/new?type=invoice`)).text).toContain('name="due_date"')
    const editor = (await s.app.get(`${s.base}/documents/new?type=credit_note&credited_document_id=${invoice.id}`)).text
    expect(editor).not.toContain('name="due_date"')
    expect(editor).not.toContain('name="payment_terms"')

    const list = (await s.app.get(`${s.base}/documents`)).text
    const row = (number: string) => list.split('<tr>').find((r) => r.includes(number)) ?? ''
    expect(row(invoice.document_number)).toContain('2026-05-05')
    expect(row(note.document_number)).not.toContain('2026-06-06')
  })
})

describe("the Draft and recurring editors' shared parts", () => {
  test("both editors offer the Business's bank accounts as checkboxes with their IBAN, under their own legend", async () => {
    const account = await h.bankAccount(b.id, 'Sparkasse')
    const box = new RegExp(
      `<input type="checkbox" name="bank_account_ids" value="${account}"[^>]*/?>\\s*Sparkasse \\(DE89370400440532013000\\)`,
    )
    const draft = await browser.get(`${base}/documents/new?type=invoice`)
    expect(draft.text).toMatch(box)
    expect(draft.text).toContain('Bank accounts shown on the document')
    const recurring = await browser.get(`${base}/recurring/new`)
    expect(recurring.text).toMatch(box)
    expect(recurring.text).toContain('Bank accounts shown on each Invoice')
    // The Client field is the same picker in both: its search, its choice and its label.
    for (const page of [draft, recurring]) {
      expect(page.text).toContain('<label for="f-client_id">Client</label>')
      expect(page.text).toMatch(/<input type="search" id="f-client_q" name="client_q"/)
    }
  })
})
