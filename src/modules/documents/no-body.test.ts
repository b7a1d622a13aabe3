// Issue, Cancel and Convert take no body (extensions §7): a field sent anyway is 422 naming it with nothing written;
// no body, an empty body and {} act as before.
import { describe, expect, test } from 'bun:test'
import { type Harness, type RequestOptions } from '../../../test/harness'
import { oneClientForFile } from '../../../test/documents-kit'

let h: Harness
let biz: { id: number; key: string }
let clientId: number

oneClientForFile({ name: 'Acme GmbH', email: 'billing@acme.example' }, (made) => ({ h, biz, clientId } = made))

async function draft(type = 'invoice'): Promise<any> {
  const r = await h.request('POST', '/v1/documents', {
    key: biz.key,
    body: {
      type,
      client_id: clientId,
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }],
    },
  })
  expect(r.status).toBe(201)
  return r.body
}

const act = (id: number, action: string, o: Omit<RequestOptions, 'key'> = {}) =>
  h.request('POST', `/v1/documents/${id}/${action}`, { key: biz.key, ...o })

async function issued(type = 'invoice'): Promise<any> {
  const d = await draft(type)
  const r = await act(d.id, 'issue')
  expect(r.status).toBe(200)
  return r.body
}

async function get(id: number): Promise<any> {
  const r = await h.request('GET', `/v1/documents/${id}`, { key: biz.key })
  expect(r.status).toBe(200)
  return r.body
}

async function count(): Promise<number> {
  const r = await h.request('GET', '/v1/documents?limit=100', { key: biz.key })
  return r.body.data.length
}

function expectNamed(r: { status: number; body: any }, ...fields: string[]): void {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  expect(Object.keys(r.body.error.errors).sort()).toEqual(fields.sort())
}

const ways = [
  ['no body', {}],
  ['an empty body', { raw: '', headers: { 'content-type': 'application/json' } }],
  ['{}', { body: {} }],
] as const

describe('issue takes no body', () => {
  test('{"foo": 1} is 422 naming foo; the Draft stays a Draft without a number', async () => {
    const d = await draft()
    expectNamed(await act(d.id, 'issue', { body: { foo: 1 } }), 'foo')
    expect(await get(d.id)).toMatchObject({ status: 'draft', document_number: null })
  })

  test('fields that look like options (issue_date, document_number) are named too, and nothing is issued', async () => {
    const d = await draft()
    expectNamed(
      await act(d.id, 'issue', { body: { issue_date: '2026-03-01', document_number: 'X-1' } }),
      'issue_date',
      'document_number',
    )
    expect((await get(d.id)).status).toBe('draft')
  })

  test.each(ways)('%s issues the Draft', async (_what, o) => {
    const d = await draft()
    const r = await act(d.id, 'issue', o)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('issued')
  })
})

describe('cancel takes no body', () => {
  test('{"foo": 1} is 422 naming foo; the document stays issued', async () => {
    const doc = await issued()
    expectNamed(await act(doc.id, 'cancel', { body: { foo: 1 } }), 'foo')
    expect((await get(doc.id)).status).toBe('issued')
  })

  test.each(ways)('%s cancels the document', async (_what, o) => {
    const doc = await issued()
    const r = await act(doc.id, 'cancel', o)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('cancelled')
  })
})

describe('convert takes no body', () => {
  test('{"foo": 1} is 422 naming foo; no Invoice is made and the Proforma stays unconverted', async () => {
    const pro = await issued('proforma')
    const before = await count()
    expectNamed(await act(pro.id, 'convert', { body: { foo: 1 } }), 'foo')
    expect(await count()).toBe(before)
    expect((await get(pro.id)).converted_into_id).toBeNull()
  })

  test.each(ways)('%s converts the Proforma into an issued Invoice', async (_what, o) => {
    const pro = await issued('proforma')
    const r = await act(pro.id, 'convert', o)
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ type: 'invoice', status: 'issued' })
    expect((await get(pro.id)).converted_into_id).toBe(r.body.id)
  })
})
