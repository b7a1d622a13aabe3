// The client statement over HTTP: balance brought forward, documents on issue dates and Payments on payment dates
// with a running balance, prepaid Payments, Credit Notes as credits, one block per currency, hand-computed.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { Api, expectInvalid } from './fixtures'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

const line = (o: Record<string, unknown>) => ({
  kind: 'document',
  document_type: 'invoice',
  debit: null,
  credit: null,
  prepaid: false,
  ...o,
})
const payment = (o: Record<string, unknown>) => ({
  kind: 'payment',
  document_type: null,
  number: '-',
  description: 'cash',
  debit: null,
  prepaid: false,
  ...o,
})

describe('client statement', () => {
  test('brings the balance forward and runs it through the period, per currency (hand-computed)', async () => {
    const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const c = await api.client('Statement Client')
    const other = await api.client('Someone Else')
    const one = (issue_date: string, unit_price: string) => api.invoice(c, issue_date, [{ unit_price }])

    // Before the period: 119.00 owed, 50.00 paid (a reversed Payment counts nowhere), a cancelled Invoice left
    // out, 80.00 paid on a Proforma converted in the period (prepaid): opening 119 − 50 − 80 = −11.00.
    const s1 = await api.invoice(c, '2026-01-10', [{ unit_price: '100.00', vat_rate: '19.00' }])
    await api.pay(s1.id, '50.00', '2026-01-20')
    await api.reverse((await api.pay(s1.id, '10.00', '2026-01-25')).id)
    await api.cancel((await one('2026-01-15', '300.00')).id)
    const s3 = await api.proforma(c, '2026-01-28', [{ description: 'Deposit work', unit_price: '200.00' }])
    await api.pay(s3.id, '80.00', '2026-01-30')

    // In the period.
    const s5 = await api.invoice(c, '2026-02-01', [
      { description: 'A', quantity: '2', unit_price: '10.00' },
      { description: 'B', unit_price: '5.00' },
    ])
    const p1 = await api.pay(s1.id, '69.00', '2026-02-01', 'WIRE-1')
    const s4 = await api.convert(s3.id, '2026-02-05')
    await api.pay(s4.id, '50.00', '2026-02-06')
    const s6 = await api.creditNote(s5, '2026-02-10', [{ description: 'Refund', unit_price: '5.00' }])
    const s7 = await api.proforma(c, '2026-02-12', [{ description: 'Advance', unit_price: '40.00' }])
    await api.pay(s7.id, '40.00', '2026-02-13')
    // A Proforma issued and paid in the period, converted after it: no line of its own, its Payment prepaid.
    const s10 = await api.proforma(c, '2026-02-14', [{ unit_price: '100.00' }])
    await api.pay(s10.id, '30.00', '2026-02-15')
    await api.convert(s10.id, '2026-03-05')
    const s8 = await api.invoice(c, '2026-02-28', [{ description: 'Last day', unit_price: '10.00' }])
    await api.reverse((await api.pay(s8.id, '10.00', '2026-02-28')).id)
    // After the period, a Draft, a Quote and another Client's Invoice: left out.
    const s9 = await one('2026-03-01', '10.00')
    await api.pay(s8.id, '5.00', '2026-03-01')
    // A Payment dated in the period counts on its date whichever document it settles, even one issued after.
    await api.pay(s9.id, '5.00', '2026-02-27')
    await api.draft({ client_id: c, issue_date: '2026-02-15', lines: [{ unit_price: '999.00' }] })
    await api.doc({ type: 'quote', client_id: c, issue_date: '2026-02-15', lines: [{ unit_price: '999.00' }] })
    await api.invoice(other, '2026-02-15', [{ unit_price: '999.00' }])

    // USD: an Invoice and a Payment in the period. GBP: only a balance brought forward. JPY: settled before, no block.
    const u1 = await api.invoice(c, '2026-02-20', [{ description: 'Licence', unit_price: '1000.00' }], {
      currency: 'USD',
    })
    await api.pay(u1.id, '400.00', '2026-02-21')
    await api.invoice(c, '2025-12-01', [{ unit_price: '70.00' }], { currency: 'GBP' })
    const j1 = await api.invoice(c, '2025-12-01', [{ unit_price: '1000' }], { currency: 'JPY' })
    await api.pay(j1.id, '1000', '2025-12-05')

    const st = await api.report(`/v1/reports/statement?client_id=${c}&from=2026-02-01&to=2026-02-28`)
    expect(st).toEqual({
      client_id: c,
      from: '2026-02-01',
      to: '2026-02-28',
      currencies: [
        {
          currency: 'EUR',
          opening_balance: '-11.00',
          closing_balance: '65.00',
          lines: [
            line({
              date: '2026-02-01',
              number: s5.document_number,
              description: '2 lines',
              debit: '25.00',
              balance: '14.00',
            }),
            payment({ date: '2026-02-01', number: 'WIRE-1', credit: '69.00', balance: '-55.00' }),
            line({
              date: '2026-02-05',
              number: s4.document_number,
              description: 'Deposit work',
              debit: '200.00',
              balance: '145.00',
            }),
            payment({ date: '2026-02-06', credit: '50.00', balance: '95.00' }),
            line({
              date: '2026-02-10',
              document_type: 'credit_note',
              number: s6.document_number,
              description: 'Refund',
              credit: '5.00',
              balance: '90.00',
            }),
            line({
              date: '2026-02-12',
              document_type: 'proforma',
              number: s7.document_number,
              description: 'Advance',
              debit: '40.00',
              balance: '130.00',
            }),
            payment({ date: '2026-02-13', credit: '40.00', balance: '90.00' }),
            payment({ date: '2026-02-15', credit: '30.00', balance: '60.00', prepaid: true }),
            payment({ date: '2026-02-27', credit: '5.00', balance: '55.00' }),
            line({
              date: '2026-02-28',
              number: s8.document_number,
              description: 'Last day',
              debit: '10.00',
              balance: '65.00',
            }),
          ],
        },
        {
          currency: 'USD',
          opening_balance: '0.00',
          closing_balance: '600.00',
          lines: [
            line({
              date: '2026-02-20',
              number: u1.document_number,
              description: 'Licence',
              debit: '1000.00',
              balance: '1000.00',
            }),
            payment({ date: '2026-02-21', credit: '400.00', balance: '600.00' }),
          ],
        },
        { currency: 'GBP', opening_balance: '70.00', closing_balance: '70.00', lines: [] },
      ],
    })
    expect(p1.reference).toBe('WIRE-1')

    // The next period opens where this one closed.
    const march = await api.report(`/v1/reports/statement?client_id=${c}&from=2026-03-01&to=2026-03-31`)
    const eur = march.currencies.find((b: any) => b.currency === 'EUR')
    expect(eur.opening_balance).toBe('65.00')
    // March: the Invoice converted from s10 (100.00), s9 (10.00), 5.00 paid on s8: 65 + 100 + 10 − 5 = 170.00.
    expect(eur.closing_balance).toBe('170.00')
  })

  test("the prepaid Payment earlier than its Invoice: the Proforma's Payments marked, the Invoice debited once", async () => {
    const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const c = await api.client('Prepaying Client')
    const p = await api.proforma(c, '2026-04-01', [{ unit_price: '100.00', vat_rate: '19.00' }])
    await api.pay(p.id, '119.00', '2026-04-02', 'ADVANCE')
    const inv = await api.convert(p.id, '2026-04-03')
    expect(inv.status).toBe('paid')
    const st = await api.report(`/v1/reports/statement?client_id=${c}&from=2026-04-01&to=2026-04-30`)
    expect(st.currencies).toEqual([
      {
        currency: 'EUR',
        opening_balance: '0.00',
        closing_balance: '0.00',
        lines: [
          payment({ date: '2026-04-02', number: 'ADVANCE', credit: '119.00', balance: '-119.00', prepaid: true }),
          line({
            date: '2026-04-03',
            number: inv.document_number,
            description: 'Work',
            debit: '119.00',
            balance: '0.00',
          }),
        ],
      },
    ])
  })

  test('a Client with nothing in or before the period has no blocks', async () => {
    const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const c = await api.client('Quiet Client')
    await api.invoice(c, '2026-06-01', [{ unit_price: '1.00' }])
    expect(await api.report(`/v1/reports/statement?client_id=${c}&from=2026-01-01&to=2026-05-31`)).toEqual({
      client_id: c,
      from: '2026-01-01',
      to: '2026-05-31',
      currencies: [],
    })
  })

  test("another Business's Client, or none, is 404; client_id is a required whole number", async () => {
    const mine = new Api(h, (await h.business()).key)
    const theirs = new Api(h, (await h.business()).key)
    const foreign = await theirs.client('Not Yours')
    const period = 'from=2026-01-01&to=2026-01-31'
    const r = await mine.get(`/v1/reports/statement?client_id=${foreign}&${period}`)
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    expect((await mine.get(`/v1/reports/statement?client_id=999999999&${period}`)).status).toBe(404)
    expectInvalid(await mine.get(`/v1/reports/statement?${period}`), 'client_id')
    expectInvalid(await mine.get(`/v1/reports/statement?client_id=abc&${period}`), 'client_id')
    expectInvalid(await mine.get(`/v1/reports/statement?client_id=1.5&${period}`), 'client_id')
    expectInvalid(await mine.get(`/v1/reports/statement?client_id=0&${period}`), 'client_id')
    // The period is judged before the Client is looked for.
    expectInvalid(await mine.get(`/v1/reports/statement?client_id=${foreign}&from=2026-02-01&to=2026-01-31`), 'to')
  })
})
