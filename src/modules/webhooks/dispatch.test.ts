// Fan-out of the outbox: events no webhook hears are closed without building a body; heard ones get their deliveries.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { eq } from 'drizzle-orm'
import { outbox, webhookDeliveries, webhookMessages } from '../../db/schema'
import { deliveryContext } from '../../jobs/webhooks'
import { dispatchOutbox, pruneDeliveries } from './index'
import { issueInvoice } from './webhooks.testkit'

let h: Harness
beforeAll(async () => {
  h = await makeHarness({ config: { webhookAllowPrivate: true } })
})
afterAll(() => h.close())

async function issuedInvoice(key: string): Promise<number> {
  const clientId = await h.client(key, { name: 'Acme', email: 'a@acme.example' })
  const line = { description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' }
  return (await issueInvoice(h, key, clientId, line)).id
}

/** An Invoice issued and a Payment of 10.00 recorded on it: a document.issued and a payment.recorded event. */
async function issuedAndPaidInPart(key: string): Promise<void> {
  const id = await issuedInvoice(key)
  await h.request('POST', `/v1/documents/${id}/payments`, {
    key,
    body: { amount: '10.00', payment_date: '2026-03-10', payment_method: 'cash' },
  })
}

test('events of a Business without webhooks are closed without a body being built, and no delivery is made', async () => {
  const b = await h.business()
  await issuedAndPaidInPart(b.key)
  const built: string[] = []
  const ctx = deliveryContext(h.deps)
  const counted = {
    ...ctx,
    build: async (kind: 'document' | 'payment' | 'refund', businessId: number, sid: number) => (
      built.push(kind), ctx.build(kind, businessId, sid)
    ),
  }
  expect(await dispatchOutbox(counted)).toBeGreaterThanOrEqual(2)
  expect(built).toEqual([])
  const open = (await h.deps.db.read.select().from(outbox)).filter((o) => o.dispatchedAt === null)
  expect(open).toEqual([])
  expect(await h.deps.db.read.select().from(webhookDeliveries)).toEqual([])
})

test('only the events a webhook hears are built and delivered to it', async () => {
  const b = await h.business()
  const hook = await h.request('POST', '/v1/webhooks', {
    key: b.key,
    body: { url: 'http://127.0.0.1:9/hook', events: ['payment.recorded'] },
  })
  expect(hook.status).toBe(201)
  await issuedAndPaidInPart(b.key)
  const built: string[] = []
  const ctx = deliveryContext(h.deps)
  await dispatchOutbox({
    ...ctx,
    build: async (kind, businessId, sid) => (built.push(kind), ctx.build(kind, businessId, sid)),
  })
  expect(built).toEqual(['payment'])
  const deliveries = await h.deps.db.read.select().from(webhookDeliveries)
  expect(deliveries.map((d) => d.eventType)).toEqual(['payment.recorded'])
  const message = await h.deps.db.read
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.messageId, deliveries[0]!.messageId))
    .get()
  expect(JSON.parse(message!.body).data.payment.amount).toBe('10.00')
})

test('a message heard by ten webhooks is stored once, under its webhook-id, and all ten deliveries send it', async () => {
  const b = await h.business()
  for (let i = 0; i < 10; i++) {
    const r = await h.request('POST', '/v1/webhooks', {
      key: b.key,
      body: { url: `http://127.0.0.1:9/hook-${i}`, events: ['document.issued'] },
    })
    expect(r.status).toBe(201)
  }
  await issuedInvoice(b.key)
  await dispatchOutbox(deliveryContext(h.deps))
  const deliveries = (await h.deps.db.read.select().from(webhookDeliveries)).filter((d) => d.businessId === b.id)
  expect(deliveries).toHaveLength(10)
  expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(1)
  const messages = await h.deps.db.read
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.messageId, deliveries[0]!.messageId))
  expect(messages).toHaveLength(1)
  expect(JSON.parse(messages[0]!.body).type).toBe('document.issued')
})

test('dispatched outbox events, and messages no delivery is left to send, go once the 30 days deliveries are kept are over', async () => {
  const b = await h.business()
  const hook = await h.request('POST', '/v1/webhooks', {
    key: b.key,
    body: { url: 'http://127.0.0.1:9/kept', events: ['document.issued'] },
  })
  expect(hook.status).toBe(201)
  await issuedInvoice(b.key)
  await dispatchOutbox(deliveryContext(h.deps))
  const mine = async () => ({
    outbox: (await h.deps.db.read.select().from(outbox).where(eq(outbox.businessId, b.id))).length,
    deliveries: (await h.deps.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.businessId, b.id)))
      .length,
    messages: (await h.deps.db.read.select().from(webhookMessages).where(eq(webhookMessages.businessId, b.id))).length,
  })
  const before = await mine()
  expect(before.outbox).toBeGreaterThan(0)
  expect(before).toMatchObject({ deliveries: 1, messages: 1 })
  // Within the 30 days nothing goes.
  h.clock.advance(29 * 24 * 3_600_000)
  await pruneDeliveries(h.deps.db, h.clock)
  expect(await mine()).toEqual(before)
  h.clock.advance(2 * 24 * 3_600_000)
  await pruneDeliveries(h.deps.db, h.clock)
  expect(await mine()).toEqual({ outbox: 0, deliveries: 0, messages: 0 })
})
