// Due dates stop at 9999-12-31: a Draft whose counted due date would pass it is refused 422 under the field that
// pushes it there, on create, update, Issue, Convert and a Send that issues, before anything is saved or numbered.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { type Harness, type TestResponse } from '../../../test/harness'
import { mailHarnessForFile } from '../../../test/mail-harness'
import { documents } from '../../db/schema'
import type { TestSmtpServer } from '../../adapters/smtp-test-server'

let h: Harness
let smtp: TestSmtpServer

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
mailHarnessForFile((made, server) => ((h = made), (smtp = server)), { freshMinute: true })

interface Setup {
  key: string
  clientId: number
}

async function setup(clientExtra: Record<string, unknown> = {}): Promise<Setup> {
  const b = await h.business({ currency: 'EUR', email: 'office@shop.example' })
  const c = await h.request('POST', '/v1/clients', {
    key: b.key,
    body: { name: 'Far Future GmbH', email: 'billing@future.example', country: 'DE', ...clientExtra },
  })
  if (c.status !== 201) throw new Error(c.text)
  return { key: b.key, clientId: c.body.id }
}

const lines = [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }]

function create(s: Setup, body: Record<string, unknown>): Promise<TestResponse> {
  return h.request('POST', '/v1/documents', {
    key: s.key,
    body: { type: 'invoice', client_id: s.clientId, lines, ...body },
  })
}

async function made(s: Setup, body: Record<string, unknown> = {}): Promise<any> {
  const r = await create(s, body)
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

function expectRefusedUnder(r: TestResponse, field: string): void {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  expect(Object.keys(r.body.error.errors)).toEqual([field])
  expect(r.body.error.errors[field][0]).toContain('9999-12-31')
}

async function listIds(s: Setup): Promise<number[]> {
  const r = await h.request('GET', '/v1/documents?limit=100', { key: s.key })
  expect(r.status).toBe(200)
  return r.body.data.map((d: any) => d.id)
}

/** A Draft as an older version could have saved it: dates and terms that count past 9999-12-31. */
async function storedDraft(s: Setup, set: { issueDate: string | null; paymentTerms: number }): Promise<any> {
  const d = await made(s, { issue_date: '2026-01-01', due_date: '2026-01-31' })
  await h.deps.db.write((tx) =>
    tx
      .update(documents)
      .set({ issueDate: set.issueDate, dueDate: null, paymentTerms: set.paymentTerms })
      .where(eq(documents.id, d.id)),
  )
  return d
}

describe('create and update', () => {
  test('the probe: a Draft issued 9999-12-31 with payment_terms 1 is 422 under payment_terms, nothing is saved and the list stays 200', async () => {
    const s = await setup()
    const r = await create(s, { issue_date: '9999-12-31', payment_terms: 1 })
    expectRefusedUnder(r, 'payment_terms')
    expect(await listIds(s)).toEqual([])
  })

  test('an issue_date whose Client terms count past 9999-12-31 is 422 under issue_date', async () => {
    const s = await setup({ payment_terms: 30 })
    expectRefusedUnder(await create(s, { issue_date: '9999-12-15' }), 'issue_date')
  })

  test('payment_terms so long that even today counts past 9999-12-31 are 422 under payment_terms', async () => {
    h.clock.set('9999-12-30T09:00:00Z')
    try {
      const s = await setup()
      expectRefusedUnder(await create(s, { payment_terms: 2 }), 'payment_terms')
      expect((await create(s, { payment_terms: 1 })).status).toBe(201)
    } finally {
      h.clock.set('2026-03-10T09:00:00Z')
    }
  })

  test('a due_date sent with it makes a late issue_date fine: due dates up to 9999-12-31 are kept and issued', async () => {
    const s = await setup()
    const d = await made(s, { issue_date: '9999-12-31', due_date: '9999-12-31', payment_terms: 30 })
    const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ issue_date: '9999-12-31', due_date: '9999-12-31' })
    const counted = await made(s, { issue_date: '9999-12-30', payment_terms: 1 })
    const issued = await h.request('POST', `/v1/documents/${counted.id}/issue`, { key: s.key })
    expect(issued.status).toBe(200)
    expect(issued.body.due_date).toBe('9999-12-31')
    expect(await listIds(s)).toEqual([d.id, counted.id])
  })

  test('an update is 422 under the field it sends that counts past 9999-12-31, and changes nothing', async () => {
    const s = await setup()
    const d = await made(s, { issue_date: '9999-12-01', payment_terms: 0 })
    expectRefusedUnder(
      await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { payment_terms: 31 } }),
      'payment_terms',
    )
    expectRefusedUnder(
      await h.request('PATCH', `/v1/documents/${d.id}`, {
        key: s.key,
        body: { issue_date: '9999-12-31', payment_terms: 1, notes: 'x' },
      }),
      'payment_terms',
    )
    const late = await made(s, { issue_date: '9999-12-01', due_date: '9999-12-31', payment_terms: 60 })
    expectRefusedUnder(
      await h.request('PATCH', `/v1/documents/${late.id}`, { key: s.key, body: { due_date: null } }),
      'due_date',
    )
    const terms = await made(s, { issue_date: '2026-01-01', payment_terms: 60 })
    expectRefusedUnder(
      await h.request('PATCH', `/v1/documents/${terms.id}`, { key: s.key, body: { issue_date: '9999-12-01' } }),
      'issue_date',
    )
    const after = await h.request('GET', `/v1/documents/${d.id}`, { key: s.key })
    expect(after.body).toMatchObject({ issue_date: '9999-12-01', payment_terms: 0, notes: null, due_date: null })
    expect((await h.request('GET', `/v1/documents/${late.id}`, { key: s.key })).body.due_date).toBe('9999-12-31')
    expect((await h.request('GET', `/v1/documents/${terms.id}`, { key: s.key })).body.issue_date).toBe('2026-01-01')
  })
})

describe('issuing', () => {
  test('Issue of a stored Draft counting past 9999-12-31 is 422 under payment_terms: still a Draft, no number taken, GET and the list stay 200', async () => {
    const s = await setup()
    const d = await storedDraft(s, { issueDate: '9999-12-31', paymentTerms: 1 })
    expectRefusedUnder(await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key }), 'payment_terms')
    const after = await h.request('GET', `/v1/documents/${d.id}`, { key: s.key })
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ status: 'draft', document_number: null, due_date: null })
    expect(await listIds(s)).toEqual([d.id])
    // The year 9999's first number is still free.
    const next = await made(s, { issue_date: '9999-12-31', due_date: '9999-12-31' })
    const issued = await h.request('POST', `/v1/documents/${next.id}/issue`, { key: s.key })
    expect(issued.status).toBe(200)
    expect(issued.body.document_number).toEndWith('0001')
  })

  test('a Send that would issue such a Draft is 422 under payment_terms: nothing sent, nothing numbered', async () => {
    const s = await setup()
    const d = await storedDraft(s, { issueDate: '9999-12-31', paymentTerms: 5 })
    smtp.received.length = 0
    expectRefusedUnder(await h.request('POST', `/v1/documents/${d.id}/send`, { key: s.key }), 'payment_terms')
    expect(smtp.received).toHaveLength(0)
    const after = await h.request('GET', `/v1/documents/${d.id}`, { key: s.key })
    expect(after.body).toMatchObject({ status: 'draft', document_number: null })
  })

  test('Convert whose Invoice (issued today) would count past 9999-12-31 is 422 under payment_terms: no Invoice, the Proforma unconverted', async () => {
    const s = await setup()
    const pro = await made(s, { type: 'proforma', issue_date: '2026-03-01', payment_terms: 5 })
    expect((await h.request('POST', `/v1/documents/${pro.id}/issue`, { key: s.key })).status).toBe(200)
    h.clock.set('9999-12-30T09:00:00Z')
    try {
      expectRefusedUnder(await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key }), 'payment_terms')
      expect(await listIds(s)).toEqual([pro.id])
      expect((await h.request('GET', `/v1/documents/${pro.id}`, { key: s.key })).body.converted_into_id).toBeNull()
    } finally {
      h.clock.set('2026-03-10T09:00:00Z')
    }
  })
})
