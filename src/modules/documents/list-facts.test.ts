// A list page reads what its documents share once (FactsMemo in facts.ts): the Client, the numbering of a type and
// year, the Receipt numbering, the Invoices issued in a year. What each document answers must not change for it:
// every item of the page is the document exactly as GET /v1/documents/{id} answers it, `actions` included.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'

let h: Harness
harnessForFile((made) => (h = made))

const LINE = { description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }

async function ok(method: string, path: string, key: string, body?: unknown): Promise<any> {
  const r = await h.request(method, path, { key, body })
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.body
}

describe('a list page and each of its documents', () => {
  test('every item of GET /v1/documents equals GET /v1/documents/{id}: Drafts with and without a requested number (one taken), issued and paid Invoices, a Proforma, two Clients', async () => {
    const { key } = await h.business({ currency: 'EUR' })
    const clientA = (
      await ok('POST', '/v1/clients', key, { name: 'Client A', email: 'a@client.example', country: 'DE' })
    ).id
    const clientB = (
      await ok('POST', '/v1/clients', key, { name: 'Client B', email: 'b@client.example', country: 'AT' })
    ).id
    const draft = (client: number, extra: Record<string, unknown> = {}) =>
      ok('POST', '/v1/documents', key, { type: 'invoice', client_id: client, lines: [LINE], ...extra })

    const issued = await ok('POST', `/v1/documents/${(await draft(clientA)).id}/issue`, key)
    const paid = await ok('POST', `/v1/documents/${(await draft(clientB)).id}/issue`, key)
    await ok('POST', `/v1/documents/${paid.id}/payments`, key, {
      amount: paid.total,
      payment_date: paid.issue_date,
      payment_method: 'cash',
    })
    await draft(clientA)
    await draft(clientB)
    // A Draft asking for the number the first Invoice holds: its `actions.issue` is refused, the others' are not.
    await draft(clientA, { document_number: issued.document_number })
    await ok('POST', '/v1/documents', key, { type: 'proforma', client_id: clientB, lines: [LINE] })
    const proforma = await ok('POST', '/v1/documents', key, { type: 'proforma', client_id: clientA, lines: [LINE] })
    await ok('POST', `/v1/documents/${proforma.id}/issue`, key)

    const page = await ok('GET', '/v1/documents?limit=100', key)
    expect(page.data.length).toBe(7)
    for (const item of page.data) expect(item).toEqual(await ok('GET', `/v1/documents/${item.id}`, key))
    const issues = page.data
      .filter((d: any) => d.status === 'draft' && d.type === 'invoice')
      .map((d: any) => d.actions.issue.open)
    expect(issues.sort()).toEqual([false, true, true])
  })
})
