// Payment use cases: record (with its Receipt), amend, reverse; each in one transaction with its events.
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, InvalidRequest, NotFound, Refusal } from '../../shared/errors'
import { currencyScale } from '../../shared/currencies'
import { isDate, utcDay } from '../../shared/dates'
import { Dec, format, parseDecimal, stored, type Decimal } from '../../shared/money'
import { foreignBankAccountIds, getBusiness, type Credential } from '../business'
import {
  amountDue,
  findDocument,
  gatherFacts,
  mailViaOf,
  receiptNumbering,
  refusalFor,
  settleDocument,
  takeNumber,
  takesPaymentsRefusal,
  throwRefusal,
  toMinor,
  type DocumentRow,
} from '../documents'
import { raiseEvent } from '../webhooks'
import type { AmendInput, RecordInput } from './payments.model'
import { presentPayment, type PaymentView } from './payments.present'
import { findPayment, insertPayment, insertReceipt, receiptOfPayment, touchReceipt, updatePaymentRow, type PaymentInsert } from './payments.repo'

export interface PaymentDeps {
  db: Database
  clock: Clock
  config: { mailRelay: string | null }
}

function actorOf(c: Credential): string {
  return JSON.stringify({ type: 'api_key', name: c.name })
}

interface CheckedFields {
  amount?: Decimal
  paymentDate?: string
  method?: string
  bankAccountId?: number | null
  currency?: string
}

/** The body's own rules (422 invalid_request), judged before the document is: amount digits by its currency. */
async function checkFields(db: Database, businessId: number, doc: DocumentRow, input: AmendInput, methodAfter: string | undefined, bankAfter: number | null | undefined): Promise<CheckedFields> {
  const bag = new FieldErrorBag()
  const out: CheckedFields = {}
  const scale = currencyScale(doc.currency)
  if (input.amount !== undefined) {
    const a = parseDecimal(input.amount, { maxDecimals: scale, min: 'positive' })
    if (!a.ok) bag.add('amount', a.message + (a.message.includes('decimals') ? ` (${doc.currency})` : ''))
    else out.amount = a.value
  }
  if (input.payment_date !== undefined) {
    if (!isDate(input.payment_date)) bag.add('payment_date', 'must be a real date written YYYY-MM-DD')
    else out.paymentDate = input.payment_date
  }
  if (input.currency !== undefined) {
    if (!/^[A-Z]{3}$/.test(input.currency)) bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
    else out.currency = input.currency
  }
  if (methodAfter === 'bank_transfer') {
    if (bankAfter === undefined || bankAfter === null) bag.add('bank_account_id', 'is required for a bank transfer')
    else if ((await foreignBankAccountIds(db.read, businessId, [bankAfter])).size > 0) bag.add('bank_account_id', 'is not one of the Business\'s bank accounts')
    else out.bankAccountId = bankAfter
  } else if (methodAfter !== undefined) {
    // Any other method reaches no bank account.
    out.bankAccountId = null
  }
  bag.throwIfAny()
  return out
}

function checkCurrency(doc: DocumentRow, currency: string | undefined): void {
  if (currency !== undefined && currency !== doc.currency) {
    throw new Refusal('payment_currency_mismatch', `The document is in ${doc.currency}; a Payment on it is in ${doc.currency} too, not ${currency}.`)
  }
}

function exceeds(doc: DocumentRow, amount: Decimal, givenBack: Decimal): never | void {
  const due = amountDue(doc).plus(givenBack)
  if (amount.gt(due)) {
    throw new Refusal('payment_exceeds_amount_due', `The amount ${format(amount, currencyScale(doc.currency))} is above the ${format(due, currencyScale(doc.currency))} ${doc.currency} due.`)
  }
}

async function view(deps: PaymentDeps, businessId: number, paymentId: number): Promise<PaymentView> {
  const p = await findPayment(deps.db.read, businessId, paymentId)
  if (!p) throw new NotFound('No such Payment.')
  return presentPayment(p, await receiptOfPayment(deps.db.read, p.id))
}

export async function recordPayment(deps: PaymentDeps, c: Credential, documentId: number, input: RecordInput): Promise<PaymentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  const doc = await findDocument(deps.db.read, c.businessId, documentId)
  if (!doc) throw new NotFound('No such document.')
  const fields = await checkFields(deps.db, c.businessId, doc, input, input.payment_method, input.bank_account_id)
  const now = deps.clock.now()
  const id = await deps.db.write(async (tx) => {
    const current = await findDocument(tx, c.businessId, documentId)
    if (!current) throw new NotFound('No such document.')
    const today = utcDay(now)
    const facts = await gatherFacts(tx, business, current, { today, mailVia: mailViaOf(business, deps.config.mailRelay) })
    const refusal = refusalFor('record_payment', facts)
    if (refusal) throwRefusal(refusal)
    checkCurrency(current, fields.currency)
    exceeds(current, fields.amount!, new Dec('0'))
    const scale = currencyScale(current.currency)
    const payment = await insertPayment(tx, {
      businessId: c.businessId,
      documentId,
      status: 'completed',
      amount: format(fields.amount!, scale),
      amountMinor: toMinor(fields.amount!, scale),
      currency: current.currency,
      paymentDate: fields.paymentDate!,
      paymentMethod: input.payment_method,
      bankAccountId: fields.bankAccountId ?? null,
      reference: input.reference?.trim() || null,
      notes: input.notes?.trim() || null,
      recordedBy: actorOf(c),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    // The Receipt is numbered in the same transaction: no Payment without its Receipt, no number without a Payment.
    const number = await receiptNumbering(tx, { id: business.id, isTest: business.isTest }, today)
    if (!number.ok) throwRefusal(number.refusal)
    await takeNumber(tx, business.id, number.plan)
    await insertReceipt(tx, {
      businessId: c.businessId,
      paymentId: payment.id,
      documentId,
      receiptNumber: number.plan.number,
      issueDate: today,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    await raiseEvent(tx, deps.clock, c.businessId, 'payment.recorded', payment.id)
    await settleDocument(tx, deps.clock, c.businessId, documentId)
    return payment.id
  })
  return view(deps, c.businessId, id)
}

export async function amendPayment(deps: PaymentDeps, c: Credential, id: number, input: AmendInput): Promise<PaymentView> {
  const payment = await findPayment(deps.db.read, c.businessId, id)
  if (!payment) throw new NotFound('No such Payment.')
  if (Object.values(input).every((v) => v === undefined)) {
    throw new InvalidRequest({ payment: ['nothing to change: send at least one field'] })
  }
  const doc = (await findDocument(deps.db.read, c.businessId, payment.documentId))!
  const methodAfter = input.payment_method ?? payment.paymentMethod
  const bankAfter = input.bank_account_id !== undefined ? input.bank_account_id : payment.bankAccountId
  const methodTouched = input.payment_method !== undefined || input.bank_account_id !== undefined
  const fields = await checkFields(deps.db, c.businessId, doc, input, methodTouched ? methodAfter : undefined, bankAfter)
  const now = deps.clock.now().toISOString()
  await deps.db.write(async (tx) => {
    const current = (await findPayment(tx, c.businessId, id))!
    if (current.status !== 'completed') throw new Refusal('payment_reversed', 'The Payment was reversed; a voided Payment is neither amended nor reversed again.')
    const d = (await findDocument(tx, c.businessId, current.documentId))!
    const kind = takesPaymentsRefusal(d)
    if (kind) throwRefusal(kind)
    checkCurrency(d, fields.currency)
    const scale = currencyScale(d.currency)
    const set: Partial<PaymentInsert> = { amendedBy: actorOf(c), updatedAt: now }
    if (fields.amount) {
      // The Payment's own amount is given back before the new one is judged; a converted Proforma's Payments
      // count on its Invoice, so they are judged against what the Invoice still owes.
      const owed = d.type === 'proforma' && d.convertedIntoId !== null ? ((await findDocument(tx, c.businessId, d.convertedIntoId)) ?? d) : d
      exceeds(owed, fields.amount, stored(current.amount))
      set.amount = format(fields.amount, scale)
      set.amountMinor = toMinor(fields.amount, scale)
    }
    if (fields.paymentDate) set.paymentDate = fields.paymentDate
    if (input.payment_method !== undefined) set.paymentMethod = input.payment_method
    if (fields.bankAccountId !== undefined) set.bankAccountId = fields.bankAccountId
    if (input.reference !== undefined) set.reference = input.reference?.trim() || null
    if (input.notes !== undefined) set.notes = input.notes?.trim() || null
    await updatePaymentRow(tx, id, set)
    await touchReceipt(tx, id, { updatedAt: now })
    // Amending raises none of the events (contract: Events rule 5), document.paid included.
    await settleDocument(tx, deps.clock, c.businessId, d.id, { raisePaid: false })
  })
  return view(deps, c.businessId, id)
}

export async function reversePayment(deps: PaymentDeps, c: Credential, id: number): Promise<PaymentView> {
  if (!(await findPayment(deps.db.read, c.businessId, id))) throw new NotFound('No such Payment.')
  const now = deps.clock.now().toISOString()
  await deps.db.write(async (tx) => {
    const current = (await findPayment(tx, c.businessId, id))!
    if (current.status !== 'completed') throw new Refusal('payment_reversed', 'The Payment was reversed already.')
    await updatePaymentRow(tx, id, { status: 'voided', updatedAt: now })
    // The Receipt keeps its number and says when and by whom it was voided.
    await touchReceipt(tx, id, { voidedAt: now, voidedBy: actorOf(c), updatedAt: now })
    await raiseEvent(tx, deps.clock, c.businessId, 'payment.reversed', id)
    await settleDocument(tx, deps.clock, c.businessId, current.documentId)
  })
  return view(deps, c.businessId, id)
}

export function getPayment(deps: PaymentDeps, c: Credential, id: number): Promise<PaymentView> {
  return view(deps, c.businessId, id)
}

