// The Receipt PDF's marks read back with pdftotext: a Test business's Receipt says SAMPLE whatever happens to it, and a
// voided one says VOID as well; a live Business's voided Receipt says VOID alone.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type Harness, harnessForFile } from '../../../test/harness'
import { paidIn, workIssued } from '../payments/payments.testkit'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

/** A Business (Test or live) with one Payment of 10.00 on an issued Invoice; answers the Payment. */
async function payment(isTest: boolean): Promise<{ key: string; payment: any }> {
  const b = await h.business({ currency: 'EUR', isTest })
  const clientId = await h.client(b.key, { name: 'Receipt Client', email: 'pay@client.example' })
  const d = await workIssued(h, 'invoice', '10.00', { key: b.key, client: clientId })
  return { key: b.key, payment: await paidIn(h, b.key, d.id, '10.00') }
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
