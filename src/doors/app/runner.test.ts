// The application goes through the table of operations: every changing form of a Business reaches the runner with a
// declared operation (walked from the router, so a new form without an operation fails here), and its record ids
// follow the API's rule (an id of 0 is refused 404 as the API refuses it).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import { applicationTable } from '../../operations'
import { AppKit, operationWatch } from './kit'
import { Router } from './router'
import { pageRoutes } from './index'
import { AddressLimit } from '../oauth/address-limit'

setDefaultTimeout(120_000)

let h: Harness
let s: { publicId: string; key: string; browser: AppClient; base: string; ids: Record<string, number> }

beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000, webhookAllowPrivate: true } })
  const b = await h.business({ name: 'Runner Shop', email: 'office@shop.example', plan: 'pro' })
  const client = await h.client(b.key, { name: 'Acme GmbH', email: 'billing@acme.example' })
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await h.request(method, path, { key: b.key, body })
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
    return r.body
  }
  const product = await api('POST', '/v1/products', { type: 'service', name: 'Work', price: '100.00', currency: 'EUR' })
  const doc = await api('POST', '/v1/documents', {
    type: 'invoice',
    client_id: client,
    lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
  })
  const paid = await api(
    'POST',
    `/v1/documents/${(await api('POST', '/v1/documents', { type: 'invoice', client_id: client, lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }] })).id}/issue`,
  )
  const payment = await api('POST', `/v1/documents/${paid.id}/payments`, {
    amount: '10.00',
    payment_date: '2026-03-10',
    payment_method: 'cash',
  })
  const p = await person(h, { email: 'owner@runner.example', businessId: b.id, role: 'owner' })
  const browser = new AppClient(h)
  expect((await browser.signIn(p.email, p.password)).status).toBe(303)
  s = {
    publicId: b.publicId,
    key: b.key,
    browser,
    base: `/app/b/${b.publicId}`,
    ids: { documents: doc.id, payments: payment.id, clients: client, products: product.id },
  }
})
afterAll(() => h.close())

/** A form posted as the signed-in browser, its answer unchecked (a fragment such as the editor's totals is no page). */
async function post(path: string, form: Record<string, string>): Promise<number> {
  const headers = {
    cookie: [...s.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'content-type': 'application/x-www-form-urlencoded',
  }
  const res = await h.app.fetch(
    new Request(`http://localhost${path}`, { method: 'POST', headers, body: new URLSearchParams(form).toString() }),
  )
  await res.text()
  return res.status
}

/** The application's routes as its door registers them. */
function routes(): Array<{ method: string; path: string }> {
  const router = new Router()
  pageRoutes(
    new AppKit(h.deps, router, 'listing only', {
      deps: h.deps,
      cursors: h.app.http.cursors,
      pages: null,
      flushRequestLog: async () => {},
    }),
    new AddressLimit(h.deps.clock),
  )
  return router.list()
}

/**
 * A person's own forms, outside any Business: signing in and out, the profile, the invitations waiting for them, the
 * OAuth apps a person owns and the consent page. The table's operations act for a Business's Actor; these act for the person's session.
 */
const PERSON_FORMS = [
  '/app/sign-in',
  '/app/sign-in/link/:token',
  '/app/sign-out',
  '/app/profile/name',
  '/app/profile/password',
  '/app/connect',
  '/app/invitations/accept',
  '/app/invitations/decline',
  '/app/profile/apps',
  '/app/profile/apps/:client',
  '/app/profile/apps/:client/delete',
  '/app/profile/apps/:client/deliveries/:delivery/resend',
  '/app/profile/apps/:client/roll',
  '/app/profile/apps/:client/webhook',
  '/app/profile/apps/:client/webhook/delete',
  '/app/profile/apps/:client/webhook/pause',
  '/app/profile/apps/:client/webhook/resume',
]

describe('every changing form of a Business reaches the runner', () => {
  test('each POST of a Business page runs a declared operation of the table that changes (or previews) something', async () => {
    const posts = routes().filter((r) => r.method === 'POST')
    const ofBusiness = posts.filter((r) => r.path.startsWith('/app/b/:business/'))
    expect(ofBusiness.length).toBeGreaterThan(30)
    const heard: string[] = []
    operationWatch.listener = (name) => heard.push(name)
    try {
      const token = csrfOf((await s.browser.get(`${s.base}/`)).text)
      for (const r of ofBusiness) {
        const path = r.path.replace(/\/:([a-z_]+)/g, (_m, name: string, at: number) => {
          if (name === 'business') return `/${s.publicId}`
          const resource = r.path.slice(0, at).split('/').at(-1)!
          // A record this test made, else an id that names none (the operation still runs, and answers 404).
          return `/${s.ids[resource] ?? 999_999}`
        })
        heard.length = 0
        const status = await post(path, { _csrf: token })
        const changes = heard.filter((n) => applicationTable.get(n)!.access !== 'read')
        expect({ form: r.path, answered: status < 500, ranAChange: changes.length > 0 }).toEqual({
          form: r.path,
          answered: true,
          ranAChange: true,
        })
      }
    } finally {
      operationWatch.listener = null
    }
  })

  test('the only other forms are a person’s own (session, profile, invitations, OAuth apps, consent), listed by name', () => {
    const others = routes()
      .filter((r) => r.method === 'POST' && !r.path.startsWith('/app/b/:business/'))
      .map((r) => r.path)
    expect([...new Set(others)].sort()).toEqual([...PERSON_FORMS].sort())
  })
})

describe('an application id follows the API rule', () => {
  test('an id of 0 is refused 404 on the pages, their files and their forms, as the API refuses /v1/documents/0', async () => {
    expect((await h.request('GET', '/v1/documents/0', { key: s.key })).status).toBe(404)
    const token = csrfOf((await s.browser.get(`${s.base}/`)).text)
    for (const path of [
      '/documents/0',
      '/documents/0/edit',
      '/documents/0/pdf',
      '/documents/0/xml',
      '/documents/0/send',
      '/payments/0',
      '/receipts/0/pdf',
      '/clients/0',
      '/clients/0/edit',
      '/products/0/edit',
    ]) {
      expect({ path, status: (await s.browser.get(`${s.base}${path}`)).status }).toEqual({ path, status: 404 })
    }
    for (const path of [
      '/documents/0/issue',
      '/documents/0/mark-sent',
      '/documents/0/remind',
      '/payments/0/reverse',
      '/payments/0/email-receipt',
      '/clients/0',
      '/products/0/archive',
      '/settings/keys/0/revoke',
    ]) {
      expect({ path, status: await post(`${s.base}${path}`, { _csrf: token }) }).toEqual({ path, status: 404 })
    }
    // A whole number with a leading zero names nothing either, as on the API.
    expect((await s.browser.get(`${s.base}/documents/0${s.ids.documents}`)).status).toBe(404)
    expect((await h.request('GET', `/v1/documents/0${s.ids.documents}`, { key: s.key })).status).toBe(404)
  })
})

describe('an id read from a form field or a query follows the API rule', () => {
  /** A form posted as the signed-in browser: its status and page. */
  async function postForm(path: string, form: Array<[string, string]>): Promise<{ status: number; text: string }> {
    const headers = {
      cookie: [...s.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': 'application/x-www-form-urlencoded',
    }
    const res = await h.app.fetch(
      new Request(`http://localhost${path}`, { method: 'POST', headers, body: new URLSearchParams(form).toString() }),
    )
    return { status: res.status, text: await res.text() }
  }

  test('an id of 0 or with a leading zero in a form field is a 422 naming the field, as the API refuses client_id: 0', async () => {
    const api = await h.request('POST', '/v1/documents', {
      key: s.key,
      body: { type: 'invoice', client_id: 0, lines: [{ description: 'Work', quantity: '1', unit_price: '1.00' }] },
    })
    expect(api.status).toBe(422)
    expect(Object.keys(api.body.error.errors)).toContain('client_id')
    const token = csrfOf((await s.browser.get(`${s.base}/`)).text)
    const line: Array<[string, string]> = [
      ['lines__present', '1'],
      ['lines.0.description', 'Work'],
      ['lines.0.quantity', '1'],
      ['lines.0.unit_price', '1.00'],
    ]
    const good = String(s.ids.clients)
    for (const [field, form] of [
      ['client_id', [['type', 'invoice'], ['client_id', '0'], ...line]],
      ['client_id', [['type', 'invoice'], ['client_id', `0${good}`], ...line]],
      ['credited_document_id', [['type', 'credit_note'], ['client_id', good], ['credited_document_id', '0'], ...line]],
      ['bank_account_ids', [['type', 'invoice'], ['client_id', good], ['bank_account_ids', '0'], ...line]],
      ['lines.0.product_id', [['type', 'invoice'], ['client_id', good], ['lines.0.product_id', '0'], ...line]],
    ] as Array<[string, Array<[string, string]>]>) {
      const r = await postForm(`${s.base}/documents`, [['_csrf', token], ...form])
      // The field is named by its own error line, in the list of fields that have no place, or as its Line.
      const named = [`id="f-${field}-err"`, `<li>${field}: `, field.startsWith('lines.0.') ? 'Line 1: ' : '-'].some(
        (m) => r.text.includes(m),
      )
      expect({ field, form, status: r.status, named }).toEqual({ field, form, status: 422, named: true })
    }
  })

  test('a bank account id of 0 on the Payment form is a 422 naming the field, as the API refuses bank_account_id: 0', async () => {
    // The issued Invoice that takes Payments (a Draft's page shows no Payment form).
    const issued = (await h.request('GET', `/v1/payments/${s.ids.payments}`, { key: s.key })).body.document_id
    const api = await h.request('POST', `/v1/documents/${issued}/payments`, {
      key: s.key,
      body: { amount: '1.00', payment_date: '2026-03-10', payment_method: 'bank_transfer', bank_account_id: 0 },
    })
    expect({ status: api.status, fields: Object.keys(api.body.error.errors ?? {}) }).toEqual({
      status: 422,
      fields: ['bank_account_id'],
    })
    const token = csrfOf((await s.browser.get(`${s.base}/`)).text)
    for (const id of ['0', '01']) {
      const r = await postForm(`${s.base}/documents/${issued}/payments`, [
        ['_csrf', token],
        ['amount', '1.00'],
        ['payment_date', '2026-03-10'],
        ['payment_method', 'bank_transfer'],
        ['bank_account_id', id],
      ])
      const named = /<select id="f-bank_account_id" name="bank_account_id" aria-invalid="true"/.test(r.text)
      expect({ id, status: r.status, named }).toEqual({ id, status: 422, named: true })
    }
  })

  test('a Client id of 0 or with a leading zero in the statement query is a 404, as /v1/clients/0 is', async () => {
    expect((await h.request('GET', '/v1/clients/0', { key: s.key })).status).toBe(404)
    const q = 'from=2026-01-01&to=2026-12-31&client_id='
    expect((await s.browser.get(`${s.base}/reports/statement.csv?${q}${s.ids.clients}`)).status).toBe(200)
    for (const id of ['0', `0${s.ids.clients}`]) {
      const status = (await s.browser.get(`${s.base}/reports/statement.csv?${q}${id}`)).status
      expect({ id, status }).toEqual({ id, status: 404 })
    }
  })
})

describe("the application's words for refusals", () => {
  test("a Draft's page says why Cancel is closed in the application's words, never the API's route", async () => {
    const draft = await h.request('POST', '/v1/documents', {
      key: s.key,
      body: {
        type: 'invoice',
        client_id: s.ids.clients,
        lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }],
      },
    })
    expect(draft.status).toBe(201)
    const page = await s.browser.get(`${s.base}/documents/${draft.body.id}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('A Draft is not cancelled: delete it instead.')
    expect(page.text).not.toContain('/v1/documents')
  })
})
