// Fan-out of the outbox: events no webhook hears are closed without building a body; heard ones get their deliveries.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { outbox, webhookDeliveries } from '../../db/schema'
import { deliveryContext } from '../../jobs/webhooks'
import { dispatchOutbox } from './index'

let h: Harness
beforeAll(async () => {
  h = await makeHarness({ config: { webhookAllowPrivate: true } })
})
afterAll(() => h.close())

async function issuedInvoice(key: string): Promise<number> {
  const client = (await h.request('POST', '/v1/clients', { key, body: { name: 'Acme', email: 'a@acme.example', country: 'DE' } })).body
  const draft = (await h.request('POST', '/v1/documents', { key, body: { type: 'invoice', client_id: client.id, lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' }] } })).body
  await h.request('POST', `/v1/documents/${draft.id}/issue`, { key })
  return draft.id
}

test('events of a Business without webhooks are closed without a body being built, and no delivery is made', async () => {
  const b = await h.business()
  const id = await issuedInvoice(b.key)
  await h.request('POST', `/v1/documents/${id}/payments`, { key: b.key, body: { amount: '10.00', payment_date: '2026-03-10', payment_method: 'cash' } })
  const built: string[] = []
  const ctx = deliveryContext(h.deps)
  const counted = { ...ctx, build: async (kind: 'document' | 'payment', businessId: number, sid: number) => (built.push(kind), ctx.build(kind, businessId, sid)) }
  expect(await dispatchOutbox(counted)).toBeGreaterThanOrEqual(2)
  expect(built).toEqual([])
  const open = (await h.deps.db.read.select().from(outbox)).filter((o) => o.dispatchedAt === null)
  expect(open).toEqual([])
  expect(await h.deps.db.read.select().from(webhookDeliveries)).toEqual([])
})

test('only the events a webhook hears are built and delivered to it', async () => {
  const b = await h.business()
  const hook = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: 'http://127.0.0.1:9/hook', events: ['payment.recorded'] } })
  expect(hook.status).toBe(201)
  const id = await issuedInvoice(b.key)
  await h.request('POST', `/v1/documents/${id}/payments`, { key: b.key, body: { amount: '10.00', payment_date: '2026-03-10', payment_method: 'cash' } })
  const built: string[] = []
  const ctx = deliveryContext(h.deps)
  await dispatchOutbox({ ...ctx, build: async (kind, businessId, sid) => (built.push(kind), ctx.build(kind, businessId, sid)) })
  expect(built).toEqual(['payment'])
  const deliveries = await h.deps.db.read.select().from(webhookDeliveries)
  expect(deliveries.map((d) => d.eventType)).toEqual(['payment.recorded'])
  expect(JSON.parse(deliveries[0]!.body).data.payment.amount).toBe('10.00')
})
