// Client statement: per currency, the balance brought forward, every document and Payment of the period by date
// with a running balance, and the balance on the last day.
//
// Rules followed:
// - Documents on the statement are those the income report counts, for this Client: Invoices, Credit Notes and
//   Proforma Invoices never converted, with status issued, partially_paid or paid, each on its issue date with
//   its Total (VAT included). An Invoice or Proforma is a debit; a Credit Note (positive on the document) a credit.
// - Drafts and Quotes are left out: nothing is owed on them. Cancelled documents are left out too, in every
//   period, as if never issued: a document is cancelled only while it holds no Payment, so nothing it took
//   stands, and a statement shows what the Client owes, not the history of the numbering.
// - A converted Proforma counts once, as its Invoice: the Proforma gets no line; its Payments stay on their own
//   payment dates marked `prepaid`, and the Invoice's debit on its issue date (the conversion) takes them up.
//   So Payments before the conversion show as money the Business holds (a negative balance) until then.
// - Payments: completed ones only (voided, pending, failed never), on their payment date, whichever document
//   they settle, when that document is an Invoice or Proforma of this Client that is neither a Draft nor
//   cancelled. Each is a credit of its amount.
// - opening_balance: debits less credits dated before `from` (the balance the day before); closing_balance:
//   the opening balance and every line of [from, to]. Both days of the period are included.
// - Refunds (extensions §20): completed ones only, on their refund date, of this Client's standing Credit Notes.
//   Each is a debit of its amount: the balance the Business owed the Client goes back towards zero.
// - Lines are ordered by date; on one day documents come before Payments, Payments before Refunds, each kind in the
//   order recorded (id).
// - One block per currency with a line in the period or a non-zero opening balance; blocks ordered by the
//   number of document lines in the period, most first, then by currency code.
// - number: the document number, or the Payment's reference, "-" when it has none. description: a document's
//   one Line's description, or "N lines"; a Payment's method as the API writes it (e.g. bank_transfer).
import { sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { NotFound } from '../../shared/errors'
import { currencyScale } from '../../shared/currencies'
import { Dec, type Decimal } from '../../shared/money'
import { findClient } from '../clients'
import { countedPaymentSql } from '../documents'
import type { Period } from './period'
import type { Statement, StatementCurrency, StatementLine } from './reports.model'
import { amountOf, minorOf, rows, STANDING, sumMinor, withExactSums } from './sums'

interface DocRow {
  id: number
  type: string
  number: string | null
  date: string
  currency: string
  total: string
  line_count: number
  first_line: string | null
}

interface PaymentRow {
  id: number
  date: string
  reference: string | null
  method: string
  currency: string
  amount: string
  prepaid: number
}

interface Entry {
  date: string
  order: number
  id: number
  currency: string
  /** Signed: a debit adds, a credit subtracts. */
  minor: Decimal
  line: Omit<StatementLine, 'debit' | 'credit' | 'balance'>
}

export async function clientStatement(
  q: Queryable,
  businessId: number,
  clientId: number,
  period: Period,
): Promise<Statement> {
  if (!(await findClient(q, businessId, clientId))) throw new NotFound('No such Client.')
  const docs = sql`d.business_id = ${businessId} AND d.client_id = ${clientId} AND d.status IN ${STANDING}
    AND (d.type IN ('invoice', 'credit_note') OR (d.type = 'proforma' AND d.converted_into_id IS NULL))`
  // Payments are reached through the Client's documents (a Payment is its document's Business's), with the
  // documents as the outer loop (CROSS JOIN fixes the order in SQLite): the planner would otherwise walk the
  // Business's Payments by date, every Client's.
  const pays = sql`${countedPaymentSql('p')} AND d.business_id = ${businessId} AND d.client_id = ${clientId}
    AND d.status IN ${STANDING} AND d.type IN ('invoice', 'proforma')`
  const refunds = sql`r.status = 'completed' AND d.business_id = ${businessId} AND d.client_id = ${clientId}
    AND d.status IN ${STANDING} AND d.type = 'credit_note'`

  const [openDocs, openPays, openRefunds] = await withExactSums((split) =>
    Promise.all([
      rows<{ currency: string; minor: string }>(
        q,
        sql`SELECT d.currency AS currency, ${sumMinor(sql`CASE d.type WHEN 'credit_note' THEN -d.total_minor ELSE d.total_minor END`, split)} AS minor
          FROM documents d WHERE ${docs} AND d.issue_date < ${period.from} GROUP BY d.currency`,
      ),
      rows<{ currency: string; minor: string }>(
        q,
        sql`SELECT d.currency AS currency, ${sumMinor(sql`p.amount_minor`, split)} AS minor
          FROM documents d CROSS JOIN payments p ON p.document_id = d.id
          WHERE ${pays} AND p.payment_date < ${period.from} GROUP BY d.currency`,
      ),
      rows<{ currency: string; minor: string }>(
        q,
        sql`SELECT d.currency AS currency, ${sumMinor(sql`r.amount_minor`, split)} AS minor
          FROM documents d CROSS JOIN refunds r ON r.document_id = d.id
          WHERE ${refunds} AND r.refund_date < ${period.from} GROUP BY d.currency`,
      ),
    ]),
  )
  const [periodDocs, periodPays, periodRefunds] = await Promise.all([
    rows<DocRow>(
      q,
      sql`SELECT d.id AS id, d.type AS type, d.document_number AS number, d.issue_date AS date, d.currency AS currency,
          CAST(d.total_minor AS TEXT) AS total,
          (SELECT count(*) FROM document_lines l WHERE l.document_id = d.id) AS line_count,
          (SELECT l.description FROM document_lines l WHERE l.document_id = d.id ORDER BY l.position LIMIT 1) AS first_line
        FROM documents d WHERE ${docs} AND d.issue_date >= ${period.from} AND d.issue_date <= ${period.to}`,
    ),
    rows<PaymentRow>(
      q,
      sql`SELECT p.id AS id, p.payment_date AS date, p.reference AS reference, p.payment_method AS method, d.currency AS currency,
          CAST(p.amount_minor AS TEXT) AS amount, (d.type = 'proforma' AND d.converted_into_id IS NOT NULL) AS prepaid
        FROM documents d CROSS JOIN payments p ON p.document_id = d.id
        WHERE ${pays} AND p.payment_date >= ${period.from} AND p.payment_date <= ${period.to}`,
    ),
    rows<Omit<PaymentRow, 'prepaid'>>(
      q,
      sql`SELECT r.id AS id, r.refund_date AS date, r.reference AS reference, r.method AS method, d.currency AS currency,
          CAST(r.amount_minor AS TEXT) AS amount
        FROM documents d CROSS JOIN refunds r ON r.document_id = d.id
        WHERE ${refunds} AND r.refund_date >= ${period.from} AND r.refund_date <= ${period.to}`,
    ),
  ])

  const opening = new Map<string, Decimal>()
  for (const r of openDocs) opening.set(r.currency, (opening.get(r.currency) ?? new Dec('0')).plus(minorOf(r.minor)))
  for (const r of openPays) opening.set(r.currency, (opening.get(r.currency) ?? new Dec('0')).minus(minorOf(r.minor)))
  for (const r of openRefunds) opening.set(r.currency, (opening.get(r.currency) ?? new Dec('0')).plus(minorOf(r.minor)))

  const entries: Entry[] = [
    ...periodDocs.map((d): Entry => {
      const credit = d.type === 'credit_note'
      const total = new Dec(d.total)
      return {
        date: d.date,
        order: 0,
        id: d.id,
        currency: d.currency,
        minor: credit ? total.neg() : total,
        line: {
          date: d.date,
          kind: 'document',
          document_type: d.type,
          number: d.number ?? '-',
          description: d.line_count === 1 ? (d.first_line ?? '') : `${d.line_count} lines`,
          prepaid: false,
        },
      }
    }),
    ...periodPays.map(
      (p): Entry => ({
        date: p.date,
        order: 1,
        id: p.id,
        currency: p.currency,
        minor: new Dec(p.amount).neg(),
        line: {
          date: p.date,
          kind: 'payment',
          document_type: null,
          number: p.reference?.trim() || '-',
          description: p.method,
          prepaid: p.prepaid === 1,
        },
      }),
    ),
    ...periodRefunds.map(
      (r): Entry => ({
        date: r.date,
        order: 2,
        id: r.id,
        currency: r.currency,
        minor: new Dec(r.amount),
        line: {
          date: r.date,
          kind: 'refund',
          document_type: null,
          number: r.reference?.trim() || '-',
          description: r.method,
          prepaid: false,
        },
      }),
    ),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.order - b.order || a.id - b.id))

  const currencies = new Set<string>(entries.map((e) => e.currency))
  for (const [cur, bal] of opening) if (!bal.eq('0')) currencies.add(cur)

  const blocks: { documents: number; block: StatementCurrency }[] = []
  for (const cur of currencies) {
    const scale = currencyScale(cur)
    const open = opening.get(cur) ?? new Dec('0')
    let balance = open
    const lines: StatementLine[] = []
    for (const e of entries) {
      if (e.currency !== cur) continue
      balance = balance.plus(e.minor)
      const amount = amountOf(e.minor.abs(), scale)
      const isCredit = e.line.kind === 'payment' || e.line.document_type === 'credit_note'
      lines.push({
        ...e.line,
        debit: isCredit ? null : amount,
        credit: isCredit ? amount : null,
        balance: amountOf(balance, scale),
      })
    }
    blocks.push({
      documents: lines.filter((l) => l.kind === 'document').length,
      block: {
        currency: cur,
        opening_balance: amountOf(open, scale),
        closing_balance: amountOf(balance, scale),
        lines,
      },
    })
  }
  blocks.sort((a, b) => b.documents - a.documents || (a.block.currency < b.block.currency ? -1 : 1))
  return { client_id: clientId, from: period.from, to: period.to, currencies: blocks.map((b) => b.block) }
}
