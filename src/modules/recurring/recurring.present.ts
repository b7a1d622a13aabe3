// A recurring invoice as the API answers it (extensions §13).
import type { WrittenLine } from '../documents'
import type { RecurringRow } from './recurring.repo'

/** A Line as the template keeps it: a Draft's Line whole, the Product's values filled in. */
export type TemplateLine = WrittenLine

export interface RunError {
  type: string
  code: string | null
  message: string
}

export interface LastRun {
  date: string
  document_id: number | null
  error: RunError | null
}

export function presentRecurring(r: RecurringRow) {
  return {
    id: r.id,
    status: r.status,
    client_id: r.clientId,
    currency: r.currency,
    lines: JSON.parse(r.lines) as TemplateLine[],
    notes: r.notes,
    payment_terms: r.paymentTerms,
    bank_account_ids: JSON.parse(r.bankAccountIds) as number[],
    buyer_reference: r.buyerReference,
    order_reference: r.orderReference,
    frequency: r.frequency,
    interval: r.interval,
    start_date: r.startDate,
    end_date: r.endDate,
    count: r.count,
    action: r.action,
    next_date: r.status === 'ended' ? null : r.nextDate,
    documents_made: r.documentsMade,
    last_run: r.lastRun ? (JSON.parse(r.lastRun) as LastRun) : null,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  }
}

export type RecurringView = ReturnType<typeof presentRecurring>
