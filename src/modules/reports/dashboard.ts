// The application's dashboard, built only from the reports' own functions: this month's and this year's Income and
// reported VAT exactly as the income report answers them, the overdue total with the oldest overdue documents, and
// income by month for the last twelve months. Other-currency documents are counted beside, never summed in.
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { incomeReport } from './income'
import { overdueReport } from './overdue'
import type { IncomeReport, OverdueReport } from './reports.model'
import { amountOf, rows } from './sums'
import { currencyScale } from '../../shared/currencies'
import { Dec } from '../../shared/money'
import { DUE_MINOR_SQL } from '../documents'

/** The last day of a YYYY-MM month. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)
}

/** The `n` months ending with the month of `today`, oldest first, as YYYY-MM. */
export function lastMonths(today: string, n: number): string[] {
  const y = Number(today.slice(0, 4))
  const m = Number(today.slice(5, 7)) - 1
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.UTC(y, m - (n - 1 - i), 1))
    return at.toISOString().slice(0, 7)
  })
}

export interface OverdueDocument {
  id: number
  type: string
  document_number: string | null
  client_id: number
  client_name: string
  currency: string
  due_date: string
  days_overdue: number
  /** Total less paid, at the document's currency scale. */
  amount_due: string
}

export interface Dashboard {
  today: string
  currency: string
  month: IncomeReport
  year: IncomeReport
  overdue: OverdueReport
  /** The oldest overdue documents (any currency, each shown in its own), oldest due date first. */
  oldestOverdue: OverdueDocument[]
  /** Income of each of the last twelve months, oldest first, as the income report answers each month. */
  months: (IncomeReport & { month: string })[]
}

const DAY_MS = 86_400_000

/**
 * The few oldest overdue documents: read per open status along the partial index documents_open (due date order),
 * so however many are overdue only `limit` rows of each status are read.
 */
export async function oldestOverdue(
  q: Queryable,
  businessId: number,
  today: string,
  limit = 5,
): Promise<OverdueDocument[]> {
  const perStatus = (status: string) =>
    rows<{
      id: number
      type: string
      document_number: string | null
      client_id: number
      client_snapshot: string | null
      currency: string
      due_date: string
      due: string
    }>(
      q,
      sql`SELECT id, type, document_number, client_id, client_snapshot, currency, due_date, CAST(${DUE_MINOR_SQL} AS TEXT) AS due
        FROM documents
        WHERE business_id = ${businessId} AND status = ${status} AND due_date < ${today}
          AND (type = 'invoice' OR (type = 'proforma' AND converted_into_id IS NULL))
        ORDER BY due_date, id LIMIT ${limit}`,
    )
  const [a, b] = await Promise.all([perStatus('issued'), perStatus('partially_paid')])
  return [...a, ...b]
    .sort((x, y) => (x.due_date < y.due_date ? -1 : x.due_date > y.due_date ? 1 : x.id - y.id))
    .slice(0, limit)
    .map((d) => ({
      id: d.id,
      type: d.type,
      document_number: d.document_number,
      client_id: d.client_id,
      client_name: d.client_snapshot ? ((JSON.parse(d.client_snapshot) as { name?: string }).name ?? '') : '',
      currency: d.currency,
      due_date: d.due_date,
      days_overdue: Math.round((Date.parse(today) - Date.parse(d.due_date)) / DAY_MS),
      amount_due: amountOf(new Dec(d.due), currencyScale(d.currency)),
    }))
}

export async function dashboard(
  q: Queryable,
  business: { id: number; currency: string },
  today: string,
): Promise<Dashboard> {
  const monthOf = today.slice(0, 7)
  const year = today.slice(0, 4)
  const months = lastMonths(today, 12)
  const [month, ofYear, overdue, oldest, byMonth] = await Promise.all([
    incomeReport(q, business, { from: `${monthOf}-01`, to: monthEnd(monthOf) }),
    incomeReport(q, business, { from: `${year}-01-01`, to: `${year}-12-31` }),
    overdueReport(q, business, today),
    oldestOverdue(q, business.id, today),
    Promise.all(
      months.map(async (m) => ({
        month: m,
        ...(await incomeReport(q, business, { from: `${m}-01`, to: monthEnd(m) })),
      })),
    ),
  ])
  return { today, currency: business.currency, month, year: ofYear, overdue, oldestOverdue: oldest, months: byMonth }
}
