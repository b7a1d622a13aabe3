// Reported VAT: the VAT bands of the Invoices and Credit Notes issued in a period, in the reporting currency.
//
// Rules followed:
// - Counted: Invoices and Credit Notes with status issued, partially_paid or paid and an issue date in
//   [from, to], in full, paid or not. Drafts, cancelled documents, Quotes and Proforma Invoices (standalone or
//   converted) count nowhere: a Proforma carries no VAT; a converted one is reported through its Invoice.
// - A Credit Note subtracts its bands' net and VAT.
// - A band is a (category, rate) pair as the documents' own VAT breakdown holds it; each 0% category is its own
//   band. Bands are listed highest rate first; at one rate by category S, Z, E, AE, K, G, O (then any other,
//   alphabetically). A band whose Invoices and Credit Notes cancel out is still listed, with zeros: it was
//   reported in the period.
// - `net` and `vat` are the sums of the bands. `net` is therefore not the income report's `income`, which adds
//   standalone Proformas' paid shares.
// - other_currency_documents: Invoices and Credit Notes counted as above but in another currency; summed nowhere.
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { currencyScale } from '../../shared/currencies'
import { Dec, stored, type Decimal } from '../../shared/money'
import type { Period } from './period'
import type { VatBand, VatReport } from './reports.model'
import { amountOf, minorOf, rows, STANDING, sumMinor, withExactSums } from './sums'

const CATEGORY_ORDER = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O']

function categoryRank(c: string): number {
  const i = CATEGORY_ORDER.indexOf(c)
  return i < 0 ? CATEGORY_ORDER.length : i
}

/** Highest rate first; at one rate, the categories in their usual order, then any other alphabetically. */
export function compareBands(a: { category: string; rate: string }, b: { category: string; rate: string }): number {
  return stored(b.rate).cmp(stored(a.rate)) || categoryRank(a.category) - categoryRank(b.category) || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0)
}

export async function vatReport(q: Queryable, business: { id: number; currency: string }, period: Period): Promise<VatReport> {
  const cur = business.currency
  const counted = sql`d.business_id = ${business.id} AND d.issue_date >= ${period.from} AND d.issue_date <= ${period.to}
    AND d.status IN ${STANDING} AND d.type IN ('invoice', 'credit_note')`
  const bands = await withExactSums((split) =>
    rows<{ category: string; rate: string; net: string; vat: string }>(
      q,
      sql`SELECT b.category AS category, b.rate AS rate,
          ${sumMinor(sql`CASE d.type WHEN 'credit_note' THEN -b.net_minor ELSE b.net_minor END`, split)} AS net,
          ${sumMinor(sql`CASE d.type WHEN 'credit_note' THEN -b.vat_minor ELSE b.vat_minor END`, split)} AS vat
        FROM documents d JOIN document_vat_bands b ON b.document_id = d.id
        WHERE ${counted} AND d.currency = ${cur}
        GROUP BY b.category, b.rate`,
    ),
  )
  const other = await rows<{ n: number }>(q, sql`SELECT count(*) AS n FROM documents d WHERE ${counted} AND d.currency <> ${cur}`)

  const scale = currencyScale(cur)
  // Rates are stored with two decimals; two spellings of one rate would still make one band.
  const merged = new Map<string, { category: string; rate: string; net: Decimal; vat: Decimal }>()
  for (const r of bands) {
    const rate = stored(r.rate).toFixed(2)
    const key = `${r.category}|${rate}`
    const m = merged.get(key) ?? { category: r.category, rate, net: new Dec('0'), vat: new Dec('0') }
    m.net = m.net.plus(minorOf(r.net))
    m.vat = m.vat.plus(minorOf(r.vat))
    merged.set(key, m)
  }
  const sorted = [...merged.values()].sort(compareBands)
  const out: VatBand[] = sorted.map((b) => ({ category: b.category, rate: b.rate, net: amountOf(b.net, scale), vat: amountOf(b.vat, scale) }))
  const net = sorted.reduce((s, b) => s.plus(b.net), new Dec('0'))
  const vat = sorted.reduce((s, b) => s.plus(b.vat), new Dec('0'))
  return {
    currency: cur,
    from: period.from,
    to: period.to,
    net: amountOf(net, scale),
    vat: amountOf(vat, scale),
    bands: out,
    other_currency_documents: other[0]?.n ?? 0,
  }
}
