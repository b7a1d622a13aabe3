// Refunds of Credit Notes (extensions §20): record and reverse, each in one transaction with the Credit Note's
// amount_refunded and its event; the Client's statement shows them as debits (reports/statement.ts).
import { actorRecord, type Actor } from '../../platform/actor'
import type { Queryable, Tx } from '../../db/client'
import { FieldErrorBag, NotFound, Refusal } from '../../shared/errors'
import { currencyScale } from '../../shared/currencies'
import { isDate } from '../../shared/dates'
import { format, fromMinor, parseDecimal, stored, toMinor } from '../../shared/money'
import { foreignBankAccountIds } from '../business'
import { findDocument, writeAmountRefunded, type DocumentRow } from '../documents'
import { raiseEvent } from '../webhooks'
import type { PaymentDeps } from './payments.service'
import type { RefundInput } from './refunds.model'
import { addRefund, findRefund, refundedMinor, voidRefund, type RefundRow } from './refunds.repo'

export type RefundView = ReturnType<typeof presentRefund>

export function presentRefund(r: RefundRow) {
  return {
    id: r.id,
    document_id: r.documentId,
    amount: r.amount,
    currency: r.currency,
    refund_date: r.refundDate,
    method: r.method,
    bank_account_id: r.bankAccountId,
    reference: r.reference,
    notes: r.notes,
    status: r.status,
    created_at: r.createdAt,
  }
}

/** Why a document takes no Refund now, or null: only an issued (not cancelled) Credit Note does. */
export function refundRefusal(doc: Pick<DocumentRow, 'type' | 'status'>): Refusal | null {
  if (doc.type !== 'credit_note') return Refusal.say('not_a_credit_note')
  if (doc.status === 'draft') return Refusal.say('draft_takes_no_payments')
  if (doc.status === 'cancelled') return Refusal.say('cancelled_takes_no_payments')
  return null
}

/** Recomputes the Credit Note's amount_refunded from its completed Refunds, inside `tx`. */
async function settleRefunds(tx: Tx, doc: Pick<DocumentRow, 'id' | 'currency'>, at: string): Promise<void> {
  const scale = currencyScale(doc.currency)
  await writeAmountRefunded(tx, doc.id, format(fromMinor(await refundedMinor(tx, doc.id), scale), scale), at)
}

export async function recordRefund(deps: PaymentDeps, c: Actor, documentId: number, input: RefundInput) {
  const doc = await findDocument(deps.db.read, c.businessId, documentId)
  if (!doc) throw new NotFound('No such document.')
  // The body's own rules first (422 with every field), as a Payment's are.
  const scale = currencyScale(doc.currency)
  const bag = new FieldErrorBag()
  const amount = parseDecimal(input.amount, { maxDecimals: scale, min: 'positive' })
  if (!amount.ok) bag.add('amount', amount.message + (amount.message.includes('decimals') ? ` (${doc.currency})` : ''))
  if (!isDate(input.refund_date)) bag.add('refund_date', 'must be a real date written YYYY-MM-DD')
  let bankAccountId: number | null = null
  if (input.method === 'bank_transfer') {
    if (input.bank_account_id === undefined || input.bank_account_id === null)
      bag.add('bank_account_id', 'is required for a bank transfer')
    else if ((await foreignBankAccountIds(deps.db.read, c.businessId, [input.bank_account_id])).size > 0)
      bag.add('bank_account_id', "is not one of the Business's bank accounts")
    else bankAccountId = input.bank_account_id
  }
  bag.throwIfAny()
  const value = amount.ok ? amount.value : stored('0')
  const now = deps.clock.now().toISOString()
  const record = actorRecord(c)
  return deps.db.write(async (tx) => {
    const current = (await findDocument(tx, c.businessId, documentId))!
    const refusal = refundRefusal(current)
    if (refusal) throw refusal
    const left = stored(current.total).minus(stored(current.amountRefunded))
    if (value.gt(left))
      throw Refusal.say('refund_exceeds_credit', {
        amount: format(value, scale),
        left: format(left, scale),
        currency: current.currency,
      })
    const row = {
      businessId: c.businessId,
      documentId,
      status: 'completed',
      amount: format(value, scale),
      amountMinor: toMinor(value, scale),
      currency: current.currency,
      refundDate: input.refund_date,
      method: input.method,
      bankAccountId,
      reference: input.reference?.trim() || null,
      notes: input.notes?.trim() || null,
      recordedBy: record === null ? null : JSON.stringify(record),
      voidedAt: null,
      voidedBy: null,
      createdAt: now,
      updatedAt: now,
    }
    const id = await addRefund(tx, row)
    await settleRefunds(tx, current, now)
    await raiseEvent(tx, deps.clock, c.businessId, 'refund.recorded', id)
    return presentRefund({ ...row, id })
  })
}

export async function reverseRefund(deps: PaymentDeps, c: Actor, id: number) {
  if (!(await findRefund(deps.db.read, c.businessId, id))) throw new NotFound('No such Refund.')
  const now = deps.clock.now().toISOString()
  const record = actorRecord(c)
  return deps.db.write(async (tx) => {
    const current = (await findRefund(tx, c.businessId, id))!
    if (current.status !== 'completed') throw Refusal.say('refund_reversed')
    await voidRefund(tx, id, now, record === null ? null : JSON.stringify(record))
    await settleRefunds(tx, { id: current.documentId, currency: current.currency }, now)
    await raiseEvent(tx, deps.clock, c.businessId, 'refund.reversed', id)
    return presentRefund((await findRefund(tx, c.businessId, id))!)
  })
}

export async function getRefund(deps: Pick<PaymentDeps, 'db'>, c: Actor, id: number, q: Queryable = deps.db.read) {
  const r = await findRefund(q, c.businessId, id)
  if (!r) throw new NotFound('No such Refund.')
  return presentRefund(r)
}
