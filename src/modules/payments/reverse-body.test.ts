// Reverse takes no body (extensions §7): a field sent anyway is 422 naming it with nothing written; no body, an empty
// body and {} reverse as before, and an Idempotency-Key still replays.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { type Harness, type RequestOptions } from '../../../test/harness'
import { oneClientForFile } from '../../../test/documents-kit'
import { outbox, payments } from '../../db/schema'
import { paidIn, workIssued } from './payments.testkit'

let h: Harness
let biz: { id: number; key: string }
let clientId: number

oneClientForFile({ name: 'Paying Client', email: 'pay@client.example' }, (made) => ({ h, biz, clientId } = made))

/** A completed Payment of 10.00 on a fresh issued Invoice of 100.00. */
async function payment(): Promise<any> {
  const d = await workIssued(h, 'invoice', '100.00', { key: biz.key, client: clientId })
  return paidIn(h, biz.key, d.id, '10.00')
}

const reverse = (id: number, o: Omit<RequestOptions, 'key'> = {}) =>
  h.request('POST', `/v1/payments/${id}/reverse`, { key: biz.key, ...o })

async function reversedEvents(paymentId: number): Promise<number> {
  const rows = await h.deps.db.read.select().from(outbox).where(eq(outbox.type, 'payment.reversed'))
  return rows.filter((r) => r.subjectId === paymentId).length
}

describe('POST /v1/payments/{id}/reverse takes no body', () => {
  test('a body field ({"foo": 1}) is 422 invalid_request naming foo; the Payment stays completed and no event is raised', async () => {
    const p = await payment()
    const r = await reverse(p.id, { body: { foo: 1 } })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors)).toEqual(['foo'])
    const row = await h.deps.db.read.select().from(payments).where(eq(payments.id, p.id)).get()
    expect(row?.status).toBe('completed')
    expect(await reversedEvents(p.id)).toBe(0)
  })

  test('each field sent is named, a read-only one (status) as much as a typo', async () => {
    const p = await payment()
    const r = await reverse(p.id, { body: { status: 'voided', reason: 'typo' } })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.error.errors).sort()).toEqual(['reason', 'status'])
  })

  test.each([
    ['no body', {}],
    ['an empty body', { raw: '', headers: { 'content-type': 'application/json' } }],
    ['{}', { body: {} }],
  ] as const)('%s still reverses the Payment', async (_what, o) => {
    const p = await payment()
    const r = await reverse(p.id, o)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('voided')
  })

  test('under an Idempotency-Key, {} reverses once and the same request replays byte for byte', async () => {
    const p = await payment()
    const headers = { 'Idempotency-Key': `reverse-body-${p.id}` }
    const a = await reverse(p.id, { body: {}, headers })
    expect(a.status).toBe(200)
    h.clock.advance(1000)
    const b = await reverse(p.id, { body: {}, headers })
    expect(b.status).toBe(200)
    expect(b.headers.get('idempotent-replayed')).toBe('true')
    expect(b.text).toBe(a.text)
    expect(await reversedEvents(p.id)).toBe(1)
  })
})
