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
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { currencyScale } from '../../shared/currencies'
import { Dec, round, type Decimal } from '../../shared/money'
import type { IncomeReport } from './reports.model'
import type { Period } from './period'
import { amountOf, minorOf, rows, STANDING, sumMinor, withExactSums } from './sums'

/** Largest total (in minor units) whose paid share SQLite computes exactly: 2 × net × paid stays below 2^63. */
const SQL_SHARE_LIMIT = 2_000_000_000

/** The Reportable documents of a Business issued in the period (any currency). */
export function reportable(businessId: number, p: Period) {
  return sql`business_id = ${businessId} AND issue_date >= ${p.from} AND issue_date <= ${p.to} AND status IN ${STANDING}
    AND (type IN ('invoice', 'credit_note') OR (type = 'proforma' AND converted_into_id IS NULL))`
}

// A partly paid standalone Proforma small enough: floor((2·net·paid + total) / (2·total)) is net·paid/total rounded
// half up, which for these positive amounts is half away from zero. Larger ones are left NULL and computed in big.js.
const PROFORMA_SHARE = sql.raw(`CASE
    WHEN paid_minor <= 0 THEN 0
    WHEN paid_minor >= total_minor THEN net_minor
    WHEN total_minor <= ${SQL_SHARE_LIMIT} THEN (2 * net_minor * paid_minor + total_minor) / (2 * total_minor)
  END`)
const PROFORMA_LARGE = sql.raw(`(paid_minor > 0 AND paid_minor < total_minor AND total_minor > ${SQL_SHARE_LIMIT})`)

/** net × paid ÷ total in minor units, rounded half away from zero to a whole minor unit. */
export function paidShare(netMinor: Decimal, paidMinor: Decimal, totalMinor: Decimal): Decimal {
  if (paidMinor.lte('0')) return new Dec('0')
  if (paidMinor.gte(totalMinor)) return netMinor
  return round(netMinor.times(paidMinor).div(totalMinor), 0)
}

interface Row {
  other: number | null
  income: string
  vat: string
  large: number | null
}

export async function incomeReport(q: Queryable, business: { id: number; currency: string }, period: Period): Promise<IncomeReport> {
  const cur = business.currency
  const where = reportable(business.id, period)
  // One pass over the covering index documents_issue_date, no GROUP BY: SQLite sorts every row it groups, and
  // conditional sums over the single row the period gives cost a fraction of that.
  const [row] = await withExactSums((split) =>
    rows<Row>(
      q,
      sql`SELECT sum(currency <> ${cur}) AS other,
          ${sumMinor(
            sql`CASE WHEN currency <> ${cur} THEN 0 WHEN type = 'invoice' THEN net_minor WHEN type = 'credit_note' THEN -net_minor ELSE ${PROFORMA_SHARE} END`,
            split,
          )} AS income,
          ${sumMinor(sql`CASE WHEN currency <> ${cur} THEN 0 WHEN type = 'invoice' THEN vat_minor WHEN type = 'credit_note' THEN -vat_minor ELSE 0 END`, split)} AS vat,
          sum(currency = ${cur} AND type = 'proforma' AND ${PROFORMA_LARGE}) AS large
        FROM documents WHERE ${where}`,
    ),
  )
  let income = minorOf(row?.income)
  if ((row?.large ?? 0) > 0) {
    const big = await rows<{ net: string; paid: string; total: string }>(
      q,
      sql`SELECT CAST(net_minor AS TEXT) AS net, CAST(paid_minor AS TEXT) AS paid, CAST(total_minor AS TEXT) AS total
        FROM documents WHERE ${where} AND currency = ${cur} AND type = 'proforma' AND ${PROFORMA_LARGE}`,
    )
    for (const d of big) income = income.plus(paidShare(new Dec(d.net), new Dec(d.paid), new Dec(d.total)))
  }
  const scale = currencyScale(cur)
  return {
    currency: cur,
    from: period.from,
    to: period.to,
    income: amountOf(income, scale),
    vat: amountOf(minorOf(row?.vat), scale),
    other_currency_documents: row?.other ?? 0,
  }
}
