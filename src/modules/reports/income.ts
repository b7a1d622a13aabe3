// Income report: net of the Reportable documents issued in a period, in the reporting currency, with VAT beside it.
//
// Rules followed (the contract's "Report semantics", and where it leaves room, the choice made here):
// - Reportable documents: issued Invoices, Credit Notes and Proforma Invoices never converted, whose status is
//   issued, partially_paid or paid. Drafts, cancelled documents and Quotes count nowhere.
// - A period holds a document when its issue date lies in [from, to], both days included.
// - An Invoice adds its net, a Credit Note (positive on the document) subtracts its net.
// - A converted Proforma counts once, as its Invoice (issued on the day of conversion): the Proforma itself is
//   left out, whether or not the Invoice still stands.
// - A standalone Proforma adds only its paid share of net: net × paid ÷ total, rounded half away from zero at the
//   currency scale, where paid is its completed Payments as they stand now (the amount_paid the document answers;
//   voided, pending and failed Payments never count), counted in the period of the Proforma's issue date, not of
//   the Payments' dates. Fully paid: its whole net; unpaid: nothing. It carries no VAT.
// - `vat` is the VAT of the Invoices less that of the Credit Notes: the VAT report's `vat` for the same period.
// - Documents in another currency than the Business's are counted in other_currency_documents (each Reportable
//   document once, a standalone Proforma whether paid or not) and summed into neither figure.
// - `converted` (extensions §16): those of them issued with an exchange rate into the Business's currency, each at
//   its own rate fixed at issue, by the same rules: an Invoice adds its net × rate, a Credit Note subtracts it, a
//   standalone Proforma adds its paid share of that converted net (net × rate × paid ÷ total, rounded half away from
//   zero once); `vat` is the Invoices' VAT × rate less the Credit Notes'. Documents issued before rates existed carry
//   none and are only counted in other_currency_documents.
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { currencyScale } from '../../shared/currencies'
import { Dec } from '../../shared/money'
import { paidShareMinor, paidShareOutOfSql, SQL_SHARE_LIMIT } from '../documents'
import type { IncomeReport } from './reports.model'
import type { Period } from './period'
import { amountOf, rows, splitSum, STANDING } from './sums'

/** The Reportable documents of a Business issued in the period (any currency). */
function reportable(businessId: number, p: Period) {
  return sql`business_id = ${businessId} AND issue_date >= ${p.from} AND issue_date <= ${p.to} AND status IN ${STANDING}
    AND (type IN ('invoice', 'credit_note') OR (type = 'proforma' AND converted_into_id IS NULL))`
}

// The paid share that the triggers of report_days (migrations/0010_report_sums.sql) leave out: a partly paid
// standalone Proforma whose total is too large for SQLite to take its share exactly (documents/paid.ts says which).
const PROFORMA_LARGE = sql.raw(paidShareOutOfSql())

interface Row {
  /** 0: a row of report_days (the Business's currency, or the others); 1: the one row of report_fx_days. */
  fx: number
  home: number
  documents: number | null
  income_hi: string
  income_lo: string
  vat_hi: string
  vat_lo: string
  large: number | null
}

/**
 * Reads the running sums of report_days (one row per issue day and currency, kept by triggers on every document
 * write): a year is a few hundred rows whatever the number of documents. The few Proformas whose paid share SQL
 * cannot take exactly are read from their own days and computed here in big.js. The converted block's sums come in
 * the same statement (UNION ALL, its columns named by the first SELECT's): the dashboard asks this of fourteen
 * periods, and a statement of its own for each was 14 more prepared and stepped statements per dashboard.
 */
export async function incomeReport(
  q: Queryable,
  business: { id: number; currency: string },
  period: Period,
): Promise<IncomeReport> {
  const cur = business.currency
  const sums = await rows<Row>(
    q,
    sql`SELECT 0 AS fx, currency = ${cur} AS home, sum(documents) AS documents, ${splitSum('income')}, ${splitSum('vat')}, sum(large) AS large
      FROM report_days WHERE business_id = ${business.id} AND day >= ${period.from} AND day <= ${period.to}
      GROUP BY currency = ${cur}
      UNION ALL
      SELECT 1, 1, sum(documents), ${splitSum('net')}, ${splitSum('vat')}, sum(large)
      FROM report_fx_days WHERE business_id = ${business.id} AND day >= ${period.from} AND day <= ${period.to} AND currency = ${cur}`,
  )
  const home = sums.find((r) => r.fx === 0 && r.home === 1)
  const other = sums.filter((r) => r.fx === 0 && r.home !== 1).reduce((n, r) => n + (r.documents ?? 0), 0)
  let income = new Dec(joinSplit(home?.income_hi, home?.income_lo).toString())
  if ((home?.large ?? 0) > 0) {
    const big = await rows<{ net: string; paid: string; total: string }>(
      q,
      sql`SELECT CAST(net_minor AS TEXT) AS net, CAST(paid_minor AS TEXT) AS paid, CAST(total_minor AS TEXT) AS total
        FROM documents WHERE ${reportable(business.id, period)} AND currency = ${cur} AND type = 'proforma' AND ${PROFORMA_LARGE}
          AND issue_date IN (SELECT day FROM report_days WHERE business_id = ${business.id} AND day >= ${period.from} AND day <= ${period.to}
            AND currency = ${cur} AND large > 0)`,
    )
    for (const d of big) income = income.plus(paidShareMinor(new Dec(d.net), new Dec(d.paid), new Dec(d.total)))
  }
  const scale = currencyScale(cur)
  const fx = sums.find((r) => r.fx === 1)
  return {
    currency: cur,
    from: period.from,
    to: period.to,
    income: amountOf(income, scale),
    vat: amountOf(new Dec(joinSplit(home?.vat_hi, home?.vat_lo).toString()), scale),
    other_currency_documents: other,
    converted: await convertedIncome(q, business, period, {
      documents: fx?.documents ?? null,
      net_hi: fx?.income_hi ?? '0',
      net_lo: fx?.income_lo ?? '0',
      vat_hi: fx?.vat_hi ?? '0',
      vat_lo: fx?.vat_lo ?? '0',
      large: fx?.large ?? null,
    }),
  }
}

interface FxRow {
  documents: number | null
  net_hi: string
  net_lo: string
  vat_hi: string
  vat_lo: string
  large: number | null
}

/**
 * The `converted` block from the running sums of report_fx_days (kept by the triggers of
 * migrations/0023_exchange_rates.sql) for the Business's currency, read by incomeReport's statement; the few partly
 * paid Proformas whose converted share SQL cannot take exactly are read from their own days and computed here in
 * big.js, as above.
 */
async function convertedIncome(q: Queryable, business: { id: number; currency: string }, period: Period, sums: FxRow) {
  const cur = business.currency
  let net = new Dec(joinSplit(sums.net_hi, sums.net_lo).toString())
  if ((sums.large ?? 0) > 0) {
    const big = await rows<{ net: string; paid: string; total: string }>(
      q,
      sql`SELECT CAST(net_accounting_minor AS TEXT) AS net, CAST(paid_minor AS TEXT) AS paid, CAST(total_minor AS TEXT) AS total
        FROM documents WHERE ${reportable(business.id, period)} AND accounting_currency = ${cur} AND type = 'proforma'
          AND paid_minor > 0 AND paid_minor < total_minor AND (total_minor > ${SQL_SHARE_LIMIT} OR net_accounting_minor > ${SQL_SHARE_LIMIT})`,
    )
    for (const d of big) net = net.plus(paidShareMinor(new Dec(d.net), new Dec(d.paid), new Dec(d.total)))
  }
  const scale = currencyScale(cur)
  return {
    currency: cur,
    net: amountOf(net, scale),
    vat: amountOf(new Dec(joinSplit(sums.vat_hi, sums.vat_lo).toString()), scale),
    documents: sums.documents ?? 0,
  }
}

/** hi · 10^9 + lo, exactly. */
export function joinSplit(hi: string | null | undefined, lo: string | null | undefined): bigint {
  return BigInt(hi ?? '0') * 1_000_000_000n + BigInt(lo ?? '0')
}
