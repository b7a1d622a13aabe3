// Events end to end: every transition raises its event once its change is saved, a refused change raises nothing,
// the Payment that settles an Invoice raises two, and each message reaches a real receiver (Bun.serve on 127.0.0.1,
// real httpSender) signed so that the `standardwebhooks` library verifies it, carrying the document or Payment as
// the API answers it to an Admin key. A webhook hears only the events it chose.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import type { Harness } from '../../../test/harness'
import { deliveryContext } from '../../jobs/webhooks'
import { deliverDue, dispatchOutbox } from './delivery'
import { liveDeliveryHarness, receiver } from './webhooks.testkit'

/** A receiver that thanks for every message (the shared one, on the service clock). */
const thankingReceiver = () => receiver(h.clock, () => new Response('thanks'))

let h: Harness
let key: string
let bizId: number
let clientId: number
let businessId: string
let all: ReturnType<typeof receiver>
let paymentsOnly: ReturnType<typeof receiver>
let allSecret: string
let paymentsSecret: string
/** Every message either receiver has been checked for so far. */
let seenAll = 0
let seenPayments = 0

beforeAll(async () => {
  // standardwebhooks refuses a webhook-timestamp more than 5 minutes from its clock: the service's clock is the real now.
  h = await liveDeliveryHarness()
  const b = await h.business({ currency: 'EUR' })
  key = b.key
  bizId = b.id
  all = thankingReceiver()
  paymentsOnly = thankingReceiver()
  const c = await h.request('POST', '/v1/clients', {
    key,
    body: { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE', currency: 'EUR' },
  })
  expect(c.status).toBe(201)
  clientId = c.body.id
  businessId = (await h.request('GET', '/v1/business', { key })).body.business_id
  const w1 = await h.request('POST', '/v1/webhooks', { key, body: { url: all.url, events: [] } })
  const w2 = await h.request('POST', '/v1/webhooks', {
    key,
    body: { url: paymentsOnly.url, events: ['payment.recorded'] },
  })
  expect(w1.status).toBe(201)
  expect(w2.status).toBe(201)
  allSecret = w1.body.secret
  paymentsSecret = w2.body.secret
})
afterAll(async () => {
  all.stop()
  paymentsOnly.stop()
  await h.close()
})

/** What a running server's jobs do each second: fan committed events out, then make every due attempt. */
async function deliver(): Promise<void> {
  const ctx = deliveryContext(h.deps)
  await dispatchOutbox(ctx)
  await deliverDue(ctx)
}

interface Message {
  id: string
  type: string
  timestamp: string
  business_id: string
  data: Record<string, any>
  raw: string
}

/** Delivers, then returns the messages each receiver got since the last call, each verified with the library. */
async function newMessages(): Promise<{ all: Message[]; payments: Message[] }> {
  await deliver()
  const take = (r: ReturnType<typeof receiver>, from: number, secret: string): Message[] =>
    r.got.slice(from).map((m) => {
      const parsed = new Webhook(secret).verify(m.body, m.headers) as any
      expect(m.headers['content-type']).toStartWith('application/json')
      expect(Object.keys(parsed).sort()).toEqual(['business_id', 'data', 'timestamp', 'type'])
      return { id: m.headers['webhook-id']!, raw: m.body, ...parsed }
    })
  const out = { all: take(all, seenAll, allSecret), payments: take(paymentsOnly, seenPayments, paymentsSecret) }
  seenAll = all.got.length
  seenPayments = paymentsOnly.got.length
  return out
}

const line = { description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '0' }

async function draft(type = 'invoice'): Promise<any> {
  const r = await h.request('POST', '/v1/documents', { key, body: { type, client_id: clientId, lines: [line] } })
  if (r.status !== 201) throw new Error(`draft refused: ${r.status} ${r.text}`)
  return r.body
}

async function issue(id: number): Promise<any> {
  const r = await h.request('POST', `/v1/documents/${id}/issue`, { key })
  expect(r.status).toBe(200)
  return r.body
}

const pay = (docId: number, amount: string) =>
  h.request('POST', `/v1/documents/${docId}/payments`, {
    key,
    body: { amount, payment_date: '2026-03-09', payment_method: 'cash' },
  })

const getDoc = async (id: number) => (await h.request('GET', `/v1/documents/${id}`, { key })).body
const getPayment = async (id: number) => (await h.request('GET', `/v1/payments/${id}`, { key })).body

describe('events: one per transition, as the API answers the record', () => {
  let invoiceId: number
  let settlingPaymentId: number

  test('creating a Draft raises nothing', async () => {
    await draft()
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('issue raises document.issued carrying the document as GET answers it to an Admin key, with the Business id and a microsecond timestamp', async () => {
    const d = await draft()
    invoiceId = d.id
    await issue(d.id)
    const { all: msgs, payments } = await newMessages()
    expect(payments).toEqual([])
    expect(msgs).toHaveLength(1)
    const m = msgs[0]!
    expect(m.type).toBe('document.issued')
    expect(m.business_id).toBe(businessId)
    expect(m.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    expect(Math.abs(new Date(m.timestamp).getTime() - h.clock.now().getTime())).toBeLessThan(1000)
    expect(m.id).toMatch(/^msg_[0-9A-Za-z]{26}$/)
    expect(Object.keys(m.data)).toEqual(['document'])
    expect(m.data.document).toEqual(await getDoc(d.id))
    expect(m.data.document.status).toBe('issued')
    expect(m.data.document.document_number).toBeString()
    // Actions as an Admin key reads them: nothing is role_forbidden.
    for (const a of Object.values(m.data.document.actions) as any[]) expect(a.code).not.toBe('role_forbidden')
    // Money stays decimal strings.
    expect(m.data.document.total).toBe('100.00')
  })

  test('a refused issue (already_issued) raises nothing', async () => {
    const r = await h.request('POST', `/v1/documents/${invoiceId}/issue`, { key })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('already_issued')
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('a refused Payment (payment_exceeds_amount_due) raises nothing', async () => {
    const r = await pay(invoiceId, '500.00')
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('payment_exceeds_amount_due')
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('a Payment leaving an amount due raises payment.recorded only, with its Receipt, heard by both webhooks with the same webhook-id and body', async () => {
    const r = await pay(invoiceId, '40.00')
    expect(r.status).toBe(201)
    const { all: msgs, payments } = await newMessages()
    expect(msgs.map((m) => m.type)).toEqual(['payment.recorded'])
    const m = msgs[0]!
    expect(Object.keys(m.data)).toEqual(['payment'])
    expect(m.data.payment).toEqual(await getPayment(r.body.id))
    expect(m.data.payment.amount).toBe('40.00')
    expect(m.data.payment.receipt.receipt_number).toBeString()
    expect(m.business_id).toBe(businessId)
    // The webhook that chose only payment.recorded hears it too, with the same id and the same bytes.
    expect(payments).toHaveLength(1)
    expect(payments[0]!.id).toBe(m.id)
    expect(payments[0]!.raw).toBe(m.raw)
  })

  test('the Payment that settles an Invoice raises two events: payment.recorded and document.paid', async () => {
    const r = await pay(invoiceId, '60.00')
    expect(r.status).toBe(201)
    settlingPaymentId = r.body.id
    const { all: msgs, payments } = await newMessages()
    expect(msgs.map((m) => m.type).sort()).toEqual(['document.paid', 'payment.recorded'])
    const paid = msgs.find((m) => m.type === 'document.paid')!
    const recorded = msgs.find((m) => m.type === 'payment.recorded')!
    expect(paid.id).not.toBe(recorded.id)
    expect(paid.data.document).toEqual(await getDoc(invoiceId))
    expect(paid.data.document.status).toBe('paid')
    expect(paid.data.document.amount_due).toBe('0.00')
    expect(recorded.data.payment.id).toBe(settlingPaymentId)
    // The payments-only webhook hears the Payment, never document.paid.
    expect(payments.map((m) => m.type)).toEqual(['payment.recorded'])
  })

  test('a Payment on a paid Invoice is refused (nothing_due) and raises nothing', async () => {
    const r = await pay(invoiceId, '1.00')
    expect(r.status).toBe(422)
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('reversing a Payment raises payment.reversed carrying the voided Payment; the payments-only webhook hears nothing', async () => {
    const r = await h.request('POST', `/v1/payments/${settlingPaymentId}/reverse`, { key })
    expect(r.status).toBe(200)
    const { all: msgs, payments } = await newMessages()
    expect(msgs.map((m) => m.type)).toEqual(['payment.reversed'])
    expect(msgs[0]!.data.payment).toEqual(await getPayment(settlingPaymentId))
    expect(msgs[0]!.data.payment.status).toBe('voided')
    expect(msgs[0]!.data.payment.receipt.voided_at).toBeString()
    expect(payments).toEqual([])
  })

  test('reversing it again is refused (payment_reversed) and raises nothing', async () => {
    const r = await h.request('POST', `/v1/payments/${settlingPaymentId}/reverse`, { key })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('payment_reversed')
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('cancel raises document.cancelled carrying the cancelled document; a refused cancel raises nothing', async () => {
    // A document holding Payments is refused (holds_money).
    const refused = await h.request('POST', `/v1/documents/${invoiceId}/cancel`, { key })
    expect(refused.status).toBe(422)
    expect(await newMessages()).toEqual({ all: [], payments: [] })

    const d = await draft()
    await issue(d.id)
    expect((await newMessages()).all.map((m) => m.type)).toEqual(['document.issued'])
    const r = await h.request('POST', `/v1/documents/${d.id}/cancel`, { key })
    expect(r.status).toBe(200)
    const { all: msgs } = await newMessages()
    expect(msgs.map((m) => m.type)).toEqual(['document.cancelled'])
    expect(msgs[0]!.data.document).toEqual(await getDoc(d.id))
    expect(msgs[0]!.data.document.status).toBe('cancelled')
    expect(msgs[0]!.data.document.document_number).toBe(r.body.document_number)

    const again = await h.request('POST', `/v1/documents/${d.id}/cancel`, { key })
    expect(again.status).toBe(422)
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('converting a Proforma raises document.issued for the Invoice; a second convert is refused and raises nothing', async () => {
    const pro = await draft('proforma')
    await issue(pro.id)
    expect((await newMessages()).all.map((m) => m.type)).toEqual(['document.issued'])
    const r = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key })
    expect(r.status).toBe(201)
    const { all: msgs } = await newMessages()
    expect(msgs.map((m) => m.type)).toEqual(['document.issued'])
    expect(msgs[0]!.data.document.id).toBe(r.body.id)
    expect(msgs[0]!.data.document).toEqual(await getDoc(r.body.id))
    expect(msgs[0]!.data.document.proforma_id).toBe(pro.id)

    const again = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key })
    expect(again.status).toBe(422)
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })

  test('a Proforma paid in full before conversion: its Invoice raises document.issued and document.paid', async () => {
    const pro = await draft('proforma')
    await issue(pro.id)
    expect((await pay(pro.id, '100.00')).status).toBe(201)
    const before = await newMessages()
    expect(before.all.map((m) => m.type).sort()).toEqual(['document.issued', 'document.paid', 'payment.recorded'])
    const r = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key })
    expect(r.status).toBe(201)
    const { all: msgs } = await newMessages()
    expect(msgs.map((m) => m.type).sort()).toEqual(['document.issued', 'document.paid'])
    for (const m of msgs) expect(m.data.document.id).toBe(r.body.id)
  })

  test('every message each receiver got verified, and each message reached each webhook exactly once', () => {
    const ids = all.got.map((m) => m.headers['webhook-id'])
    expect(new Set(ids).size).toBe(ids.length)
    expect(paymentsOnly.got.every((m) => JSON.parse(m.body).type === 'payment.recorded')).toBe(true)
  })
})

describe('who caused it does not matter', () => {
  test('an event caused by a Member key carries the document as an Admin key reads it', async () => {
    const member = await h.key(bizId, 'member')
    const d = await draft()
    const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: member })
    expect(r.status).toBe(200)
    const { all: msgs } = await newMessages()
    expect(msgs.map((m) => m.type)).toEqual(['document.issued'])
    expect(msgs[0]!.data.document).toEqual(await getDoc(d.id))
  })
})

describe('events of another Business', () => {
  test("a Business's webhook hears only its own Business's events", async () => {
    const other = await h.business({ currency: 'EUR' })
    const c = await h.request('POST', '/v1/clients', {
      key: other.key,
      body: { name: 'Other client', email: 'other@client.example', country: 'DE', currency: 'EUR' },
    })
    const d = await h.request('POST', '/v1/documents', {
      key: other.key,
      body: { type: 'invoice', client_id: c.body.id, lines: [line] },
    })
    expect(c.status, c.text).toBe(201)
    expect(d.status, d.text).toBe(201)
    expect((await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: other.key })).status).toBe(200)
    expect(await newMessages()).toEqual({ all: [], payments: [] })
  })
})
