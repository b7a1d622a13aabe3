// The overdue report over HTTP: Invoices and unconverted Proformas past due as of today (UTC, the injected clock),
// by Client, largest amount due first; agrees with each document's own is_overdue.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { Api } from './fixtures'

let h: Harness

beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
  h.clock.set('2026-03-10T09:00:00.000Z')
})
afterAll(() => h.close())

describe('overdue report', () => {
  test('lists what is past due and unpaid today, by Client, largest first (hand-computed)', async () => {
    const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const x = await api.client('Xeno')
    const y = await api.client('Yara')
    const z = await api.client('Zulu')
    const due = (client_id: number, issue_date: string, due_date: string, unit_price: string, extra: object = {}) =>
      api.doc({ client_id, issue_date, due_date, lines: [{ unit_price }], ...extra })

    // Xeno: 119.00 less 19.00 paid = 100.00; 50.00 due yesterday; one due today is not overdue yet.
    const x1 = await api.invoice(x, '2026-01-01', [{ unit_price: '100.00', vat_rate: '19.00' }], {
      due_date: '2026-01-31',
    })
    await api.pay(x1.id, '19.00', '2026-01-15')
    await due(x, '2026-02-01', '2026-03-09', '50.00')
    await due(x, '2026-02-01', '2026-03-10', '70.00')
    // A Credit Note on Xeno's Invoice is never overdue and leaves the Invoice's amount due as it stands.
    await api.creditNote(x1, '2026-01-05', [{ unit_price: '20.00' }], { due_date: '2026-01-06' })

    // Yara: 500.00 (its Payment reversed), a standalone Proforma 100.00, and a converted Proforma's Invoice:
    // 200.00 less the 50.00 paid on the Proforma = 150.00 (the Proforma itself, past due too, is not listed).
    const y1 = await due(y, '2026-01-01', '2026-02-01', '500.00')
    await api.reverse((await api.pay(y1.id, '100.00', '2026-01-10')).id)
    await due(y, '2026-02-01', '2026-02-15', '100.00', { type: 'proforma' })
    const y3 = await due(y, '2026-01-10', '2026-01-20', '200.00', { type: 'proforma' })
    await api.pay(y3.id, '50.00', '2026-01-12')
    const y4 = await api.convert(y3.id, '2026-02-01')
    expect(y4.due_date).toBe('2026-03-03')
    expect(y4.amount_due).toBe('150.00')

    // Zulu: paid in full, cancelled, and a Draft past due are not overdue; 1000.00 less 999.99 = 0.01 is.
    const z1 = await due(z, '2026-01-01', '2026-02-01', '10.00')
    await api.pay(z1.id, '10.00', '2026-01-02')
    await api.cancel((await due(z, '2026-01-01', '2026-02-01', '10.00')).id)
    await api.draft({
      client_id: z,
      issue_date: '2026-01-01',
      due_date: '2026-02-01',
      lines: [{ unit_price: '10.00' }],
    })
    const z5 = await due(z, '2026-01-01', '2026-02-20', '1000.00')
    await api.pay(z5.id, '999.99', '2026-01-02')
    // Another currency: counted apart.
    await due(z, '2026-01-01', '2026-02-01', '10.00', { currency: 'USD' })

    const report = await api.report('/v1/reports/overdue')
    expect(report).toEqual({
      currency: 'EUR',
      as_of: '2026-03-10',
      count: 6,
      amount_due: '900.01',
      clients: [
        { client_id: y, name: 'Yara', documents: 3, amount_due: '750.00' },
        { client_id: x, name: 'Xeno', documents: 2, amount_due: '150.00' },
        { client_id: z, name: 'Zulu', documents: 1, amount_due: '0.01' },
      ],
      other_currency_documents: 1,
    })
    // The same documents say is_overdue themselves.
    const docs = await api.allDocuments()
    expect(docs.filter((d) => d.is_overdue && d.currency === 'EUR').length).toBe(6)
    expect(docs.filter((d) => d.is_overdue && d.currency !== 'EUR').length).toBe(1)

    // Judged on the clock's UTC day: tomorrow the one due today joins Xeno.
    h.clock.set('2026-03-11T00:00:00.000Z')
    try {
      const tomorrow = await api.report('/v1/reports/overdue')
      expect(tomorrow).toMatchObject({ as_of: '2026-03-11', count: 7, amount_due: '970.01' })
      expect(tomorrow.clients[1]).toEqual({ client_id: x, name: 'Xeno', documents: 3, amount_due: '220.00' })
    } finally {
      h.clock.set('2026-03-10T09:00:00.000Z')
    }
  })

  test('a Business with nothing overdue answers zeros and no Clients', async () => {
    const api = new Api(h, (await h.business({ currency: 'CHF' })).key)
    expect(await api.report('/v1/reports/overdue')).toEqual({
      currency: 'CHF',
      as_of: '2026-03-10',
      count: 0,
      amount_due: '0.00',
      clients: [],
      other_currency_documents: 0,
    })
  })
})
