// The CSV of each report holds the API's figures to the cent: parsed back (RFC 4180), every amount, count, code and
// date equals the API's JSON; typed text that a spreadsheet would run as a formula is defused.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { csvFileName, incomeCsv, overdueCsv, statementCsv, textCell, vatCsv } from './csv'
import { Api } from './fixtures'
import { parseCsv } from '../../../test/csv'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

function records(text: string): Record<string, string>[] {
  const [head, ...rows] = parseCsv(text)
  return rows.map((r) => Object.fromEntries(head!.map((k, i) => [k, r[i]!])))
}

describe('report CSV', () => {
  test('income, VAT, overdue and statement CSV equal the API to the cent', async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const c = await api.client('=HYPERLINK("x"), "Quoted" Ltd')
    const a = await api.invoice(
      c,
      '2026-02-02',
      [
        { unit_price: '100.01', vat_rate: '19.00' },
        { unit_price: '33.33', vat_rate: '7.00' },
        { unit_price: '5.00', vat_rate: '0' },
      ],
      { due_date: '2026-02-10' },
    )
    await api.pay(a.id, '12.34', '2026-02-03', '-2+3 ref, "quoted"')
    await api.creditNote(a, '2026-02-04', [{ unit_price: '10.00', vat_rate: '19.00' }])
    await api.invoice(c, '2026-02-05', [{ unit_price: '1.00' }], { currency: 'USD', due_date: '2026-02-06' })
    const period = 'from=2026-02-01&to=2026-02-28'

    const income = await api.report(`/v1/reports/income?${period}`)
    expect(records(incomeCsv(income))).toEqual([
      {
        currency: 'EUR',
        from: '2026-02-01',
        to: '2026-02-28',
        income: income.income,
        vat: income.vat,
        other_currency_documents: String(income.other_currency_documents),
      },
    ])

    const vat = await api.report(`/v1/reports/vat?${period}`)
    const vatRows = records(vatCsv(vat))
    expect(vatRows.slice(0, -1).map((r) => ({ category: r.category, rate: r.rate, net: r.net, vat: r.vat }))).toEqual(
      vat.bands,
    )
    expect(vatRows.at(-1)).toMatchObject({
      category: 'total',
      net: vat.net,
      vat: vat.vat,
      other_currency_documents: String(vat.other_currency_documents),
    })

    const overdue = await api.report('/v1/reports/overdue')
    const overdueRows = records(overdueCsv(overdue))
    expect(
      overdueRows.slice(0, -1).map((r) => ({
        client_id: Number(r.client_id),
        name: r.name,
        documents: Number(r.documents),
        amount_due: r.amount_due,
      })),
    ).toEqual(overdue.clients.map((x: any) => ({ ...x, name: `'${x.name}` })))
    expect(overdueRows.at(-1)).toMatchObject({
      name: 'total',
      documents: String(overdue.count),
      amount_due: overdue.amount_due,
      other_currency_documents: '1',
    })

    const st = await api.report(`/v1/reports/statement?client_id=${c}&${period}`)
    const stRows = records(statementCsv(st))
    for (const cur of st.currencies) {
      const mine = stRows.filter((r) => r.currency === cur.currency)
      expect(mine[0]).toMatchObject({ kind: 'opening_balance', balance: cur.opening_balance })
      expect(mine.at(-1)).toMatchObject({ kind: 'closing_balance', balance: cur.closing_balance })
      expect(
        mine.slice(1, -1).map((r) => ({
          date: r.date,
          kind: r.kind,
          document_type: r.document_type || null,
          number: r.number.replace(/^'(?=[=+\-@])/, ''),
          description: r.description,
          debit: r.debit || null,
          credit: r.credit || null,
          balance: r.balance,
          prepaid: r.prepaid === 'true',
        })),
      ).toEqual(cur.lines)
    }
    expect(stRows.some((r) => r.number === `'-2+3 ref, "quoted"`)).toBe(true)
  })

  test('typed text starting a formula is defused; a lone dash is left as it is; file names carry no header breakers', () => {
    expect(textCell('=1+1')).toBe("'=1+1")
    expect(textCell('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(textCell('-')).toBe('-')
    expect(textCell('a,b')).toBe('"a,b"')
    expect(csvFileName('vat', '2026-01-01', '2026-01-31')).toBe('vat-2026-01-01-2026-01-31.csv')
    expect(csvFileName('x"\r\n', null, null)).toBe('x___.csv')
  })
})
