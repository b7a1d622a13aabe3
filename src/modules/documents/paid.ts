// What counts as paid, in one place: which Payments count on a document, its amount due, and the status they give it.
//
// Only completed Payments count (a voided one never does); an Invoice converted from a Proforma counts the
// Proforma's Payments too. A Credit Note is no Payment: it settles nothing on the Invoice it credits. A document is
// paid when something was paid and it reaches the Total (a zero Total stays issued), partially paid when something
// was paid short of it; a Draft and a cancelled document keep their status whatever was paid.
import { sql } from 'drizzle-orm'
import type { DocumentStatus } from '../../db/schema'
import { Dec, round, stored, type Decimal } from '../../shared/money'

export interface Paid {
  /** What the counted Payments add up to. */
  paid: Decimal
  /** Total less paid: negative when more was paid than the Total (an amended Total), never rounded. */
  due: Decimal
  /** The status the Payments give the document. */
  status: DocumentStatus
  /** Whether the Total is reached (with something paid): the document is paid, and a Receipt says "paid in full". */
  inFull: boolean
}

const ZERO = new Dec('0')

/** The one rule: what `paid` (the counted Payments, exact) makes of a document of this status and Total. */
export function paidState(doc: { status: DocumentStatus; total: string }, paid: Decimal): Paid {
  const total = stored(doc.total)
  const something = paid.gt(ZERO)
  const inFull = something && paid.gte(total)
  const status: DocumentStatus =
    doc.status === 'draft' || doc.status === 'cancelled'
      ? doc.status
      : inFull
        ? 'paid'
        : something
          ? 'partially_paid'
          : 'issued'
  return { paid, due: total.minus(paid), status, inFull }
}

/** The documents whose completed Payments count on this one: itself, and the Proforma a converted Invoice came from. */
export function countedDocumentIds(doc: { id: number; type: string; proformaId: number | null }): number[] {
  return doc.type === 'invoice' && doc.proformaId !== null ? [doc.id, doc.proformaId] : [doc.id]
}

/** A document's amount due as it stands (its stored amount paid, kept by settleDocument). */
export function amountDue(doc: { total: string; amountPaid: string }): Decimal {
  return stored(doc.total).minus(stored(doc.amountPaid))
}

/** Only completed Payments count (a voided one never does). */
export const COUNTED_PAYMENT_STATUS = 'completed'

/** Whether a Payment counts on its document (a reversed one does not, nor can it be amended or reversed again). */
export function paymentCounts(p: { status: string }): boolean {
  return p.status === COUNTED_PAYMENT_STATUS
}

/** The statuses a document can stand in with something still due: Payments left it unpaid or paid in part. */
export const OWING_STATUSES = ['issued', 'partially_paid'] as const satisfies readonly DocumentStatus[]

/** The same statuses as an SQL list, for the reports and the triggers that keep their sums. */
export const OWING_SQL = sql.raw(`(${OWING_STATUSES.map((s) => `'${s}'`).join(', ')})`)

/**
 * The share of a document's net its counted Payments have paid, in minor units (a standalone Proforma's income):
 * nothing while nothing is paid, the whole net once paid in full (paidState's `inFull`), else net × paid ÷ total
 * rounded half away from zero to a whole minor unit.
 */
export function paidShareMinor(netMinor: Decimal, paidMinor: Decimal, totalMinor: Decimal): Decimal {
  if (!paidMinor.gt(ZERO)) return ZERO
  if (paidMinor.gte(totalMinor)) return netMinor
  return round(netMinor.times(paidMinor).div(totalMinor), 0)
}

/** Largest total (in minor units) whose paid share SQLite computes exactly: 2 × net × paid stays below 2^63. */
export const SQL_SHARE_LIMIT = 2_000_000_000

/**
 * paidShareMinor in SQL over a documents row (`row`: NEW or OLD in a trigger, none for the table itself), exact for a
 * total up to SQL_SHARE_LIMIT and 0 beyond it (`paidShareOutOfSql` says which rows, whose share the reports compute
 * with paidShareMinor). The report triggers of migrations/0010_report_sums.sql hold this very expression, and
 * paid.triggers.test.ts holds them to it and to paidShareMinor. Half away from zero: floor((2·net·paid + total) /
 * (2·total)) for a share that is never negative.
 */
export function paidShareSql(row = ''): string {
  const c = (name: string) => (row ? `${row}.${name}` : name)
  const [net, paid, total] = [c('net_minor'), c('paid_minor'), c('total_minor')]
  return `(CASE WHEN ${paid} <= 0 THEN 0 WHEN ${paid} >= ${total} THEN ${net} WHEN ${total} <= ${SQL_SHARE_LIMIT} THEN (2 * ${net} * ${paid} + ${total}) / (2 * ${total}) ELSE 0 END)`
}

/** The rows paidShareSql leaves at 0 though something short of the total is paid: their total is past SQL_SHARE_LIMIT. */
export function paidShareOutOfSql(row = ''): string {
  const c = (name: string) => (row ? `${row}.${name}` : name)
  return `(${c('paid_minor')} > 0 AND ${c('paid_minor')} < ${c('total_minor')} AND ${c('total_minor')} > ${SQL_SHARE_LIMIT})`
}

/** The same condition on a payments row in SQL (`alias`: the query's name for the payments table, if any). */
export function countedPaymentSql(alias?: string) {
  return sql.raw(`${alias ? `${alias}.` : ''}status = '${COUNTED_PAYMENT_STATUS}'`)
}

/** The same amount due in SQL over a documents row's exact minor-unit columns (`row`: NEW or OLD in a trigger). */
export function dueMinorSql(row = ''): string {
  return row ? `(${row}.total_minor - ${row}.paid_minor)` : '(total_minor - paid_minor)'
}

/** The amount due over the documents table, for the reports. */
export const DUE_MINOR_SQL = sql.raw(dueMinorSql())

/**
 * Whether a document has an amount its Client owes: an Invoice or Proforma Invoice not cancelled. A Quote owes
 * nothing, a Credit Note is owed to the Client (its refunds say how much went back), a cancelled document is void.
 */
export function owesAmount(d: { type: string; status: string }): boolean {
  return (d.type === 'invoice' || d.type === 'proforma') && d.status !== 'cancelled'
}

/** Whether a document has a due date to show (the PDF and the pages alike): a Credit Note has none, it is owed. */
export function showsDueDate(type: string): boolean {
  return type !== 'credit_note'
}
