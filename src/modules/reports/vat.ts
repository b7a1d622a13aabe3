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
// - `converted` (extensions §16): those of them issued with an exchange rate into the Business's currency, by band,
//   each band's net and VAT at its document's own rate fixed at issue (vat_accounting); `vat + converted.vat` is the
//   VAT to declare. Its `vat` is the sum of its bands, which may differ by rounding from the documents' own
//   vat_total_accounting.
import { categoryRank } from '../documents'
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { currencyScale } from '../../shared/currencies'
import { Dec, stored, type Decimal } from '../../shared/money'
import { joinSplit } from './income'
import type { Period } from './period'
import type { VatBand, VatReport } from './reports.model'
import { amountOf, rows, splitSum } from './sums'

/** Highest rate first; at one rate, the categories in their usual order, then any other alphabetically. */
function compareBands(a: { category: string; rate: string }, b: { category: string; rate: string }): number {
  return (
    stored(b.rate).cmp(stored(a.rate)) ||
    categoryRank(a.category) - categoryRank(b.category) ||
    (a.category < b.category ? -1 : a.category > b.category ? 1 : 0)
  )
}

interface BandRow {
  type: 'invoice' | 'credit_note'
  category: string
  rate: string
  bands: number
  net_hi: string
  net_lo: string
  vat_hi: string
  vat_lo: string
}

/**
 * Reads the running sums of report_vat_days (per issue day, currency, type and band, kept by triggers on every write
 * to documents and their bands): a year is some thousands of rows whatever the number of documents. Credit Notes'
 * sums are subtracted here; a band is listed while any document holds it in the period (its count above zero).
 */
export async function vatReport(
  q: Queryable,
  business: { id: number; currency: string },
  period: Period,
): Promise<VatReport> {
  const cur = business.currency
  const id = business.id
  const [bandRows, otherRows] = await Promise.all([
    rows<BandRow>(
      q,
      sql`SELECT type, category, rate, sum(bands) AS bands, ${splitSum('net')}, ${splitSum('vat')}
        FROM report_vat_days WHERE business_id = ${id} AND day >= ${period.from} AND day <= ${period.to} AND currency = ${cur}
        GROUP BY type, category, rate`,
    ),
    rows<{ other: number | null }>(
      q,
      sql`SELECT sum(vat_documents) AS other FROM report_days
        WHERE business_id = ${id} AND day >= ${period.from} AND day <= ${period.to} AND currency <> ${cur}`,
    ),
  ])

  const scale = currencyScale(cur)
  const { bands: sorted, net, vat } = mergeBands(bandRows)
  return {
    currency: cur,
    from: period.from,
    to: period.to,
    net: amountOf(net, scale),
    vat: amountOf(vat, scale),
    bands: sorted.map(
      (b): VatBand => ({
        category: b.category,
        rate: b.rate,
        net: amountOf(b.net, scale),
        vat: amountOf(b.vat, scale),
      }),
    ),
    other_currency_documents: otherRows[0]?.other ?? 0,
    converted: await convertedVat(q, business, period),
  }
}

/**
 * The `converted` block (extensions §16): the bands of the Invoices and Credit Notes in other currencies issued with
 * a rate into the Business's currency, each band's net and VAT at its document's rate fixed at issue, from the
 * running sums of report_fx_vat_days (migrations/0023_exchange_rates.sql), merged and ordered as the report's own.
 */
async function convertedVat(q: Queryable, business: { id: number; currency: string }, period: Period) {
  const cur = business.currency
  const [bandRows, docs] = await Promise.all([
    rows<BandRow>(
      q,
      sql`SELECT type, category, rate, sum(bands) AS bands, ${splitSum('net')}, ${splitSum('vat')}
        FROM report_fx_vat_days WHERE business_id = ${business.id} AND day >= ${period.from} AND day <= ${period.to} AND currency = ${cur}
        GROUP BY type, category, rate`,
    ),
    rows<{ n: number | null }>(
      q,
      sql`SELECT sum(vat_documents) AS n FROM report_fx_days
        WHERE business_id = ${business.id} AND day >= ${period.from} AND day <= ${period.to} AND currency = ${cur}`,
    ),
  ])
  const scale = currencyScale(cur)
  const m = mergeBands(bandRows)
  return {
    currency: cur,
    net: amountOf(m.net, scale),
    vat: amountOf(m.vat, scale),
    documents: docs[0]?.n ?? 0,
    bands: m.bands.map(
      (b): VatBand => ({
        category: b.category,
        rate: b.rate,
        net: amountOf(b.net, scale),
        vat: amountOf(b.vat, scale),
      }),
    ),
  }
}

/**
 * Bands summed per (category, rate), Credit Notes subtracted, in minor units; a band is listed while any document
 * holds it in the period (its count above zero); highest rate first.
 */
function mergeBands(bandRows: BandRow[]) {
  // Rates are stored with two decimals; two spellings of one rate would still make one band.
  const merged = new Map<string, { category: string; rate: string; bands: number; net: bigint; vat: bigint }>()
  for (const b of bandRows) {
    const rate = stored(b.rate).toFixed(2)
    const key = `${b.category}|${rate}`
    const m = merged.get(key) ?? merged.set(key, { category: b.category, rate, bands: 0, net: 0n, vat: 0n }).get(key)!
    const sign = b.type === 'credit_note' ? -1n : 1n
    m.bands += b.bands
    m.net += sign * joinSplit(b.net_hi, b.net_lo)
    m.vat += sign * joinSplit(b.vat_hi, b.vat_lo)
  }
  const bands = [...merged.values()]
    .filter((b) => b.bands > 0)
    .map((b) => ({
      category: b.category,
      rate: b.rate,
      net: new Dec(b.net.toString()),
      vat: new Dec(b.vat.toString()),
    }))
    .sort(compareBands)
  const net = bands.reduce((s: Decimal, b) => s.plus(b.net), new Dec('0'))
  const vat = bands.reduce((s: Decimal, b) => s.plus(b.vat), new Dec('0'))
  return { bands, net, vat }
}
