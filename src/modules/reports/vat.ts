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
import { categoryRank } from '../documents'
import { sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { currencyScale } from '../../shared/currencies'
import { Dec, stored, type Decimal } from '../../shared/money'
import type { Period } from './period'
import type { VatBand, VatReport } from './reports.model'
import { amountOf, minorBigInt, rows, STANDING, sumMinor, withExactSums } from './sums'

/** Highest rate first; at one rate, the categories in their usual order, then any other alphabetically. */
export function compareBands(a: { category: string; rate: string }, b: { category: string; rate: string }): number {
  return stored(b.rate).cmp(stored(a.rate)) || categoryRank(a.category) - categoryRank(b.category) || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0)
}

interface DayRow {
  invoices: string | null
  credit_notes: string | null
  other: number
}

/**
 * The period is read one issue day at a time: SQLite has no hash aggregation, so a GROUP BY sorts every band
 * row it meets; per day it sorts a few hundred, and the day's documents are found by index seeks on status,
 * type and currency (documents_issue_date) rather than filtered out of a range. Invoices and Credit Notes are
 * grouped apart, so no row carries a sign to compute; the Credit Notes' sums are subtracted here. Days are
 * enumerated by a skip-scan (the next issue date after the last), so a long period with few documents costs
 * what its documents cost. SQL sums each day's bands; the few partial sums per day are added up here, exactly.
 */
export async function vatReport(q: Queryable, business: { id: number; currency: string }, period: Period): Promise<VatReport> {
  const cur = business.currency
  const id = business.id
  const ofTheDay = (type: SQL) => sql`d.business_id = ${id} AND d.issue_date = days.day AND d.status IN ${STANDING} AND ${type}`
  const bandsOf = (type: string, split: boolean) => sql`(SELECT json_group_array(json_array(category, rate, net, vat)) FROM (
      SELECT b.category AS category, b.rate AS rate, ${sumMinor(sql`b.net_minor`, split)} AS net, ${sumMinor(sql`b.vat_minor`, split)} AS vat
      FROM documents d CROSS JOIN document_vat_bands b ON b.document_id = d.id
      WHERE ${ofTheDay(sql`d.type = ${type}`)} AND d.currency = ${cur}
      GROUP BY b.category, b.rate))`
  const both = sql`d.type IN ('invoice', 'credit_note')`
  const days = await withExactSums((split) =>
    rows<DayRow>(
      q,
      sql`WITH RECURSIVE days(day) AS (
          SELECT min(issue_date) FROM documents WHERE business_id = ${id} AND issue_date >= ${period.from} AND issue_date <= ${period.to}
          UNION ALL
          SELECT (SELECT min(issue_date) FROM documents WHERE business_id = ${id} AND issue_date > days.day AND issue_date <= ${period.to})
          FROM days WHERE day IS NOT NULL)
        SELECT ${bandsOf('invoice', split)} AS invoices, ${bandsOf('credit_note', split)} AS credit_notes,
          -- Two ranges rather than <>: seeks to the other currencies instead of reading the day's every document.
          (SELECT count(*) FROM documents d WHERE ${ofTheDay(both)} AND d.currency < ${cur})
            + (SELECT count(*) FROM documents d WHERE ${ofTheDay(both)} AND d.currency > ${cur}) AS other
        FROM days WHERE day IS NOT NULL`,
    ),
  )

  const scale = currencyScale(cur)
  // Partial sums added as BigInt (exact, and cheap for a few per day), per band as stored first.
  const byStored = new Map<string, { category: string; rate: string; net: bigint; vat: bigint }>()
  const add = (json: string | null, sign: bigint) => {
    for (const [category, rate, net, vat] of JSON.parse(json ?? '[]') as [string, string, string, string][]) {
      const key = `${category}|${rate}`
      const m = byStored.get(key) ?? byStored.set(key, { category, rate, net: 0n, vat: 0n }).get(key)!
      m.net += sign * minorBigInt(net)
      m.vat += sign * minorBigInt(vat)
    }
  }
  let other = 0
  for (const day of days) {
    other += day.other
    add(day.invoices, 1n)
    add(day.credit_notes, -1n)
  }
  // Rates are stored with two decimals; two spellings of one rate would still make one band.
  const merged = new Map<string, { category: string; rate: string; net: Decimal; vat: Decimal }>()
  for (const b of byStored.values()) {
    const rate = stored(b.rate).toFixed(2)
    const key = `${b.category}|${rate}`
    const m = merged.get(key) ?? { category: b.category, rate, net: new Dec('0'), vat: new Dec('0') }
    m.net = m.net.plus(new Dec(b.net.toString()))
    m.vat = m.vat.plus(new Dec(b.vat.toString()))
    merged.set(key, m)
  }
  const sorted = [...merged.values()].sort(compareBands)
  const net = sorted.reduce((s, b) => s.plus(b.net), new Dec('0'))
  const vat = sorted.reduce((s, b) => s.plus(b.vat), new Dec('0'))
  return {
    currency: cur,
    from: period.from,
    to: period.to,
    net: amountOf(net, scale),
    vat: amountOf(vat, scale),
    bands: sorted.map((b): VatBand => ({ category: b.category, rate: b.rate, net: amountOf(b.net, scale), vat: amountOf(b.vat, scale) })),
    other_currency_documents: other,
  }
}
