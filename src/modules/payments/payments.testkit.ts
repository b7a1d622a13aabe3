// Test kit of the payment tests: documents of one Line whose total is the amount paid against, and cash Payments
// recorded on them, made through the API as a caller would.
import type { Harness } from '../../../test/harness'

/** One Line of Work whose total is `amount` (VAT 0). */
export const workLine = (amount: string) => ({ description: 'Work', quantity: '1', unit_price: amount, vat_rate: '0' })

/** Where a document is made: with this key, for this Client, in its currency unless another is named. */
export interface WorkDocAt {
  key: string
  client: number
  currency?: string
  extra?: Record<string, unknown>
}

/** A Draft of the type with one Work Line whose total is `amount` (and whatever `at.extra` adds); fails the setup if refused. */
export async function workDraft(h: Harness, type: string, amount: string, at: WorkDocAt): Promise<any> {
  const body: Record<string, unknown> = { type, client_id: at.client, lines: [workLine(amount)], ...at.extra }
  if (at.currency) body.currency = at.currency
  const r = await h.request('POST', '/v1/documents', { key: at.key, body })
  if (r.status !== 201) throw new Error(`document refused: ${r.status} ${r.text}`)
  return r.body
}

/** The same Draft, issued. */
export async function workIssued(h: Harness, type: string, amount: string, at: WorkDocAt): Promise<any> {
  const d = await workDraft(h, type, amount, at)
  const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: at.key })
  if (r.status !== 200) throw new Error(`issue refused: ${r.status} ${r.text}`)
  return r.body
}

/** The body of a cash Payment dated 2026-03-09; `extra` sets or changes any field. */
export const cash = (amount: string, extra: Record<string, unknown> = {}) => ({
  amount,
  payment_date: '2026-03-09',
  payment_method: 'cash',
  ...extra,
})

/** Records a cash Payment that must be accepted, and answers it. */
export async function paidIn(
  h: Harness,
  key: string,
  docId: number,
  amount: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const r = await h.request('POST', `/v1/documents/${docId}/payments`, { key, body: cash(amount, extra) })
  if (r.status !== 201) throw new Error(`payment refused: ${r.status} ${r.text}`)
  return r.body
}

/** Query strings the Payments and Receipts lists refuse 422 invalid_request, each with the parameter named. */
export const BAD_LIST_QUERIES = [
  ['document_id=abc', 'document_id'],
  ['document_id=x1', 'document_id'],
  ['document_id=0', 'document_id'],
  ['document_id=-3', 'document_id'],
  ['document_id=1.5', 'document_id'],
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  ['cursor=nonsense', 'cursor'],
  ['cursor=not-ours', 'cursor'],
] as const
