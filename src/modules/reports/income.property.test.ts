// Property: for random documents and Payments (seeded, reproducible), the income report equals the income summed
// independently here, in integers of minor units, from the documents' own API answers (GET /v1/documents).
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { prng } from '../../../test/seeded'
import { Api } from './fixtures'

// Each seed makes about a hundred API calls: seconds on a loaded machine, not a sign of a fault.
setDefaultTimeout(30_000)

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10)

/** "123.45" (scale 2) → 12345n; the test's own reading, not the service's money module. */
function minor(amount: string): bigint {
  const neg = amount.startsWith('-')
  const [int, frac = ''] = amount.replace('-', '').split('.')
  const v = BigInt(int!) * 100n + BigInt((frac + '00').slice(0, 2))
  return neg ? -v : v
}

function show(m: bigint): string {
  const neg = m < 0n
  const a = neg ? -m : m
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`
}

/** amount × rate (both decimal text) in minor units, half away from zero: the test's own exact arithmetic. */
function times(amountMinor: bigint, rate: string): bigint {
  const [int, frac = ''] = rate.split('.')
  const num = BigInt(int! + frac)
  const den = 10n ** BigInt(frac.length)
  const neg = amountMinor < 0n
  const a = neg ? -amountMinor : amountMinor
  const v = (2n * a * num + den) / (2n * den)
  return neg ? -v : v
}

/** The contract's income, summed from documents as the API answers them. */
function expectedIncome(docs: any[], from: string, to: string) {
  let income = 0n
  let vat = 0n
  let other = 0
  // The `converted` block (extensions §16): the other-currency documents at their own rate, from their answers.
  const conv = { net: 0n, vat: 0n, documents: 0 }
  for (const d of docs) {
    if (!['issued', 'partially_paid', 'paid'].includes(d.status)) continue
    if (d.issue_date < from || d.issue_date > to) continue
    const standalone = d.type === 'proforma' && d.converted_into_id === null
    if (d.type !== 'invoice' && d.type !== 'credit_note' && !standalone) continue
    if (d.currency !== 'EUR') {
      other++
      if (d.exchange_rate === null || d.accounting_currency !== 'EUR') continue
      conv.documents++
      const net = times(minor(d.net_total), d.exchange_rate)
      if (d.type === 'invoice') {
        conv.net += net
        conv.vat += minor(d.vat_total_accounting)
      } else if (d.type === 'credit_note') {
        conv.net -= net
        conv.vat -= minor(d.vat_total_accounting)
      } else {
        const paid = minor(d.amount_paid)
        const total = minor(d.total)
        conv.net += paid <= 0n ? 0n : paid >= total ? net : (2n * net * paid + total) / (2n * total)
      }
      continue
    }
    const net = minor(d.net_total)
    if (d.type === 'invoice') {
      income += net
      vat += minor(d.vat_total)
    } else if (d.type === 'credit_note') {
      income -= net
      vat -= minor(d.vat_total)
    } else {
      const paid = minor(d.amount_paid)
      const total = minor(d.total)
      // net × paid ÷ total, half away from zero (all positive here).
      income += paid <= 0n ? 0n : paid >= total ? net : (2n * net * paid + total) / (2n * total)
    }
  }
  return {
    income: show(income),
    vat: show(vat),
    other_currency_documents: other,
    converted: { currency: 'EUR', net: show(conv.net), vat: show(conv.vat), documents: conv.documents },
  }
}

async function randomBusiness(seed: number, count: number) {
  const r = prng(seed)
  const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
  const clients = [await api.client('P One'), await api.client('P Two'), await api.client('P Three')]
  const price = () =>
    r.chance(0.2)
      ? `0.${String(r.int(1, 99)).padStart(2, '0')}`
      : `${r.int(1, 2000)}.${String(r.int(0, 99)).padStart(2, '0')}`
  const invoices: Array<{ id: number; client_id: number; currency: string }> = []
  for (let i = 0; i < count; i++) {
    const type = r.pick([
      'invoice',
      'invoice',
      'invoice',
      'credit_note',
      'proforma',
      'proforma',
      'proforma',
      'quote',
    ] as const)
    const issueDay = r.int(0, 89)
    const lines = Array.from({ length: r.int(1, 3) }, () => ({
      quantity: r.pick(['1', '2', '0.5', '3.25', '1.3333']),
      unit_price: price(),
      vat_rate: r.pick(['0', '7.00', '19.00', '21.00']),
    }))
    // A Credit Note that names its Invoice takes that Invoice's Client and currency, as the service requires.
    const credited = type === 'credit_note' && invoices.length > 0 && r.chance(0.5) ? r.pick(invoices) : null
    const spec = {
      type,
      client_id: credited?.client_id ?? r.pick(clients),
      currency: credited?.currency ?? (r.chance(0.2) ? 'USD' : 'EUR'),
      issue_date: day(issueDay),
      lines,
      ...(credited ? { credited_document_id: credited.id } : {}),
    }
    if (r.chance(0.1)) {
      await api.draft(spec)
      continue
    }
    let d = await api.doc(spec)
    if (type === 'invoice') invoices.push({ id: d.id, client_id: spec.client_id, currency: spec.currency })
    if (r.chance(0.12)) {
      await api.cancel(d.id)
      continue
    }
    if (type !== 'invoice' && type !== 'proforma') continue
    for (let p = r.int(0, 3); p > 0; p--) {
      const due = minor(d.amount_due)
      if (due <= 0n) break
      const amount = r.chance(0.3) ? due : 1n + BigInt(Math.floor(r.next() * Number(due)))
      const pay = await api.pay(d.id, show(amount), day(issueDay + r.int(0, 40)))
      if (r.chance(0.3)) await api.reverse(pay.id)
      d = (await api.get(`/v1/documents/${d.id}`)).body
    }
    if (type === 'proforma' && r.chance(0.35)) await api.convert(d.id, day(issueDay + r.int(0, 30)))
  }
  return api
}

describe("income equals the sum of the documents' own answers", () => {
  for (const seed of [20260310, 7, 424242]) {
    test(`seed ${seed}: 30 random documents with Payments, over months, the quarter and random periods`, async () => {
      const api = await randomBusiness(seed, 30)
      const docs = await api.allDocuments()
      const r = prng(seed ^ 0x5eed)
      const periods: [string, string][] = [
        ['2026-01-01', '2026-03-31'],
        ['2026-01-01', '2026-01-31'],
        ['2026-02-01', '2026-02-28'],
        ['2026-03-01', '2026-03-31'],
        ['2026-01-01', '2026-12-31'],
      ]
      for (let i = 0; i < 6; i++) {
        const a = r.int(0, 120)
        periods.push([day(a), day(a + r.int(0, 40))])
      }
      for (const [from, to] of periods) {
        const got = await api.report(`/v1/reports/income?from=${from}&to=${to}`)
        expect({ period: `${from}..${to}`, ...got }).toEqual({
          period: `${from}..${to}`,
          currency: 'EUR',
          from,
          to,
          ...expectedIncome(docs, from, to),
        })
        // The VAT report's VAT is the income report's.
        expect((await api.report(`/v1/reports/vat?from=${from}&to=${to}`)).vat).toBe(got.vat)
      }
    })
  }
})
