// What counts as paid, in one place: which Payments count on a document, its amount due, and the status they give it.
//
// Only completed Payments count (a voided one never does); an Invoice converted from a Proforma counts the
// Proforma's Payments too. A Credit Note is no Payment: it settles nothing on the Invoice it credits. A document is
// paid when something was paid and it reaches the Total (a zero Total stays issued), partially paid when something
// was paid short of it; a Draft and a cancelled document keep their status whatever was paid.
import { sql } from 'drizzle-orm'
import type { DocumentStatus } from '../../db/schema'
import { Dec, stored, type Decimal } from '../../shared/money'

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
    doc.status === 'draft' || doc.status === 'cancelled' ? doc.status : inFull ? 'paid' : something ? 'partially_paid' : 'issued'
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

/** The same condition on a payments row in SQL (`alias`: the query's name for the payments table, if any). */
export function countedPaymentSql(alias?: string) {
  return sql.raw(`${alias ? `${alias}.` : ''}status = '${COUNTED_PAYMENT_STATUS}'`)
}

/** The same amount due in SQL over the documents table's exact minor-unit columns, for the reports. */
export const DUE_MINOR_SQL = sql.raw('(total_minor - paid_minor)')
