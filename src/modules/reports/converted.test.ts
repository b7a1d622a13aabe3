// The running sums of the reports' `converted` block (report_fx_days, report_fx_vat_days: extensions §16) always
// equal what the documents in other currencies give at their own rates, whatever changed them: Drafts edited, issue
// at a rate sent or the reference rate, Payments on a Proforma (its converted share moves), conversion, a Credit Note,
// cancellation, a document deleted outside the service. Checked by recomputing every sum from scratch.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../../test/harness'
import { Api } from './fixtures'
import { storedVatDays, walkProformaShare } from './sums.testkit'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

const SHARE = `CASE WHEN paid_minor <= 0 THEN 0 WHEN paid_minor >= total_minor THEN net_accounting_minor
  WHEN total_minor <= 2000000000 AND net_accounting_minor <= 2000000000
    THEN (2 * net_accounting_minor * paid_minor + total_minor) / (2 * total_minor) ELSE 0 END`

async function stored(businessId: number) {
  const days = await h.deps.db.read.all<any>(
    sql.raw(`SELECT day, currency, documents, vat_documents, large,
      CAST(net_hi * 1000000000 + net_lo AS TEXT) AS net, CAST(vat_hi * 1000000000 + vat_lo AS TEXT) AS vat
    FROM report_fx_days WHERE business_id = ${businessId} AND documents <> 0 ORDER BY day, currency`),
  )
  const vat = await storedVatDays(h, 'report_fx_vat_days', businessId)
  return { days, vat }
}

/** The same sums straight from the documents and their bands, written independently of the triggers. */
async function recomputed(businessId: number) {
  const days = await h.deps.db.read.all<any>(
    sql.raw(`SELECT issue_date AS day, accounting_currency AS currency, count(*) AS documents,
      sum(type IN ('invoice', 'credit_note')) AS vat_documents,
      sum(type = 'proforma' AND paid_minor > 0 AND paid_minor < total_minor
        AND (total_minor > 2000000000 OR net_accounting_minor > 2000000000)) AS large,
      CAST(sum(CASE type WHEN 'invoice' THEN net_accounting_minor WHEN 'credit_note' THEN -net_accounting_minor ELSE ${SHARE} END) AS TEXT) AS net,
      CAST(sum(CASE type WHEN 'invoice' THEN vat_accounting_minor WHEN 'credit_note' THEN -vat_accounting_minor ELSE 0 END) AS TEXT) AS vat
    FROM documents WHERE business_id = ${businessId} AND accounting_currency IS NOT NULL AND issue_date IS NOT NULL
      AND status IN ('issued', 'partially_paid', 'paid')
      AND (type IN ('invoice', 'credit_note') OR (type = 'proforma' AND converted_into_id IS NULL))
    GROUP BY issue_date, accounting_currency ORDER BY issue_date, accounting_currency`),
  )
  const vat = await h.deps.db.read.all<any>(
    sql.raw(`SELECT d.issue_date AS day, d.accounting_currency AS currency, d.type, b.category, b.rate, count(*) AS bands,
      CAST(sum(b.net_accounting_minor) AS TEXT) AS net, CAST(sum(b.vat_accounting_minor) AS TEXT) AS vat
    FROM documents d JOIN document_vat_bands b ON b.document_id = d.id
    WHERE d.business_id = ${businessId} AND d.accounting_currency IS NOT NULL AND d.issue_date IS NOT NULL
      AND d.status IN ('issued', 'partially_paid', 'paid') AND d.type IN ('invoice', 'credit_note')
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
  )
  return { days, vat }
}

async function expectInStep(businessId: number) {
  expect(await stored(businessId)).toEqual(await recomputed(businessId))
}

const line = (unit_price: string, vat_rate = '19.00') => ({ unit_price, vat_rate })

describe('converted sums kept by triggers', () => {
  test('every kind of change leaves them equal to a recomputation from the documents at their own rates', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c = await api.client('Abroad')
    // A Draft counts nowhere, with or without a rate.
    const d = await api.draft({ client_id: c, currency: 'USD', issue_date: '2026-02-02', lines: [line('100.00')] })
    await h.request('PATCH', `/v1/documents/${d.id}`, {
      key: b.key,
      body: { exchange_rate: '0.9123', lines: [line('120.00'), line('10.00', '7.00')] },
    })
    await expectInStep(b.id)
    expect((await stored(b.id)).days).toEqual([])
    await api.issue(d.id)
    await expectInStep(b.id)
    // A USD Proforma's converted share moves with its Payments; converted, it leaves for its Invoice.
    const pf = await api.proforma(c, '2026-02-05', [line('200.00')], { currency: 'USD' })
    await walkProformaShare(api, pf.id, () => expectInStep(b.id))
    // A Credit Note subtracts; a GBP Invoice counts in its own rows; a cancelled one leaves every sum.
    await api.creditNote(d, '2026-02-07', [line('10.00')])
    const x = await api.invoice(c, '2026-02-08', [line('70.00')], { currency: 'GBP' })
    await expectInStep(b.id)
    await api.cancel(x.id)
    await expectInStep(b.id)
    // Deleted outside the service while it counts: its sums and bands go with it.
    const y = await api.invoice(c, '2026-02-09', [line('5000', '10.00')], { currency: 'JPY' })
    await expectInStep(b.id)
    await h.deps.db.write(async (tx) => {
      await tx.run(sql`DELETE FROM documents WHERE id = ${y.id}`)
    })
    await expectInStep(b.id)
    const now = await stored(b.id)
    expect(now.days.length).toBeGreaterThan(0)
    expect(now.vat.length).toBeGreaterThan(0)
  })

  test('a partly paid Proforma too large for SQL to share exactly is converted in big.js, half away from zero', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c = await api.client('Large')
    // Net 30,000,000.00 USD (3·10^9 minor units, past the SQL limit of 2·10^9), rate 0.5 sent: 1,500,000,000 EUR
    // minor units; paid 1.01 of 30,000,000.00: 1.5·10^9 × 101 / 3·10^9 = 50.5 → 51 minor units = 0.51 EUR.
    const pf = await api.proforma(c, '2026-03-02', [line('30000000.00', '0')], {
      currency: 'USD',
      exchange_rate: '0.5',
    })
    await api.pay(pf.id, '1.01', '2026-03-03')
    await expectInStep(b.id)
    const income = await api.report('/v1/reports/income?from=2026-03-01&to=2026-03-31')
    expect(income.converted).toEqual({ currency: 'EUR', net: '0.51', vat: '0.00', documents: 1 })
    expect(income.income).toBe('0.00')
  })
})
