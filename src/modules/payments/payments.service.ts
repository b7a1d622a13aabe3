// Payment use cases: record (with its Receipt), amend, reverse; each in one transaction with its events.
import { actorRecord, type Actor } from '../../platform/actor'
import type { Database, Queryable, SqlTx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, InvalidRequest, NotFound, Refusal } from '../../shared/errors'
import { currencyScale } from '../../shared/currencies'
import { isDate, utcDay } from '../../shared/dates'
import { Dec, format, parseDecimal, stored, type Decimal } from '../../shared/money'
import { foreignBankAccountIds } from '../business'
import {
  amountDue,
  COUNTED_PAYMENT_STATUS,
  findDocument,
  findPaymentTarget,
  readPaymentTarget,
  refusalFor,
  settleDocument,
  takesPaymentsRefusal,
  throwRefusal,
  toMinor,
  type Facts,
  paymentCounts,
  type PaymentTarget,
} from '../documents'
import { takeReceiptNumber } from '../numbering'
import { raiseEvent } from '../webhooks'
import { journalPayment, journalPaymentChange } from '../journal'
import type { AmendInput, RecordInput } from './payments.model'
import { presentPayment, type PaymentView } from './payments.present'
import {
  addPayment,
  addReceipt,
  findPayment,
  receiptOfPayment,
  touchReceipt,
  updatePaymentRow,
  type PaymentInsert,
  type PaymentRow,
  type ReceiptRow,
} from './payments.repo'

export interface PaymentDeps {
  db: Database
  clock: Clock
  config: { mailRelay: string | null }
}

/** `recorded_by` / `amended_by` / `voided_by` as stored: the Actor's record, or null for a person in the application. */
function actorOf(c: Actor): string | null {
  const r = actorRecord(c)
  return r === null ? null : JSON.stringify(r)
}

interface CheckedFields {
  amount?: Decimal
  paymentDate?: string
  method?: string
  bankAccountId?: number | null
  currency?: string
}

/** The body's own rules (422 invalid_request), judged before the document is: amount digits by its currency. */
async function checkFields(
  db: Database,
  businessId: number,
  doc: Pick<PaymentTarget, 'currency'>,
  input: AmendInput,
  methodAfter: string | undefined,
  bankAfter: number | null | undefined,
): Promise<CheckedFields> {
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
    else if ((await foreignBankAccountIds(db.read, businessId, [bankAfter])).size > 0)
      bag.add('bank_account_id', "is not one of the Business's bank accounts")
    else out.bankAccountId = bankAfter
  } else if (methodAfter !== undefined) {
    // Any other method reaches no bank account.
    out.bankAccountId = null
  }
  bag.throwIfAny()
  return out
}

function checkCurrency(doc: Pick<PaymentTarget, 'currency'>, currency: string | undefined): void {
  if (currency !== undefined && currency !== doc.currency) {
    throw Refusal.say('payment_currency_mismatch', { document: doc.currency, sent: currency })
  }
}

function exceeds(
  doc: Pick<PaymentTarget, 'currency' | 'total' | 'amountPaid'>,
  amount: Decimal,
  givenBack: Decimal,
): never | void {
  const due = amountDue(doc).plus(givenBack)
  if (amount.gt(due)) {
    throw Refusal.say('payment_exceeds_amount_due', {
      amount: format(amount, currencyScale(doc.currency)),
      due: format(due, currencyScale(doc.currency)),
      currency: doc.currency,
    })
  }
}

async function view(
  deps: PaymentDeps,
  businessId: number,
  paymentId: number,
  q: Queryable = deps.db.read,
): Promise<PaymentView> {
  const p = await findPayment(q, businessId, paymentId)
  if (!p) throw new NotFound('No such Payment.')
  return presentPayment(p, await receiptOfPayment(q, p.id))
}

export async function recordPayment(
  deps: PaymentDeps,
  c: Actor,
  documentId: number,
  input: RecordInput,
): Promise<PaymentView> {
  const target = await readPaymentTarget(deps.db, c.businessId, documentId)
  if (!target) throw new NotFound('No such document.')
  const fields = await checkFields(deps.db, c.businessId, target, input, input.payment_method, input.bank_account_id)
  const now = deps.clock.now()
  const nowIso = now.toISOString()
  const today = utcDay(now)
  const scale = currencyScale(target.currency)
  const amount = format(fields.amount!, scale)
  const row: PaymentInsert = {
    businessId: c.businessId,
    documentId,
    status: COUNTED_PAYMENT_STATUS,
    amount,
    amountMinor: toMinor(fields.amount!, scale),
    currency: target.currency,
    paymentDate: fields.paymentDate!,
    paymentMethod: input.payment_method,
    bankAccountId: fields.bankAccountId ?? null,
    reference: input.reference?.trim() || null,
    notes: input.notes?.trim() || null,
    recordedBy: actorOf(c),
    createdAt: nowIso,
    updatedAt: nowIso,
  }
  // The prepared-statement writer: every statement below is a plain `sql` template (about 0.25 ms a Payment saved).
  return deps.db.writePrepared(async (tx) => {
    const doc = await findPaymentTarget(tx, c.businessId, documentId)
    if (!doc) throw new NotFound('No such document.')
    // The same judge as `actions.record_payment`; the Receipt numbering is judged where its number is taken below.
    const refusal = refusalFor('record_payment', await paymentFacts(tx, c, doc, today))
    if (refusal) throwRefusal(refusal)
    checkCurrency(doc, fields.currency)
    exceeds(doc, fields.amount!, new Dec('0'))
    const paymentId = await addPayment(tx, row)
    // The Receipt is numbered in the same transaction: no Payment without its Receipt, no number without a Payment.
    const number = await takeReceiptNumber(tx, { id: c.businessId, isTest: c.isTest }, today)
    if (!number.ok) throwRefusal(number.refusal)
    const receipt = {
      businessId: c.businessId,
      paymentId,
      documentId,
      receiptNumber: number.number,
      issueDate: today,
      createdAt: nowIso,
      updatedAt: nowIso,
    }
    const receiptId = await addReceipt(tx, receipt)
    // The journal's entry from what was just written: the Payment path reads nothing more for it.
    await journalPayment(tx, deps.clock, c.businessId, 'payment.recorded', {
      id: paymentId,
      amount: row.amount,
      currency: row.currency,
      payment_date: row.paymentDate,
      payment_method: row.paymentMethod,
      status: row.status,
      document_id: documentId,
      document_number: doc.documentNumber,
      receipt_number: number.number,
    })
    await raiseEvent(tx, deps.clock, c.businessId, 'payment.recorded', paymentId)
    await settleDocument(tx, deps.clock, c.businessId, doc)
    // The answer is what was just written (reading it back would cost more than writing it), built before the commit
    // so a keyed request's answer commits with it (platform/idempotency.ts).
    return presentPayment(
      { ...row, id: paymentId, amendedBy: null } as PaymentRow,
      { ...receipt, id: receiptId, voidedAt: null, voidedBy: null } as ReceiptRow,
    )
  })
}

/** The facts the judge reads for Record: the document and, for a converted Proforma, the Invoice to record on. */
async function paymentFacts(tx: SqlTx, c: Actor, doc: PaymentTarget, today: string): Promise<Facts> {
  let invoice: Facts['invoice'] = null
  if (doc.type === 'proforma' && doc.convertedIntoId !== null) {
    const inv = await findPaymentTarget(tx, c.businessId, doc.convertedIntoId)
    invoice = { id: doc.convertedIntoId, document_number: inv?.documentNumber ?? null }
  }
  return {
    doc: { ...doc },
    business: { isTest: c.isTest, plan: c.plan, issuingLimit: 0 },
    clientEmail: null,
    mailVia: null,
    // Send is not judged here; its facts are inert.
    send: { mailboxLost: false, sentToday: 0, dailyLimit: null, resumesOn: today, recipients: 0, toGiven: false },
    proforma: null,
    invoice,
    invoicesIssuedInYear: 0,
    year: Number(today.slice(0, 4)),
    numbering: null,
    receiptNumbering: null,
  }
}

export async function amendPayment(deps: PaymentDeps, c: Actor, id: number, input: AmendInput): Promise<PaymentView> {
  const payment = await findPayment(deps.db.read, c.businessId, id)
  if (!payment) throw new NotFound('No such Payment.')
  if (Object.values(input).every((v) => v === undefined)) {
    throw new InvalidRequest({ payment: ['nothing to change: send at least one field'] })
  }
  const doc = (await findDocument(deps.db.read, c.businessId, payment.documentId))!
  const methodAfter = input.payment_method ?? payment.paymentMethod
  const bankAfter = input.bank_account_id !== undefined ? input.bank_account_id : payment.bankAccountId
  const methodTouched = input.payment_method !== undefined || input.bank_account_id !== undefined
  const fields = await checkFields(
    deps.db,
    c.businessId,
    doc,
    input,
    methodTouched ? methodAfter : undefined,
    bankAfter,
  )
  const now = deps.clock.now().toISOString()
  await deps.db.write(async (tx) => {
    const current = (await findPayment(tx, c.businessId, id))!
    if (!paymentCounts(current)) throw Refusal.say('payment_reversed')
    const d = (await findDocument(tx, c.businessId, current.documentId))!
    const kind = takesPaymentsRefusal(d)
    if (kind) throwRefusal(kind)
    checkCurrency(d, fields.currency)
    const scale = currencyScale(d.currency)
    const set: Partial<PaymentInsert> = { amendedBy: actorOf(c), updatedAt: now }
    if (fields.amount) {
      // The Payment's own amount is given back before the new one is judged; a converted Proforma's Payments
      // count on its Invoice, so they are judged against what the Invoice still owes.
      const owed =
        d.type === 'proforma' && d.convertedIntoId !== null
          ? ((await findDocument(tx, c.businessId, d.convertedIntoId)) ?? d)
          : d
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
    await journalPaymentChange(tx, deps.clock, c.businessId, 'payment.amended', id)
    // Amending raises none of the events (contract: Events rule 5), document.paid included.
    await settleDocument(tx, deps.clock, c.businessId, d.id, { raisePaid: false })
  })
  return view(deps, c.businessId, id)
}

export async function reversePayment(deps: PaymentDeps, c: Actor, id: number): Promise<PaymentView> {
  if (!(await findPayment(deps.db.read, c.businessId, id))) throw new NotFound('No such Payment.')
  const now = deps.clock.now().toISOString()
  return deps.db.write(async (tx) => {
    const current = (await findPayment(tx, c.businessId, id))!
    if (!paymentCounts(current)) throw Refusal.say('payment_reversed')
    await updatePaymentRow(tx, id, { status: 'voided', updatedAt: now })
    // The Receipt keeps its number and says when and by whom it was voided.
    await touchReceipt(tx, id, { voidedAt: now, voidedBy: actorOf(c), updatedAt: now })
    await journalPaymentChange(tx, deps.clock, c.businessId, 'payment.reversed', id)
    await raiseEvent(tx, deps.clock, c.businessId, 'payment.reversed', id)
    await settleDocument(tx, deps.clock, c.businessId, current.documentId)
    // Read inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
    return view(deps, c.businessId, id, tx)
  })
}

export function getPayment(deps: PaymentDeps, c: Actor, id: number): Promise<PaymentView> {
  return view(deps, c.businessId, id)
}
