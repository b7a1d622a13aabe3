// Credit Notes to the end in the application (extensions §20): made from an Invoice it starts with its Lines, the two
// pages link each other, refunds are recorded and reversed on the Credit Note's page, and no "Due now" is shown for
// what owes nothing (a Cancelled Invoice, a Quote, a Credit Note), in the list and on the page.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, csrfOf, person } from '../../../../../test/app-client'

// Several pages each; a loaded machine takes seconds.
setDefaultTimeout(60_000)

let h: Harness
let b: { id: number; publicId: string; key: string }
let client: number
let browser: AppClient
let base: string

beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
  b = await h.business({ name: 'Credit GmbH' })
  await h.bankAccount(b.id)
  client = await h.client(b.key, { name: 'Kunde AG' })
  const who = await person(h, { email: 'owner@credit.example', businessId: b.id, role: 'owner' })
  browser = new AppClient(h)
  expect((await browser.signIn(who.email, who.password)).status).toBe(303)
  base = `/app/b/${b.publicId}`
})
afterAll(() => h.close())

async function issued(type: string): Promise<any> {
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: {
      type,
      client_id: client,
      lines: [
        { description: 'Design work', quantity: '2', unit_price: '50.00', vat_rate: '19.00' },
        { description: 'Hosting', quantity: '1', unit_price: '50.00', vat_rate: '19.00' },
      ],
    },
  })
  return (await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })).body
}

/** The text of the element with this id on the page, or null. */
function byId(html: string, id: string): string | null {
  const m = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</(dd|p|td|section)>`).exec(html)
  return m
    ? m[1]!
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : null
}

describe('a Credit Note in the application', () => {
  test("made from the Invoice's page it starts with the Invoice's Lines, and both pages link each other", async () => {
    const invoice = await issued('invoice')
    const invoicePage = await browser.get(`${base}/documents/${invoice.id}`)
    const href = /id="new-credit-note"|href="([^"]+)"[^>]*id="new-credit-note"/.exec(invoicePage.text)
    expect(href).not.toBeNull()
    const editor = await browser.get(
      `${base}/documents/new?type=credit_note&client_id=${client}&credited_document_id=${invoice.id}`,
    )
    expect(editor.status).toBe(200)
    expect(editor.text).toContain('value="Design work"')
    expect(editor.text).toContain('value="Hosting"')
    // Saved as the form stands: the Lines come with it.
    const form: Record<string, string> = {
      type: 'credit_note',
      client_id: String(client),
      credited_document_id: String(invoice.id),
      lines__present: '1',
    }
    for (const m of editor.text.matchAll(/name="(lines\.\d+\.[a-z_]+)"[^>]*value="([^"]*)"/g)) form[m[1]!] = m[2]!
    const made = await browser.request('POST', `${base}/documents`, { ...form, _csrf: csrfOf(editor.text) })
    expect(made.status).toBe(303)
    const creditId = Number(/documents\/(\d+)/.exec(made.location!)![1])
    const credit = await h.request('GET', `/v1/documents/${creditId}`, { key: b.key })
    expect(credit.body.lines.map((l: any) => l.description)).toEqual(['Design work', 'Hosting'])
    expect(credit.body.total).toBe(invoice.total)
    await h.request('POST', `/v1/documents/${creditId}/issue`, { key: b.key })

    const creditPage = await browser.get(`${base}/documents/${creditId}`)
    expect(byId(creditPage.text, 'credits-invoice')).toBe(`Invoice ${invoice.document_number}`)
    expect(creditPage.text).toContain(`href="${base}/documents/${invoice.id}"`)
    const back = await browser.get(`${base}/documents/${invoice.id}`)
    expect(back.text).toContain(`href="${base}/documents/${creditId}"`)
    expect(byId(back.text, 'credit-notes')).toContain('CN-')
  })

  test('a refund is recorded and reversed on the Credit Note page; what is owed to the Client follows', async () => {
    const invoice = await issued('invoice')
    const cn = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: { type: 'credit_note', client_id: client, credited_document_id: invoice.id },
    })
    await h.request('POST', `/v1/documents/${cn.body.id}/issue`, { key: b.key })
    const page = await browser.get(`${base}/documents/${cn.body.id}`)
    expect(byId(page.text, 'doc-owed')).toBe('178.50 EUR')
    expect(page.text).toContain('id="record-refund"')
    const done = await browser.request('POST', `${base}/documents/${cn.body.id}/refunds`, {
      _csrf: csrfOf(page.text),
      amount: '178.50',
      refund_date: '2026-03-10',
      method: 'cash',
    })
    expect(done.status).toBe(303)
    const after = await browser.get(`${base}/documents/${cn.body.id}`)
    expect(byId(after.text, 'doc-refunded')).toBe('178.50 EUR')
    expect(byId(after.text, 'doc-owed')).toBe('0.00 EUR')
    expect(byId(after.text, 'refund-closed')).toBe('Nothing is left to refund.')
    const refundId = /data-refund="(\d+)"/.exec(after.text)![1]
    const over = await browser.request('POST', `${base}/documents/${cn.body.id}/refunds`, {
      _csrf: csrfOf(after.text),
      amount: '1.00',
      refund_date: '2026-03-10',
      method: 'cash',
    })
    expect(over.status).toBe(422)
    expect(over.text).toContain('left to refund on this Credit Note')
    const reversed = await browser.request('POST', `${base}/refunds/${refundId}/reverse`, { _csrf: csrfOf(after.text) })
    expect(reversed.status).toBe(303)
    expect(byId((await browser.get(`${base}/documents/${cn.body.id}`)).text, 'doc-owed')).toBe('178.50 EUR')
  })

  test('no "Due now" amount for a Cancelled Invoice, a Quote or a Credit Note, in the list and on the page', async () => {
    const cancelled = await issued('invoice')
    await h.request('POST', `/v1/documents/${cancelled.id}/cancel`, { key: b.key })
    const quote = await issued('quote')
    const open = await issued('invoice')
    for (const d of [cancelled, quote]) {
      const p = await browser.get(`${base}/documents/${d.id}`)
      expect(p.text).not.toContain('id="doc-due"')
    }
    expect((await browser.get(`${base}/documents/${open.id}`)).text).toContain('id="doc-due"')
    const list = await browser.get(`${base}/documents`)
    const rowOf = (id: number) => {
      const start = list.text.indexOf(`href="${base}/documents/${id}"`)
      return list.text.slice(start, list.text.indexOf('</tr>', start))
    }
    const dueCell = (id: number) => /data-label="Due now">([\s\S]*?)<\/td>/.exec(rowOf(id))![1]!
    expect(dueCell(cancelled.id)).not.toContain('data-amount')
    expect(dueCell(quote.id)).not.toContain('data-amount')
    expect(dueCell(open.id)).toContain('data-amount="178.50"')
    // The status filter says the badge's words.
    expect(list.text).toContain('>Partly paid</option>')
  })
})
