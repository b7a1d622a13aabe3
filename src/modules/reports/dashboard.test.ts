// The dashboard's figures are the reports' own: this month's and this year's income and VAT equal GET
// /v1/reports/income for those periods, each of twelve months too, the overdue total equals GET /v1/reports/overdue,
// and the oldest overdue documents come oldest first, whatever their currency.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { getBusiness } from '../business'
import { dashboard, lastMonths, monthEnd } from './dashboard'
import { Api } from './fixtures'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

describe('dashboard', () => {
  test('month ends and the twelve months before today, across a year boundary', () => {
    expect(monthEnd('2024-02')).toBe('2024-02-29')
    expect(monthEnd('2026-12')).toBe('2026-12-31')
    expect(lastMonths('2026-03-10', 12)).toEqual([
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ])
  })

  test('every figure equals the income and overdue reports the API answers for the same periods', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c = await api.client('Acme')
    const other = await api.client('Beta')
    // Today is 2026-03-10 (the harness clock): documents this month, earlier this year, last year, other currency.
    const a = await api.invoice(c, '2026-03-02', [
      { unit_price: '100.00', vat_rate: '19.00' },
      { unit_price: '50.00', vat_rate: '7.00' },
    ])
    await api.pay(a.id, '40.00', '2026-03-03')
    await api.invoice(c, '2026-01-15', [{ unit_price: '300.00', vat_rate: '19.00' }], { due_date: '2026-01-20' })
    await api.invoice(other, '2025-06-01', [{ unit_price: '80.00' }], { due_date: '2025-07-01' })
    await api.creditNote(a, '2026-02-10', [{ unit_price: '20.00', vat_rate: '19.00' }])
    await api.invoice(c, '2026-03-04', [{ unit_price: '999.00' }], { currency: 'USD', due_date: '2026-03-05' })
    const pf = await api.proforma(other, '2026-03-05', [{ unit_price: '200.00', vat_rate: '19.00' }])
    await api.pay(pf.id, '119.00', '2026-03-06')

    const d = await dashboard(h.deps.db.read, await getBusiness(h.deps.db.read, b.id), '2026-03-10')
    expect(d.month).toEqual(await api.report('/v1/reports/income?from=2026-03-01&to=2026-03-31'))
    expect(d.year).toEqual(await api.report('/v1/reports/income?from=2026-01-01&to=2026-12-31'))
    expect(d.overdue).toEqual(await api.report('/v1/reports/overdue'))
    expect(d.months.map((m) => m.month)).toEqual(lastMonths('2026-03-10', 12))
    for (const m of d.months) {
      const { month, ...report } = m
      expect(report).toEqual(await api.report(`/v1/reports/income?from=${month}-01&to=${monthEnd(month)}`))
    }
    expect(d.month.other_currency_documents).toBe(1)
    expect(d.months.find((m) => m.month === '2025-06')!.income).toBe('80.00')

    // Oldest first, whatever the currency, each in its own currency.
    expect(d.oldestOverdue.map((o) => [o.due_date, o.currency, o.amount_due, o.days_overdue])).toEqual([
      ['2025-07-01', 'EUR', '80.00', 252],
      ['2026-01-20', 'EUR', '357.00', 49],
      ['2026-03-05', 'USD', '999.00', 5],
    ])
    expect(d.oldestOverdue[0]!.client_name).toBe('Beta')
  })
})
