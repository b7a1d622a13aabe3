// Payments under concurrent requests against a real temp-file database: the amount due and the Receipt numbering
// hold whatever the interleaving; reversals and amends race safely; one Idempotency-Key performs once.
import { describe, expect, test } from 'bun:test'
import { and, asc, eq, sql } from 'drizzle-orm'
import { type Harness, type TestResponse } from '../../../test/harness'
import { oneClientForFile } from '../../../test/documents-kit'
import { outbox, payments, receipts } from '../../db/schema'
import { workIssued } from './payments.testkit'

let h: Harness
let biz: { id: number; key: string }
let clientId: number

oneClientForFile({ name: 'Busy Client', email: 'busy@client.example' }, (made) => ({ h, biz, clientId } = made))

const invoice = (amount: string) => workIssued(h, 'invoice', amount, { key: biz.key, client: clientId })

function record(docId: number, amount: string, key: string, headers?: Record<string, string>): Promise<TestResponse> {
  return h.request('POST', `/v1/documents/${docId}/payments`, {
    key,
    headers,
    body: { amount, payment_date: '2026-03-09', payment_method: 'cash' },
  })
}

async function eventsOf(type: string, subjectId: number): Promise<number> {
  const rows = await h.deps.db.read
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.businessId, biz.id), eq(outbox.type, type), eq(outbox.subjectId, subjectId)))
  return rows.length
}

describe('concurrent Payments against one Invoice', () => {
  test('100 concurrent Payments where only 40 fit: exactly 40 recorded, the rest payment_exceeds_amount_due, amount_paid never above the Total, Receipts RCT-2026-00001..00040', async () => {
    // 40.50 due: forty Payments of 1.00 fit and 0.50 stays due, so every further one exceeds what is due.
    const inv = await invoice('40.50')
    // Fresh keys: 100 requests stay within one key's per-minute limit, and the watcher counts against its own.
    const payer = await h.key(biz.id, 'member', 'Burst key')
    const watcher = await h.key(biz.id, 'viewer', 'Watcher key')
    let done = false
    const seen: string[] = []
    const watching = (async () => {
      while (!done && seen.length < 100) {
        const d = await h.request('GET', `/v1/documents/${inv.id}`, { key: watcher })
        expect(d.status).toBe(200)
        seen.push(d.body.amount_paid)
        await Bun.sleep(1)
      }
    })()
    const answers = await Promise.all(Array.from({ length: 100 }, () => record(inv.id, '1.00', payer)))
    done = true
    await watching

    const recorded = answers.filter((r) => r.status === 201)
    const refused = answers.filter((r) => r.status !== 201)
    expect(recorded).toHaveLength(40)
    expect(refused).toHaveLength(60)
    for (const r of refused) {
      expect(r.status).toBe(422)
      expect(r.body.error).toMatchObject({ type: 'refusal', code: 'payment_exceeds_amount_due' })
    }
    // Consecutive Receipt numbers, no gap, no repeat: a refused Payment took no number.
    const numbers = recorded.map((r) => r.body.receipt.receipt_number).sort()
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => `RCT-2026-${String(i + 1).padStart(5, '0')}`))
    // Ids in recording order carry the numbers in the same order.
    const byId = [...recorded].sort((a, b) => a.body.id - b.body.id).map((r) => r.body.receipt.receipt_number)
    expect(byId).toEqual(numbers)

    // The watcher never saw more paid than the Total.
    expect(seen.length).toBeGreaterThan(0)
    for (const paidNow of seen) expect(Number(paidNow)).toBeLessThanOrEqual(40.5)
    const d = await h.request('GET', `/v1/documents/${inv.id}`, { key: biz.key })
    expect(d.body).toMatchObject({ status: 'partially_paid', amount_paid: '40.00', amount_due: '0.50' })

    // The database agrees: 40 Payments, 40 Receipts, 40 payment.recorded, and no document.paid (0.50 stays due).
    const rows = await h.deps.db.read
      .select({ id: payments.id, status: payments.status })
      .from(payments)
      .where(eq(payments.documentId, inv.id))
    expect(rows).toHaveLength(40)
    expect(rows.every((r) => r.status === 'completed')).toBe(true)
    const sum = await h.deps.db.read
      .select({ total: sql<string>`CAST(sum(${payments.amountMinor}) AS TEXT)` })
      .from(payments)
      .where(eq(payments.documentId, inv.id))
    expect(sum[0]!.total).toBe('4000')
    const rc = await h.deps.db.read.select({ id: receipts.id }).from(receipts).where(eq(receipts.documentId, inv.id))
    expect(rc).toHaveLength(40)
    const recordedEvents = await h.deps.db.read
      .select({ subjectId: outbox.subjectId })
      .from(outbox)
      .where(and(eq(outbox.businessId, biz.id), eq(outbox.type, 'payment.recorded')))
    const recordedIds = new Set(recorded.map((r) => r.body.id))
    expect(recordedEvents.filter((e) => recordedIds.has(e.subjectId))).toHaveLength(40)
    expect(await eventsOf('document.paid', inv.id)).toBe(0)
  })

  test('concurrent Payments that together settle the Invoice: the settling one is recorded once, document.paid raised once, later ones nothing_due', async () => {
    const inv = await invoice('10.00')
    const payer = await h.key(biz.id, 'member', 'Second burst key')
    const answers = await Promise.all(Array.from({ length: 30 }, () => record(inv.id, '1.00', payer)))
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10)
    for (const r of answers.filter((x) => x.status !== 201))
      expect(r.body.error).toMatchObject({ type: 'refusal', code: 'nothing_due' })
    const d = await h.request('GET', `/v1/documents/${inv.id}`, { key: biz.key })
    expect(d.body).toMatchObject({ status: 'paid', amount_paid: '10.00', amount_due: '0.00' })
    expect(await eventsOf('document.paid', inv.id)).toBe(1)
  })

  test('concurrent amends of two Payments cannot together push amount_paid above the Total', async () => {
    const inv = await invoice('100.00')
    const a = (await record(inv.id, '30.00', biz.key)).body
    const b = (await record(inv.id, '30.00', biz.key)).body
    const [ra, rb] = await Promise.all([
      h.request('PATCH', `/v1/payments/${a.id}`, { key: biz.key, body: { amount: '70.00' } }),
      h.request('PATCH', `/v1/payments/${b.id}`, { key: biz.key, body: { amount: '70.00' } }),
    ])
    const statuses = [ra.status, rb.status].sort()
    expect(statuses).toEqual([200, 422])
    const loser = ra.status === 422 ? ra : rb
    expect(loser.body.error).toMatchObject({ type: 'refusal', code: 'payment_exceeds_amount_due' })
    const d = await h.request('GET', `/v1/documents/${inv.id}`, { key: biz.key })
    expect(d.body).toMatchObject({ status: 'paid', amount_paid: '100.00', amount_due: '0.00' })
  })

  test('a Payment reversed by ten concurrent requests is voided once: one 200, the rest payment_reversed, one payment.reversed event', async () => {
    const inv = await invoice('50.00')
    const p = (await record(inv.id, '50.00', biz.key)).body
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.request('POST', `/v1/payments/${p.id}/reverse`, { key: biz.key })),
    )
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(422)
      expect(r.body.error).toMatchObject({ type: 'refusal', code: 'payment_reversed' })
    }
    expect(await eventsOf('payment.reversed', p.id)).toBe(1)
    const d = await h.request('GET', `/v1/documents/${inv.id}`, { key: biz.key })
    expect(d.body).toMatchObject({ status: 'issued', amount_paid: '0.00' })
  })

  test('ten simultaneous Payments under one Idempotency-Key record one Payment; every other answer is its replay or 409 idempotency_in_flight', async () => {
    const inv = await invoice('100.00')
    const headers = { 'Idempotency-Key': `burst-${inv.id}` }
    const answers = await Promise.all(Array.from({ length: 10 }, () => record(inv.id, '10.00', biz.key, headers)))
    const created = answers.filter((r) => r.status === 201)
    expect(created.length).toBeGreaterThanOrEqual(1)
    const first = created.find((r) => r.headers.get('idempotent-replayed') === null)!
    expect(first).toBeDefined()
    expect(created.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1)
    for (const r of created) expect(r.text).toBe(first.text)
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409)
      expect(r.body.error.type).toBe('idempotency_in_flight')
    }
    const rows = await h.deps.db.read
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.documentId, inv.id))
      .orderBy(asc(payments.id))
    expect(rows).toHaveLength(1)
    const d = await h.request('GET', `/v1/documents/${inv.id}`, { key: biz.key })
    expect(d.body.amount_paid).toBe('10.00')
  })
})
