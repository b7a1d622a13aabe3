// The daily-work pages over HTTP, signed in as a person: every application-only action with each of its refusal codes
// (422, the code's words on the page, nothing written, nothing sent); mark sent heard by a webhook receiver verified
// with `standardwebhooks`; a Viewer and a Free Business's Member read everything and change nothing; report CSV equals
// the API to the cent; a Payment recorded here has recorded_by null; every page valid HTML with the §9 headers.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { receiver, verify } from '../../../../modules/webhooks/webhooks.testkit'
import { makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, csrfOf, person, type Page } from '../../../../../test/app-client'
import { startTestSmtpServer, type TestSmtpServer } from '../../../../adapters/smtp-test-server'
import { documents, mailDailyCounts, outbox, payments, receipts } from '../../../../db/schema'
import { deliveryContext } from '../../../../jobs/webhooks'
import { deliverDue, dispatchOutbox } from '../../../../modules/webhooks'
import { parseCsv } from '../../../../../test/csv'
import { says } from '../../../../shared/errors'
import { updateBusiness, type BusinessInput } from '../../../../modules/business'

// Each test walks several pages and emails; a loaded machine takes seconds.
setDefaultTimeout(60_000)

let h: Harness
let smtp: TestSmtpServer

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  h = await makeHarness({ config: { mailRelay: smtp.url, rateLimit: 1_000_000, webhookAllowPrivate: true } })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})
beforeEach(() => {
  smtp.received.length = 0
})

let n = 0
const CLIENT_EMAIL = 'billing@acme.example'
const line = (unit_price = '100.00', vat_rate = '19.00') => ({
  description: 'Work',
  quantity: '1',
  unit_price,
  vat_rate,
})

interface Setup {
  id: number
  publicId: string
  key: string
  client: number
  browser: AppClient
  base: string
}

/** A Business with an Admin key, a Client, and a person of the given Role signed in. */
async function setup(
  o: { role?: 'owner' | 'admin' | 'member' | 'viewer'; email?: string | null } = {},
): Promise<Setup> {
  n++
  // Made on a paid plan (the API key sets things up), then moved to the plan asked for.
  const b = await h.business({
    name: `Shop ${n}`,
    email: o.email === undefined ? 'office@shop.example' : o.email,
    plan: 'pro',
  })
  const client = await h.client(b.key, { name: 'Acme GmbH', email: CLIENT_EMAIL })
  const p = await person(h, { email: `p${n}@example.com`, businessId: b.id, role: o.role ?? 'owner' })
  const browser = new AppClient(h)
  expect((await browser.signIn(p.email, p.password)).status).toBe(303)
  return { id: b.id, publicId: b.publicId, key: b.key, client, browser, base: `/app/b/${b.publicId}` }
}

async function api(s: Setup, method: string, path: string, body?: unknown) {
  const r = await h.request(method, path, { key: s.key, body })
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.body
}
const draft = (s: Setup, extra: Record<string, unknown> = {}) =>
  api(s, 'POST', '/v1/documents', { type: 'invoice', client_id: s.client, lines: [line()], ...extra })
const issued = async (s: Setup, extra: Record<string, unknown> = {}) =>
  api(s, 'POST', `/v1/documents/${(await draft(s, extra)).id}/issue`)
const pay = (s: Setup, id: number, amount: string) =>
  api(s, 'POST', `/v1/documents/${id}/payments`, { amount, payment_date: '2026-03-10', payment_method: 'cash' })

/** Everything of the Business a change could touch. */
async function everything(bizId: number) {
  const q = h.deps.db.read
  return {
    documents: await q.select().from(documents).where(eq(documents.businessId, bizId)).orderBy(documents.id),
    events: await q.select().from(outbox).where(eq(outbox.businessId, bizId)).orderBy(outbox.id),
    payments: await q.select().from(payments).where(eq(payments.businessId, bizId)),
    receipts: await q.select().from(receipts).where(eq(receipts.businessId, bizId)),
    mail: await q.select().from(mailDailyCounts).where(eq(mailDailyCounts.businessId, bizId)),
  }
}

/** Posts an action from the page that shows its form (so the CSRF token is the page's own). */
async function post(s: Setup, path: string, form: Record<string, string> = {}, from = `${s.base}/`): Promise<Page> {
  const page = await s.browser.get(from)
  return s.browser.request('POST', `${s.base}${path}`, { _csrf: csrfOf(page.text), ...form })
}

/** Expects the post answered 422 with the code on the page, and nothing written, nothing sent. */
async function refusedOnPage(s: Setup, path: string, code: string, form: Record<string, string> = {}) {
  const before = await everything(s.id)
  const sent = smtp.received.length
  const r = await post(s, path, form)
  expect({ path, status: r.status }).toEqual({ path, status: 422 })
  expect(r.text).toContain(`data-code="${code}"`)
  expect(await everything(s.id)).toEqual(before)
  expect(smtp.received.length).toBe(sent)
  return r
}

describe('application-only actions over HTTP, each refusal writing nothing', () => {
  test('mark sent: draft_not_delivered, cancelled_not_marked; take the mark back: not_marked_sent, cancelled_keeps_mark', async () => {
    const s = await setup()
    const d = await draft(s)
    await refusedOnPage(s, `/documents/${d.id}/mark-sent`, 'draft_not_delivered')
    const c = await issued(s)
    await api(s, 'POST', `/v1/documents/${c.id}/cancel`)
    await refusedOnPage(s, `/documents/${c.id}/mark-sent`, 'cancelled_not_marked')
    const doc = await issued(s)
    await refusedOnPage(s, `/documents/${doc.id}/unmark-sent`, 'not_marked_sent')
    expect((await post(s, `/documents/${doc.id}/mark-sent`)).status).toBe(303)
    expect((await api(s, 'GET', `/v1/documents/${doc.id}`)).last_sent).toEqual({
      at: h.clock.now().toISOString(),
      recipients: [],
      via: 'marked',
    })
    await api(s, 'POST', `/v1/documents/${doc.id}/cancel`)
    await refusedOnPage(s, `/documents/${doc.id}/unmark-sent`, 'cancelled_keeps_mark')
    // Taken back on a standing document: last_sent null again, no event.
    const other = await issued(s)
    await post(s, `/documents/${other.id}/mark-sent`)
    const events = (await everything(s.id)).events.length
    expect((await post(s, `/documents/${other.id}/unmark-sent`)).status).toBe(303)
    expect((await api(s, 'GET', `/v1/documents/${other.id}`)).last_sent).toBeNull()
    expect((await everything(s.id)).events.length).toBe(events)
  })

  test('remind: not_remindable, converted_proforma, never_reminded, no_mail_provider_to_remind; a reminder goes out', async () => {
    const s = await setup()
    const d = await draft(s)
    await refusedOnPage(s, `/documents/${d.id}/remind`, 'not_remindable')
    const pf = await issued(s, { type: 'proforma' })
    const inv = await api(s, 'POST', `/v1/documents/${pf.id}/convert`)
    await refusedOnPage(s, `/documents/${pf.id}/remind`, 'converted_proforma')
    await refusedOnPage(s, `/documents/${inv.id}/remind-again`, 'never_reminded')
    expect((await post(s, `/documents/${inv.id}/remind`)).status).toBe(303)
    expect(smtp.received.map((m) => m.envelope.to)).toEqual([[CLIENT_EMAIL]])
    const page = await s.browser.get(`${s.base}/documents/${inv.id}`)
    expect(page.text).toContain(`datetime="${h.clock.now().toISOString()}"`)
    const none = await setup({ email: null })
    const doc = await issued(none)
    await refusedOnPage(none, `/documents/${doc.id}/remind`, 'no_mail_provider_to_remind')
  })

  test('email a Receipt: receipt_voided, no_receipt, no_mail_provider_for_receipt; one goes out', async () => {
    const s = await setup()
    const doc = await issued(s)
    const p = await pay(s, doc.id, '10.00')
    await api(s, 'POST', `/v1/payments/${p.id}/reverse`)
    await refusedOnPage(s, `/payments/${p.id}/email-receipt`, 'receipt_voided')
    const old = await pay(s, doc.id, '5.00')
    await h.deps.db.write((tx) => tx.run(sql`DELETE FROM receipts WHERE payment_id = ${old.id}`))
    await refusedOnPage(s, `/payments/${old.id}/email-receipt`, 'no_receipt')
    const good = await pay(s, doc.id, '7.00')
    expect((await post(s, `/payments/${good.id}/email-receipt`)).status).toBe(303)
    expect(smtp.received[0]!.mail.subject).toBe(`Receipt ${good.receipt.receipt_number} from Shop ${n}`)
    const none = await setup({ email: null })
    const d2 = await issued(none)
    const p2 = await pay(none, d2.id, '1.00')
    await refusedOnPage(none, `/payments/${p2.id}/email-receipt`, 'no_mail_provider_for_receipt')
  })

  test("a reversed Payment's Reverse is closed in the catalog's payment_reversed words, and only a counted one is amended", async () => {
    const s = await setup()
    const doc = await issued(s)
    const gone = await pay(s, doc.id, '10.00')
    await api(s, 'POST', `/v1/payments/${gone.id}/reverse`)
    const kept = await pay(s, doc.id, '5.00')
    const page = (await s.browser.get(`${s.base}/documents/${doc.id}`)).text
    expect(page).toContain(`<span class="why" id="why-reverse-${gone.id}">${says('payment_reversed')}</span>`)
    expect(page).not.toContain(`href="${s.base}/payments/${gone.id}"`)
    expect(page).toContain(`id="reverse-${kept.id}"`)
    expect(page).toContain(`href="${s.base}/payments/${kept.id}"`)
  })

  test('duplicate: a new Draft; client_deleted when the Client is gone', async () => {
    const s = await setup()
    const doc = await issued(s)
    const r = await post(s, `/documents/${doc.id}/duplicate`)
    expect(r.status).toBe(303)
    const copyId = Number(/\/documents\/(\d+)\?/.exec(r.location!)![1])
    expect(await api(s, 'GET', `/v1/documents/${copyId}`)).toMatchObject({
      status: 'draft',
      client_id: s.client,
      total: doc.total,
    })
    await h.deps.db.writerClient.execute('PRAGMA foreign_keys = OFF')
    await h.deps.db.write((tx) => tx.run(sql`DELETE FROM clients WHERE id = ${s.client}`))
    await h.deps.db.writerClient.execute('PRAGMA foreign_keys = ON')
    await refusedOnPage(s, `/documents/${doc.id}/duplicate`, 'client_deleted')
  })

  test('marking sent raises document.sent, heard by a webhook receiver and verified with standardwebhooks', async () => {
    const s = await setup()
    const rx = receiver(h.clock)
    const got = rx.got
    try {
      const hook = await api(s, 'POST', '/v1/webhooks', {
        url: rx.url,
        events: ['document.sent'],
      })
      const doc = await issued(s)
      expect((await post(s, `/documents/${doc.id}/mark-sent`)).status).toBe(303)
      const ctx = deliveryContext(h.deps)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      expect(got.length).toBe(1)
      const msg = verify(hook.secret, got[0]!)
      expect(msg.type).toBe('document.sent')
      expect(msg.data.document.id).toBe(doc.id)
      expect(msg.data.document.last_sent).toMatchObject({ recipients: [], via: 'marked' })
    } finally {
      rx.stop()
    }
  })
})

describe('who may change what', () => {
  const pages = (s: Setup, docId: number) => [
    `${s.base}/`,
    `${s.base}/documents`,
    `${s.base}/documents/${docId}`,
    `${s.base}/clients`,
    `${s.base}/clients/${s.client}`,
    `${s.base}/products`,
    `${s.base}/receipts`,
    `${s.base}/reports`,
  ]

  for (const who of [
    { role: 'viewer' as const, plan: 'pro' as const, words: 'A Viewer only reads.', code: null },
    {
      role: 'member' as const,
      plan: 'free' as const,
      words: 'On the Free plan only the Owner makes changes',
      code: 'plan_role_viewing',
    },
  ]) {
    test(`a ${who.role} on the ${who.plan} plan reads every page and changes nothing (403)`, async () => {
      const s = await setup({ role: who.role })
      const doc = await issued(s)
      const d = await draft(s)
      const p = await pay(s, doc.id, '1.00')
      if (who.plan === 'free') await updateBusiness(h.deps.db, h.clock, s.id, { plan: 'free' } as BusinessInput)
      for (const path of pages(s, doc.id))
        expect({ path, status: (await s.browser.get(path)).status }).toEqual({ path, status: 200 })
      const docPage = await s.browser.get(`${s.base}/documents/${doc.id}`)
      expect(docPage.text).toContain(who.words)
      expect(docPage.text).not.toContain(`action="${s.base}/documents/${doc.id}/cancel"`)
      expect((await s.browser.get(`${s.base}/reports/income.csv?from=2026-03-01&to=2026-03-31`)).status).toBe(200)
      const before = await everything(s.id)
      const csrf = csrfOf(docPage.text)
      const posts: [string, Record<string, string>][] = [
        [`/documents/${doc.id}/cancel`, {}],
        [`/documents/${doc.id}/mark-sent`, {}],
        [`/documents/${doc.id}/remind`, {}],
        [`/documents/${d.id}/issue`, {}],
        [`/documents/${d.id}/delete`, {}],
        [`/documents/${doc.id}/payments`, { amount: '1.00', payment_date: '2026-03-10', payment_method: 'cash' }],
        [`/payments/${p.id}/reverse`, {}],
        [`/payments/${p.id}/email-receipt`, {}],
        ['/clients', { name: 'X', email: 'x@example.com', country: 'DE' }],
        [`/clients/${s.client}/active`, { active: 'false' }],
        ['/products', { name: 'P', type: 'service', price: '1.00', currency: 'EUR' }],
        ['/documents', { type: 'invoice', client_id: String(s.client) }],
      ]
      for (const [path, form] of posts) {
        const r = await s.browser.request('POST', `${s.base}${path}`, { _csrf: csrf, ...form })
        expect({ path, status: r.status }).toEqual({ path, status: 403 })
        if (who.code) expect(r.text).toContain(who.words)
      }
      expect(await everything(s.id)).toEqual(before)
      expect(smtp.received.length).toBe(0)
    })
  }

  test('a change without the CSRF token is 403 and changes nothing', async () => {
    const s = await setup()
    const doc = await issued(s)
    const before = await everything(s.id)
    const r = await s.browser.request('POST', `${s.base}/documents/${doc.id}/cancel`, {})
    expect(r.status).toBe(403)
    expect(await everything(s.id)).toEqual(before)
  })
})

describe('daily work through the pages', () => {
  test('a Client, a two-rate Invoice, issue, Payments (recorded_by null), as the API then reads them', async () => {
    const s = await setup()
    const created = await s.browser.submit(
      `${s.base}/clients/new`,
      { name: 'Beta Ltd', email: 'pay@beta.example', country: 'AT', payment_terms: '14' },
      `${s.base}/clients`,
    )
    expect(created.status).toBe(303)
    const clientId = Number(/\/clients\/(\d+)/.exec(created.location!)![1])
    expect(await api(s, 'GET', `/v1/clients/${clientId}`)).toMatchObject({
      name: 'Beta Ltd',
      country: 'AT',
      payment_terms: 14,
    })

    // A refused form keeps what was typed and says why, changing nothing.
    const bad = await s.browser.submit(
      `${s.base}/clients/new`,
      { name: 'No Mail', email: '', country: 'DE' },
      `${s.base}/clients`,
    )
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('No Mail')

    const form = {
      type: 'invoice',
      client_id: String(clientId),
      lines__present: '1',
      'lines.0.description': 'Consulting',
      'lines.0.quantity': '3',
      'lines.0.unit_price': '100.00',
      'lines.0.vat_rate': '19',
      'lines.1.description': 'Books',
      'lines.1.quantity': '2',
      'lines.1.unit_price': '12.50',
      'lines.1.vat_rate': '7',
      'lines.2.description': '',
    }
    const saved = await s.browser.submit(`${s.base}/documents/new?type=invoice`, form, `${s.base}/documents`)
    expect(saved.status).toBe(303)
    const docId = Number(/\/documents\/(\d+)/.exec(saved.location!)![1])
    const doc = await api(s, 'GET', `/v1/documents/${docId}`)
    expect(doc).toMatchObject({ status: 'draft', net_total: '325.00', vat_total: '58.75', total: '383.75' })

    // Live totals: the editor's preview computes what saving computes.
    // (A fragment htmx swaps in, not a page: posted as htmx does, with the form's token.)
    const cookie = [...s.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const token = csrfOf((await s.browser.get(`${s.base}/documents/new`)).text)
    const preview = await h.app.fetch(
      new Request(`http://localhost${s.base}/documents/totals`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form, _csrf: token }).toString(),
      }),
    )
    expect(preview.status).toBe(200)
    expect(await preview.text()).toContain('383.75')
    expect(await everything(s.id)).toMatchObject({ documents: [{ id: docId }] })

    expect((await post(s, `/documents/${docId}/issue`)).status).toBe(303)
    expect(
      (
        await post(s, `/documents/${docId}/payments`, {
          amount: '100.00',
          payment_date: '2026-03-10',
          payment_method: 'cash',
        })
      ).status,
    ).toBe(303)
    expect((await api(s, 'GET', `/v1/documents/${docId}`)).status).toBe('partially_paid')
    // Too much is refused in the contract's words, nothing recorded.
    const before = await everything(s.id)
    const over = await post(s, `/documents/${docId}/payments`, {
      amount: '999.00',
      payment_date: '2026-03-10',
      payment_method: 'cash',
    })
    expect(over.status).toBe(422)
    expect(over.text).toContain('data-code="payment_exceeds_amount_due"')
    expect(await everything(s.id)).toEqual(before)
    expect(
      (
        await post(s, `/documents/${docId}/payments`, {
          amount: '283.75',
          payment_date: '2026-03-10',
          payment_method: 'cash',
        })
      ).status,
    ).toBe(303)
    expect((await api(s, 'GET', `/v1/documents/${docId}`)).status).toBe('paid')
    const list = await api(s, 'GET', `/v1/payments?document_id=${docId}`)
    expect(list.data.map((p: any) => p.recorded_by)).toEqual([null, null])

    const pdf = await s.browser.get(`${s.base}/documents/${docId}/pdf`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
  })

  test('report CSV downloads equal the API to the cent', async () => {
    const s = await setup()
    const a = await issued(s, {
      issue_date: '2026-03-02',
      due_date: '2026-03-05',
      lines: [line('100.01'), line('33.33', '7.00')],
    })
    await pay(s, a.id, '12.34')
    await issued(s, {
      type: 'credit_note',
      issue_date: '2026-03-03',
      credited_document_id: a.id,
      lines: [line('10.00')],
    })
    const period = 'from=2026-03-01&to=2026-03-31'
    const csv = async (path: string) => {
      const r = await s.browser.get(`${s.base}/reports/${path}`)
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      const [head, ...rows] = parseCsv(r.text.replace(/^\uFEFF/, ''))
      return rows.map((row) => Object.fromEntries(head!.map((k, i) => [k, row[i]!])))
    }
    const income = await api(s, 'GET', `/v1/reports/income?${period}`)
    expect((await csv(`income.csv?${period}`))[0]).toEqual({
      currency: 'EUR',
      from: '2026-03-01',
      to: '2026-03-31',
      income: income.income,
      vat: income.vat,
      other_currency_documents: '0',
    })
    const vat = await api(s, 'GET', `/v1/reports/vat?${period}`)
    const vatRows = await csv(`vat.csv?${period}`)
    expect(vatRows.slice(0, -1).map((r) => ({ category: r.category, rate: r.rate, net: r.net, vat: r.vat }))).toEqual(
      vat.bands,
    )
    expect(vatRows.at(-1)).toMatchObject({ net: vat.net, vat: vat.vat })
    const overdue = await api(s, 'GET', '/v1/reports/overdue')
    expect((await csv('overdue.csv')).at(-1)).toMatchObject({
      documents: String(overdue.count),
      amount_due: overdue.amount_due,
    })
    const st = await api(s, 'GET', `/v1/reports/statement?client_id=${s.client}&${period}`)
    const stRows = await csv(`statement.csv?client_id=${s.client}&${period}`)
    expect(stRows.at(-1)).toMatchObject({ kind: 'closing_balance', balance: st.currencies[0].closing_balance })
    expect(stRows.filter((r) => r.kind === 'document' || r.kind === 'payment').map((r) => r.balance)).toEqual(
      st.currencies[0].lines.map((l: any) => l.balance),
    )
    // A wrong period is refused in words, not a file.
    expect((await s.browser.get(`${s.base}/reports/income.csv?from=2026-03-31&to=2026-03-01`)).status).toBe(422)
  })
})
