// Overdue report: issued Invoices and unconverted Proformas past their due date, as of today (UTC), by Client.
//
// Rules followed:
// - Overdue is the documents module's own rule (documents.present.ts `overdue()`), so the report and each
//   document's is_overdue agree: an Invoice, or a Proforma never converted, with status issued or
//   partially_paid, whose due date is before today. Today is the UTC day of the injected clock.
// - amount_due of a document is its Total less its completed Payments (an Invoice converted from a Proforma
//   counts the Proforma's too), the amount_due the document answers. An issued document whose Total is zero
//   is Overdue like any other (as its is_overdue says) and adds nothing to amount_due.
// - A Credit Note is never Overdue and reduces no one's amount_due: the contract lists only Invoices and
//   Proformas, and a Credit Note settles nothing on the Invoice it credits (that Invoice's amount_due stands,
//   as GET /v1/documents answers it). The Business corrects a credited Invoice by its own means.
// - Clients are listed by amount_due, largest first; equal amounts by Client id. `name` is the Client's name
//   as it now stands (the Client's record, not the snapshot on each document).
// - Overdue documents in another currency than the Business's are counted in other_currency_documents only.
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { currencyScale } from '../../shared/currencies'
import { formatMinor } from '../../shared/money'
import { DUE_MINOR_SQL, OWING_SQL } from '../documents'
import { joinSplit } from './income'
import type { OverdueReport } from './reports.model'
import { rows } from './sums'

interface Row {
  client_id: number
  currency: string
  n: number
  due_hi: string
  due_lo: string
}

// A document's amount due is the documents module's (what counts as paid); summed in two halves to stay exact.
const SPLIT_DUE = sql`CAST(sum(${DUE_MINOR_SQL} / 1000000000) AS TEXT) AS due_hi, CAST(sum(${DUE_MINOR_SQL} % 1000000000) AS TEXT) AS due_lo`

/**
 * Every document that can be Overdue is summed per Client and currency in report_open_clients (kept by triggers on
 * every document write); those not yet due (due today or later) are read from the partial index documents_open and
 * taken off. The cost follows the recent documents and the number of Clients, not the whole history.
 */
export async function overdueReport(
  q: Queryable,
  business: { id: number; currency: string },
  today: string,
): Promise<OverdueReport> {
  const cur = business.currency
  // Each query answers one row holding its rows as JSON: SQLite writes it in C and JSON.parse reads it natively, where
  // the driver would build an object per row (about 10 µs each; a thousand Clients are a thousand rows).
  const [[openJson], [laterJson]] = await Promise.all([
    rows<{ j: string | null }>(
      q,
      sql`SELECT json_group_array(json_array(client_id, currency, n, due_hi, due_lo, name)) AS j FROM (
        SELECT o.client_id AS client_id, o.currency AS currency, o.documents AS n, CAST(o.due_hi AS TEXT) AS due_hi, CAST(o.due_lo AS TEXT) AS due_lo, c.name AS name
        FROM report_open_clients o LEFT JOIN clients c ON c.id = o.client_id AND c.business_id = ${business.id}
        WHERE o.business_id = ${business.id} AND o.documents > 0)`,
    ),
    rows<{ j: string | null }>(
      q,
      sql`SELECT json_group_array(json_array(client_id, currency, n, due_hi, due_lo)) AS j FROM (
        SELECT client_id, currency, count(*) AS n, ${SPLIT_DUE}
        FROM documents
        WHERE business_id = ${business.id} AND status IN ${OWING_SQL} AND due_date >= ${today}
          AND (type = 'invoice' OR (type = 'proforma' AND converted_into_id IS NULL))
        GROUP BY client_id, currency)`,
    ),
  ])
  const parse = (j: string | null | undefined) =>
    (JSON.parse(j ?? '[]') as [number, string, number, string, string, string | null][]).map(
      ([client_id, currency, n, due_hi, due_lo, name]) => ({ client_id, currency, n, due_hi, due_lo, name }),
    )
  const open = parse(openJson?.j)
  const notYet = parse(laterJson?.j)
  const key = (r: Row) => `${r.client_id}|${r.currency}`
  const later = new Map(notYet.map((r) => [key(r), r]))
  const groups = open
    .map((r) => {
      const l = later.get(key(r))
      return {
        id: r.client_id,
        home: r.currency === cur,
        name: r.name ?? '',
        n: r.n - (l?.n ?? 0),
        due: joinSplit(r.due_hi, r.due_lo) - (l ? joinSplit(l.due_hi, l.due_lo) : 0n),
      }
    })
    .filter((g) => g.n > 0)

  const scale = currencyScale(cur)
  const clients = groups
    .filter((g) => g.home)
    // Sums past 2^53 order exactly only as whole numbers (bigint, not JS numbers), so the order is made here rather
    // than in SQL; compared, summed and written as bigint, a thousand Clients take no decimal arithmetic.
    .sort((a, b) => (a.due > b.due ? -1 : a.due < b.due ? 1 : a.id - b.id))
  return {
    currency: cur,
    as_of: today,
    count: clients.reduce((s, c) => s + c.n, 0),
    amount_due: formatMinor(
      clients.reduce((s, c) => s + c.due, 0n),
      scale,
    ),
    clients: clients.map((c) => ({
      client_id: c.id,
      name: c.name,
      documents: c.n,
      amount_due: formatMinor(c.due, scale),
    })),
    other_currency_documents: groups.filter((g) => !g.home).reduce((s, g) => s + g.n, 0),
  }
}
