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
import { Dec } from '../../shared/money'
import type { OverdueReport } from './reports.model'
import { amountOf, minorOf, rows, sumMinor, withExactSums } from './sums'

interface Row {
  client_id: number
  home: number
  name: string | null
  n: number
  due: string
}

export async function overdueReport(q: Queryable, business: { id: number; currency: string }, today: string): Promise<OverdueReport> {
  const cur = business.currency
  // The partial covering index documents_open holds exactly the issued and partly paid documents: the scan never
  // meets a paid one. Grouped per Client first, the Client's name is then read once per Client, not per document.
  const groups = await withExactSums((split) =>
    rows<Row>(
      q,
      sql`SELECT g.client_id AS client_id, g.home AS home, c.name AS name, g.n AS n, g.due AS due
        FROM (
          SELECT d.client_id AS client_id, d.currency = ${cur} AS home, count(*) AS n, ${sumMinor(sql`d.total_minor - d.paid_minor`, split)} AS due
          FROM documents d
          WHERE d.business_id = ${business.id} AND d.status IN ('issued', 'partially_paid') AND d.due_date < ${today}
            AND (d.type = 'invoice' OR (d.type = 'proforma' AND d.converted_into_id IS NULL))
          GROUP BY d.client_id, home) g
        LEFT JOIN clients c ON c.id = g.client_id AND c.business_id = ${business.id}`,
    ),
  )

  const scale = currencyScale(cur)
  const clients = groups
    .filter((r) => r.home === 1)
    .map((r) => ({ id: r.client_id, name: r.name ?? '', n: r.n, due: minorOf(r.due) }))
    // Sums past 2^53 order exactly only as decimals, so the order is made here rather than in SQL.
    .sort((a, b) => b.due.cmp(a.due) || a.id - b.id)
  return {
    currency: cur,
    as_of: today,
    count: clients.reduce((s, c) => s + c.n, 0),
    amount_due: amountOf(clients.reduce((s, c) => s.plus(c.due), new Dec('0')), scale),
    clients: clients.map((c) => ({ client_id: c.id, name: c.name, documents: c.n, amount_due: amountOf(c.due, scale) })),
    other_currency_documents: groups.filter((r) => r.home !== 1).reduce((s, r) => s + r.n, 0),
  }
}
