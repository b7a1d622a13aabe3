// The income report over HTTP against a real database: every rule of the contract's Income semantics, with an
// answer computed by hand, period edges, other currencies, and sums past 2^63 staying exact.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { Api } from './fixtures'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

const FEB = 'from=2026-02-01&to=2026-02-28'

describe('income report', () => {
  test('counts every Reportable document by its rule, and nothing else (hand-computed)', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c = await api.client('Acme')
    const inv = (issue_date: string, unit_price: string, vat_rate = '19.00') =>
      api.invoice(c, issue_date, [{ unit_price, vat_rate }])

    // Counted: an Invoice on `from` and one on `to` (net 100.00 + 100.00; VAT 19.00 + 7.00).
    const a = await inv('2026-02-01', '100.00')
    await api.invoice(c, '2026-02-28', [{ quantity: '2', unit_price: '50.00', vat_rate: '7.00' }])
    // Left out: the day before `from` and the day after `to`.
    await inv('2026-01-31', '1000.00')
    await inv('2026-03-01', '1000.00')
    // A Credit Note subtracts: net 30.00, VAT 5.70.
    await api.creditNote(a, '2026-02-10', [{ unit_price: '30.00', vat_rate: '19.00' }])
    // A standalone Proforma adds its paid share of net: 200.00 × 119.00 / 238.00 = 100.00; a reversed Payment counts nowhere.
    const f = await api.proforma(c, '2026-02-05', [{ unit_price: '200.00', vat_rate: '19.00' }])
    await api.pay(f.id, '119.00', '2026-02-06')
    await api.reverse((await api.pay(f.id, '50.00', '2026-02-07')).id)
    // Paid share rounded half away from zero: net 0.03 × 0.02 / total 0.04 = 0.015 → 0.02.
    const g = await api.proforma(c, '2026-02-06', [{ unit_price: '0.03', vat_rate: '19.00' }])
    expect(g.total).toBe('0.04')
    await api.pay(g.id, '0.02', '2026-02-06')
    // An unpaid standalone Proforma adds nothing.
    await api.proforma(c, '2026-02-07', [{ unit_price: '500.00' }])
    // A Proforma issued in January, paid in February, belongs to January (its issue date): left out.
    const i = await api.proforma(c, '2026-01-20', [{ unit_price: '100.00', vat_rate: '19.00' }])
    await api.pay(i.id, '119.00', '2026-02-03')
    // A converted Proforma counts once, as its Invoice (issued on 2026-02-15: net 300.00, VAT 57.00).
    const j = await api.proforma(c, '2026-02-08', [{ unit_price: '300.00', vat_rate: '19.00' }])
    await api.pay(j.id, '100.00', '2026-02-09')
    const k = await api.convert(j.id, '2026-02-15')
    expect(k.issue_date).toBe('2026-02-15')
    // Counted paid or not, whatever its Payments did: net 40.00, VAT 7.60.
    const r = await inv('2026-02-20', '40.00')
    await api.reverse((await api.pay(r.id, '10.00', '2026-02-21')).id)
    // Cancelled, Draft and Quote count nowhere.
    await api.cancel((await inv('2026-02-11', '700.00')).id)
    await api.draft({ client_id: c, issue_date: '2026-02-12', lines: [{ unit_price: '800.00' }] })
    await api.doc({ type: 'quote', client_id: c, issue_date: '2026-02-12', lines: [{ unit_price: '900.00' }] })
    // Another currency: counted, never summed (an Invoice and an unpaid standalone Proforma; March is outside).
    await api.invoice(c, '2026-02-13', [{ unit_price: '1000.00' }], { currency: 'USD' })
    await api.proforma(c, '2026-02-14', [{ unit_price: '1000.00' }], { currency: 'USD' })
    await api.invoice(c, '2026-03-01', [{ unit_price: '1000.00' }], { currency: 'USD' })

    // income = 100 + 100 − 30 + 100 + 0.02 + 0 + 300 + 40 = 610.02; vat = 19 + 7 − 5.70 + 57 + 7.60 = 84.90
    expect(await api.report(`/v1/reports/income?${FEB}`)).toEqual({
      currency: 'EUR',
      from: '2026-02-01',
      to: '2026-02-28',
      income: '610.02',
      vat: '84.90',
      other_currency_documents: 2,
      // At the harness's standing rate of 0.5 (test/fx-rates.ts): the Invoice's 1000.00 USD; the unpaid Proforma adds nothing.
      converted: { currency: 'EUR', net: '500.00', vat: '0.00', documents: 2 },
    })
    // One day, the edges alone: the period holds both its first and last day.
    expect((await api.report('/v1/reports/income?from=2026-02-01&to=2026-02-01')).income).toBe('100.00')
    expect((await api.report('/v1/reports/income?from=2026-02-28&to=2026-02-28')).income).toBe('100.00')
    // January: 1000.00 and the January Proforma paid in full (100.00); VAT of the Invoice only.
    expect(await api.report('/v1/reports/income?from=2026-01-01&to=2026-01-31')).toMatchObject({
      income: '1100.00',
      vat: '190.00',
      other_currency_documents: 0,
    })
    // The converted Proforma's Invoice's VAT is the VAT report's too.
    expect((await api.report(`/v1/reports/vat?${FEB}`)).vat).toBe('84.90')
  })

  test('a Business sees only its own documents', async () => {
    const one = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const two = new Api(h, (await h.business({ currency: 'EUR' })).key)
    await one.invoice(await one.client('One'), '2026-02-10', [{ unit_price: '12.34' }])
    await two.invoice(await two.client('Two'), '2026-02-10', [{ unit_price: '56.78' }])
    expect((await one.report(`/v1/reports/income?${FEB}`)).income).toBe('12.34')
    expect((await two.report(`/v1/reports/income?${FEB}`)).income).toBe('56.78')
  })

  test('answers at the reporting currency scale: 0 decimals for JPY, 3 for KWD', async () => {
    const jpy = new Api(h, (await h.business({ currency: 'JPY' })).key)
    const cj = await jpy.client('Tanaka', { currency: 'JPY' })
    await jpy.invoice(cj, '2026-02-10', [{ unit_price: '1000', vat_rate: '10.00' }])
    // Paid share 1000 × 333 / 1100 = 302.72… → 303
    const p = await jpy.proforma(cj, '2026-02-10', [{ unit_price: '1000', vat_rate: '10.00' }])
    await jpy.pay(p.id, '333', '2026-02-11')
    expect(await jpy.report(`/v1/reports/income?${FEB}`)).toMatchObject({ currency: 'JPY', income: '1303', vat: '100' })

    const kwd = new Api(h, (await h.business({ currency: 'KWD' })).key)
    const ck = await kwd.client('Al Sabah', { currency: 'KWD' })
    await kwd.invoice(ck, '2026-02-10', [{ unit_price: '1.234', vat_rate: '5.00' }])
    expect(await kwd.report(`/v1/reports/income?${FEB}`)).toMatchObject({
      currency: 'KWD',
      income: '1.234',
      vat: '0.062',
    })
  })

  test('sums past 2^63 minor units and paid shares of the largest Proformas stay exact', async () => {
    const b = new Api(h, (await h.business({ currency: 'KWD' })).key)
    const c = await b.client('Big', { currency: 'KWD' })
    // Ten Invoices at the Line limit: 10 × 999999999999999.999 KWD = 9999999999999999.990, i.e. 10^19 − 10 minor units.
    for (let i = 0; i < 10; i++)
      await b.invoice(c, '2026-02-10', [{ unit_price: '999999999999999.999' }], { due_date: '2026-02-20' })
    expect(await b.report(`/v1/reports/income?${FEB}`)).toMatchObject({ income: '9999999999999999.990', vat: '0.000' })
    // The other reports sum the same amounts, each past 2^63 too.
    expect(await b.report(`/v1/reports/vat?${FEB}`)).toMatchObject({
      net: '9999999999999999.990',
      bands: [{ category: 'Z', rate: '0.00', net: '9999999999999999.990', vat: '0.000' }],
    })
    expect(await b.report('/v1/reports/overdue')).toMatchObject({
      count: 10,
      amount_due: '9999999999999999.990',
      clients: [{ client_id: c, documents: 10, amount_due: '9999999999999999.990' }],
    })
    // A Proforma too large for SQLite's integers: net 999999999999999.999, VAT 10% → 100000000000000.000,
    // total 1099999999999999.999, paid 550000000000000.000: share = net × paid / total
    // = 500000000000000.000227272727272727… → 500000000000000.000.
    const p = await b.proforma(c, '2026-02-11', [{ unit_price: '999999999999999.999', vat_rate: '10.00' }])
    expect(p.total).toBe('1099999999999999.999')
    await b.pay(p.id, '550000000000000.000', '2026-02-11')
    expect((await b.report('/v1/reports/income?from=2026-02-11&to=2026-02-11')).income).toBe('500000000000000.000')
    // A share that falls on .5 of the last place rounds away from zero: net 0.003 (VAT 19% → 0.001), total 0.004,
    // paid 0.002: 0.003 × 0.002 / 0.004 = 0.0015 → 0.002.
    const q = await b.proforma(c, '2026-02-12', [{ unit_price: '0.003', vat_rate: '19.00' }])
    expect(q.total).toBe('0.004')
    await b.pay(q.id, '0.002', '2026-02-12')
    expect((await b.report('/v1/reports/income?from=2026-02-12&to=2026-02-12')).income).toBe('0.002')
    // Brought forward into March: 9999999999999999.990 + 1099999999999999.999 − 550000000000000.000 + 0.004 − 0.002.
    const march = await b.report(`/v1/reports/statement?client_id=${c}&from=2026-03-01&to=2026-03-31`)
    expect(march.currencies).toEqual([
      {
        currency: 'KWD',
        opening_balance: '10549999999999999.991',
        closing_balance: '10549999999999999.991',
        lines: [],
      },
    ])
  })
})
