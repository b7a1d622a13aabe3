// The Receipt PDF's marks read back with pdftotext: a Test business's Receipt says SAMPLE whatever happens to it, and a
// voided one says VOID as well; a live Business's voided Receipt says VOID alone.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type Harness, harnessForFile } from '../../../test/harness'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

/** A Business (Test or live) with one Payment of 10.00 on an issued Invoice; answers the Payment. */
async function payment(isTest: boolean): Promise<{ key: string; payment: any }> {
  const b = await h.business({ currency: 'EUR', isTest })
  const c = await h.request('POST', '/v1/clients', {
    key: b.key,
    body: { name: 'Receipt Client', email: 'pay@client.example', country: 'DE' },
  })
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: {
      type: 'invoice',
      client_id: c.body.id,
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }],
    },
  })
  expect((await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })).status).toBe(200)
  const p = await h.request('POST', `/v1/documents/${d.body.id}/payments`, {
    key: b.key,
    body: { amount: '10.00', payment_date: '2026-03-09', payment_method: 'cash' },
  })
  expect(p.status).toBe(201)
  return { key: b.key, payment: p.body }
}

let fileNo = 0

/** The Receipt PDF's text in content-stream order, all whitespace removed (rotated watermark letters come one per line). */
async function squashedPdf(key: string, receiptId: number): Promise<string> {
  const res = await h.app.fetch(
    new Request(`http://localhost/v1/receipts/${receiptId}/pdf`, { headers: { authorization: `Bearer ${key}` } }),
  )
  expect(res.status).toBe(200)
  const file = join(h.dir, `receipt-${++fileNo}.pdf`)
  await Bun.write(file, new Uint8Array(await res.arrayBuffer()))
  const out = Bun.spawnSync(['pdftotext', '-raw', '-enc', 'UTF-8', file, '-'])
  if (out.exitCode !== 0) throw new Error(`pdftotext failed: ${out.stderr.toString()}`)
  return out.stdout.toString().replace(/\s+/g, '')
}

async function reverse(key: string, paymentId: number): Promise<void> {
  expect((await h.request('POST', `/v1/payments/${paymentId}/reverse`, { key })).status).toBe(200)
}

describe('Receipt PDF marks', () => {
  test("a Test business's voided Receipt keeps SAMPLE and says VOID as well", async () => {
    const { key, payment: p } = await payment(true)
    expect(await squashedPdf(key, p.receipt.id)).not.toContain('VOID')
    await reverse(key, p.id)
    const text = await squashedPdf(key, p.receipt.id)
    expect(text).toContain('SAMPLE')
    expect(text).toContain('VOID')
    expect(text).toContain('ThisReceiptisvoid')
  })

  test("a live Business's voided Receipt says VOID and never SAMPLE", async () => {
    const { key, payment: p } = await payment(false)
    await reverse(key, p.id)
    const text = await squashedPdf(key, p.receipt.id)
    expect(text).toContain('VOID')
    expect(text).not.toContain('SAMPLE')
  })

  test("a Test business's Receipt that stands says SAMPLE and not VOID", async () => {
    const { key, payment: p } = await payment(true)
    const text = await squashedPdf(key, p.receipt.id)
    expect(text).toContain('SAMPLE')
    expect(text).not.toContain('VOID')
  })
})
