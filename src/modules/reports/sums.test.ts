// The running sums the reports read (report_days, report_vat_days, report_open_clients) always equal what the
// documents as they stand give, whatever changed them: create, edit and delete Drafts, issue, pay, amend, reverse,
// cancel, convert, and a Draft deleted with its bands. Checked by recomputing every sum from scratch.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../../test/harness'
import { Api } from './fixtures'
import { storedVatDays, walkProformaShare } from './sums.testkit'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

const STANDING = `('issued', 'partially_paid', 'paid')`
const SHARE = `CASE WHEN paid_minor <= 0 THEN 0 WHEN paid_minor >= total_minor THEN net_minor
  WHEN total_minor <= 2000000000 THEN (2 * net_minor * paid_minor + total_minor) / (2 * total_minor) ELSE 0 END`

/** Each sum as one exact integer (hi · 10^9 + lo), rows with nothing left in them dropped, in a stable order. */
async function stored(businessId: number) {
  const days = await h.deps.db.read.all<any>(
    sql.raw(`SELECT day, currency, documents, vat_documents, large,
      CAST(income_hi * 1000000000 + income_lo AS TEXT) AS income, CAST(vat_hi * 1000000000 + vat_lo AS TEXT) AS vat
    FROM report_days WHERE business_id = ${businessId} AND documents <> 0 ORDER BY day, currency`),
  )
  const vat = await storedVatDays(h, 'report_vat_days', businessId)
  const open = await h.deps.db.read.all<any>(
    sql.raw(`SELECT client_id, currency, documents, CAST(due_hi * 1000000000 + due_lo AS TEXT) AS due
    FROM report_open_clients WHERE business_id = ${businessId} AND documents <> 0 ORDER BY client_id, currency`),
  )
  return { days, vat, open }
}

/** The same sums straight from the documents, written independently of the triggers. */
async function recomputed(businessId: number) {
  const days = await h.deps.db.read.all<any>(
    sql.raw(`SELECT issue_date AS day, currency, count(*) AS documents,
      sum(type IN ('invoice', 'credit_note')) AS vat_documents,
      sum(type = 'proforma' AND paid_minor > 0 AND paid_minor < total_minor AND total_minor > 2000000000) AS large,
      CAST(sum(CASE type WHEN 'invoice' THEN net_minor WHEN 'credit_note' THEN -net_minor ELSE ${SHARE} END) AS TEXT) AS income,
      CAST(sum(CASE type WHEN 'invoice' THEN vat_minor WHEN 'credit_note' THEN -vat_minor ELSE 0 END) AS TEXT) AS vat
    FROM documents WHERE business_id = ${businessId} AND issue_date IS NOT NULL AND status IN ${STANDING}
      AND (type IN ('invoice', 'credit_note') OR (type = 'proforma' AND converted_into_id IS NULL))
    GROUP BY issue_date, currency ORDER BY issue_date, currency`),
  )
  const vat = await h.deps.db.read.all<any>(
    sql.raw(`SELECT d.issue_date AS day, d.currency, d.type, b.category, b.rate, count(*) AS bands,
      CAST(sum(b.net_minor) AS TEXT) AS net, CAST(sum(b.vat_minor) AS TEXT) AS vat
    FROM documents d JOIN document_vat_bands b ON b.document_id = d.id
    WHERE d.business_id = ${businessId} AND d.issue_date IS NOT NULL AND d.status IN ${STANDING} AND d.type IN ('invoice', 'credit_note')
    GROUP BY d.issue_date, d.currency, d.type, b.category, b.rate ORDER BY 1, 2, 3, 4, 5`),
  )
  const open = await h.deps.db.read.all<any>(
    sql.raw(`SELECT client_id, currency, count(*) AS documents, CAST(sum(total_minor - paid_minor) AS TEXT) AS due
    FROM documents WHERE business_id = ${businessId} AND status IN ('issued', 'partially_paid') AND due_date IS NOT NULL
      AND (type = 'invoice' OR (type = 'proforma' AND converted_into_id IS NULL))
    GROUP BY client_id, currency ORDER BY client_id, currency`),
  )
  return { days, vat, open }
}

async function expectInStep(businessId: number) {
  expect(await stored(businessId)).toEqual(await recomputed(businessId))
}

describe('report sums kept by triggers', () => {
  test('every kind of change leaves the sums equal to a recomputation from the documents', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c1 = await api.client('One')
    const c2 = await api.client('Two')
    const line = (unit_price: string, vat_rate = '19.00') => ({ unit_price, vat_rate })

    // Drafts count nowhere, however they are edited.
    const d = await api.draft({
      client_id: c1,
      issue_date: '2026-02-02',
      lines: [line('100.00'), line('50.00', '7.00')],
    })
    await h.request('PATCH', `/v1/documents/${d.id}`, {
      key: b.key,
      body: { lines: [line('120.00'), line('10.00', '0')] },
    })
    await expectInStep(b.id)
    // Issued: counted with its bands on its issue day.
    await api.issue(d.id)
    await expectInStep(b.id)
    // Paid in part, amended, paid in full, one Payment reversed: income stands, what is open follows.
    const p1 = await api.pay(d.id, '50.00', '2026-02-03')
    await h.request('PATCH', `/v1/payments/${p1.id}`, { key: b.key, body: { amount: '60.00' } })
    await expectInStep(b.id)
    const rest = await api.get(`/v1/documents/${d.id}`)
    const p2 = await api.pay(d.id, rest.body.amount_due, '2026-02-04')
    await expectInStep(b.id)
    await api.reverse(p2.id)
    await expectInStep(b.id)

    // A standalone Proforma counts its paid share, which moves with every Payment and reversal.
    // Converted (last): the Proforma leaves income and the open sums; its Invoice comes in on the conversion day.
    const pf = await api.proforma(c2, '2026-02-05', [line('200.00')])
    await walkProformaShare(api, pf.id, () => expectInStep(b.id))

    // A Credit Note subtracts; another currency counts apart; a cancelled document leaves every sum.
    await api.creditNote(d, '2026-02-07', [line('10.00')])
    await api.invoice(c2, '2026-02-07', [line('1000.00')], { currency: 'USD' })
    const x = await api.invoice(c2, '2026-02-08', [line('70.00', '0')])
    await expectInStep(b.id)
    await api.cancel(x.id)
    await api.doc({ type: 'quote', client_id: c2, issue_date: '2026-02-08', lines: [line('5.00')] })
    await expectInStep(b.id)

    // A Draft deleted takes nothing with it; a Draft issued with a Send-less issue date of today is counted today.
    const gone = await api.draft({ client_id: c1, lines: [line('1.00')] })
    expect((await h.request('DELETE', `/v1/documents/${gone.id}`, { key: b.key })).status).toBe(204)
    await api.doc({ client_id: c1, lines: [line('3.00')] })
    await expectInStep(b.id)

    // The sums hold something for this Business, and the reports read them.
    const income = await api.report('/v1/reports/income?from=2026-02-01&to=2026-03-31')
    expect(income.other_currency_documents).toBe(1)
    const now = await stored(b.id)
    expect([now.days.length, now.vat.length, now.open.length].every((n) => n > 0)).toBe(true)
  })

  test('a document deleted while it counts (only possible outside the service) takes its sums and bands with it', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c = await api.client('Gone')
    const doc = await api.invoice(c, '2026-02-10', [
      { unit_price: '10.00', vat_rate: '19.00' },
      { unit_price: '5.00', vat_rate: '7.00' },
    ])
    await h.deps.db.write(async (tx) => {
      await tx.run(sql`DELETE FROM documents WHERE id = ${doc.id}`)
    })
    await expectInStep(b.id)
    expect((await stored(b.id)).vat).toEqual([])
  })
})
