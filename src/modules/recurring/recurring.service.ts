// Recurring invoice use cases (extensions §13): create (or copy from a document), read, change, pause, resume, delete,
// and the next dates. The making of Invoices is recurring.run.ts's.
import type { Database, Queryable, Tx } from '../../db/client'
import type { RecurringFrequency, RecurringStatus } from '../../db/schema'
import type { Actor } from '../../platform/actor'
import type { Clock } from '../../shared/clock'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { isDate, utcDay, addDays } from '../../shared/dates'
import { FieldErrorBag, NotFound, Refusal } from '../../shared/errors'
import { blank } from '../../shared/text'
import { foreignBankAccountIds, getBusiness } from '../business'
import { findClient } from '../clients'
import { findDocument, linesOf, resolveLines, writtenLine, type LineInput } from '../documents'
import { firstIndexFrom, nextAt, upcoming, type Schedule } from './dates'
import type { RecurringCreateInput, RecurringUpdateInput } from './recurring.model'
import { presentRecurring, type LastRun, type RecurringView, type TemplateLine } from './recurring.present'
import {
  deleteRecurringRow,
  findRecurring,
  insertRecurring,
  listRecurring,
  updateRecurringRow,
  type RecurringFilter,
  type RecurringInsert,
  type RecurringRow,
} from './recurring.repo'

export interface RecurringDeps {
  db: Database
  clock: Clock
}

const today = (deps: RecurringDeps) => utcDay(deps.clock.now())

export function scheduleOf(
  r: Pick<RecurringRow, 'frequency' | 'interval' | 'startDate' | 'endDate' | 'count'>,
): Schedule {
  return { frequency: r.frequency, interval: r.interval, startDate: r.startDate, endDate: r.endDate, count: r.count }
}

async function mustFind(q: Queryable, c: Actor, id: number): Promise<RecurringRow> {
  const r = await findRecurring(q, c.businessId, id)
  if (!r) throw new NotFound('No such recurring invoice.')
  return r
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

export async function getRecurring(deps: RecurringDeps, c: Actor, id: number): Promise<RecurringView> {
  return presentRecurring(await mustFind(deps.db.read, c, id))
}

export function listRecurringRows(deps: RecurringDeps, c: Actor, afterId: number, limit: number, f: RecurringFilter) {
  return listRecurring(deps.db.read, c.businessId, afterId, limit, f)
}

/** The next `n` dates the schedule will make: a paused one's as if resumed today, none once ended. */
export async function nextDates(deps: RecurringDeps, c: Actor, id: number, n: number): Promise<string[]> {
  const r = await mustFind(deps.db.read, c, id)
  return datesOf(r, today(deps), n)
}

export function datesOf(r: RecurringRow, day: string, n: number): string[] {
  if (r.status === 'ended') return []
  const s = scheduleOf(r)
  const from = r.status === 'paused' ? Math.max(r.nextIndex, firstIndexFrom(s, day)) : r.nextIndex
  return upcoming(s, from, r.documentsMade, n)
}

// ---------------------------------------------------------------------------------------------------------------
// The template and the schedule, judged for a create or an update

/** The Lines as the template keeps them: resolved as a Draft's, written back in the request's words. */
function templateLines(resolved: Awaited<ReturnType<typeof resolveLines>>): TemplateLine[] {
  return resolved.map(writtenLine)
}

/** What a create or update sends, with a copied document's values beneath it (fields sent beside it win). */
type Fields = RecurringUpdateInput & { client_id?: number }

/**
 * Judges the fields against the record as it would stand (`current` on an update) and answers the columns to set,
 * every fault named by its field (422). The schedule's place (next date, status) is settled by `place` after.
 */
async function planTemplate(
  deps: RecurringDeps,
  c: Actor,
  input: Fields,
  current: RecurringRow | null,
): Promise<Partial<RecurringInsert>> {
  const q = deps.db.read
  const bag = new FieldErrorBag()
  const set: Partial<RecurringInsert> = {}
  const day = today(deps)

  const clientId = input.client_id ?? current?.clientId
  const client = clientId !== undefined ? await findClient(q, c.businessId, clientId) : undefined
  if (clientId === undefined) bag.add('client_id', 'is required (or from_document_id)')
  else if (!client) bag.add('client_id', 'is not a Client of this Business')
  else if (input.client_id !== undefined) set.clientId = client.id

  let currency = current?.currency
  const sentCurrency = blank(input.currency ?? undefined)?.toUpperCase()
  if (sentCurrency) {
    if (!isCurrency(sentCurrency)) bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
    else currency = set.currency = sentCurrency
  } else if (!current && client) currency = set.currency = client.currency

  if (input.frequency !== undefined) set.frequency = input.frequency
  if (input.interval !== undefined) set.interval = input.interval
  if (input.start_date !== undefined) {
    if (!isDate(input.start_date)) bag.add('start_date', 'must be a real date written YYYY-MM-DD')
    // An editor sends the start it shows: only a new start is held to today.
    else if (input.start_date < day && input.start_date !== current?.startDate)
      bag.add('start_date', `must not be before today (${day})`)
    else set.startDate = input.start_date
  }
  if (input.end_date !== undefined) {
    if (input.end_date !== null && !isDate(input.end_date))
      bag.add('end_date', 'must be a real date written YYYY-MM-DD')
    else set.endDate = input.end_date
  }
  if (input.count !== undefined) set.count = input.count
  if (input.action !== undefined) set.action = input.action

  const startDate = set.startDate ?? current?.startDate
  const endDate = set.endDate !== undefined ? set.endDate : (current?.endDate ?? null)
  const count = set.count !== undefined ? set.count : (current?.count ?? null)
  if (startDate && endDate && !bag.errors.end_date && endDate < startDate)
    bag.add('end_date', 'must not be before start_date')
  if (endDate !== null && count !== null && !bag.errors.end_date)
    bag.add(input.count != null ? 'count' : 'end_date', 'the schedule ends by end_date or by count, not both')

  if (input.payment_terms !== undefined) set.paymentTerms = input.payment_terms
  if (input.notes !== undefined) set.notes = blank(input.notes ?? undefined) ?? null
  if (input.buyer_reference !== undefined) set.buyerReference = blank(input.buyer_reference ?? undefined) ?? null
  if (input.order_reference !== undefined) set.orderReference = blank(input.order_reference ?? undefined) ?? null

  if (input.bank_account_ids !== undefined && input.bank_account_ids !== null) {
    const foreign = await foreignBankAccountIds(q, c.businessId, input.bank_account_ids)
    input.bank_account_ids.forEach(
      (id, i) => foreign.has(id) && bag.add(`bank_account_ids.${i}`, "is not one of the Business's bank accounts"),
    )
    set.bankAccountIds = JSON.stringify([...new Set(input.bank_account_ids)].sort((a, b) => a - b))
  } else if ((!current || input.bank_account_ids === null) && client)
    set.bankAccountIds = client.preferredBankAccountIds

  // Lines as a Draft's rules say, in the template's currency: those sent, or those kept when the currency changes.
  const lines: LineInput[] | undefined =
    input.lines ??
    (current && set.currency && set.currency !== current.currency ? JSON.parse(current.lines) : undefined)
  if (input.lines !== undefined && input.lines.length === 0) bag.add('lines', 'at least one Line is required')
  else if (lines === undefined && !current) bag.add('lines', 'at least one Line is required')
  else if (lines !== undefined && currency && isCurrency(currency)) {
    const resolved = await resolveLines(q, c.businessId, currency, currencyScale(currency), lines, bag)
    set.lines = JSON.stringify(templateLines(resolved))
  }
  bag.throwIfAny()
  return set
}

/**
 * Where the schedule stands after a change: the first date still to make, counted from the next date it had (or from
 * today when the dates themselves changed, never one already made), and whether it has ended.
 */
function place(
  r: RecurringRow,
  day: string,
  datesChanged: boolean,
): Pick<RecurringRow, 'nextIndex' | 'nextDate' | 'status'> {
  const s = scheduleOf(r)
  let k = r.nextIndex
  if (datesChanged) {
    const last = r.lastRun ? (JSON.parse(r.lastRun) as LastRun).date : null
    const after = last && addDays(last, 1)
    k = firstIndexFrom(s, after && after > day ? after : day)
  }
  const next = nextAt(s, k, r.documentsMade)
  const status: RecurringStatus = !next ? 'ended' : r.status === 'paused' ? 'paused' : 'active'
  return { nextIndex: next?.index ?? k, nextDate: next?.date ?? null, status }
}

// ---------------------------------------------------------------------------------------------------------------
// Changing

export async function createRecurring(
  deps: RecurringDeps,
  c: Actor,
  input: RecurringCreateInput,
): Promise<RecurringView> {
  let fields: Fields = input
  if (input.from_document_id !== undefined) {
    const doc = await findDocument(deps.db.read, c.businessId, input.from_document_id)
    if (!doc) {
      const bag = new FieldErrorBag()
      bag.add('from_document_id', 'is not a document of this Business')
      bag.throwIfAny()
    }
    const kept = (await linesOf(deps.db.read, [doc!.id])).get(doc!.id) ?? []
    const copied: Fields = {
      client_id: doc!.clientId,
      currency: doc!.currency,
      notes: doc!.notes,
      buyer_reference: doc!.buyerReference,
      order_reference: doc!.orderReference,
      lines: kept.map(writtenLine),
    }
    const sent = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
    fields = { ...copied, ...sent }
  }
  const set = await planTemplate(deps, c, fields, null)
  const business = await getBusiness(deps.db.read, c.businessId)
  const now = deps.clock.now().toISOString()
  const row: RecurringInsert = {
    businessId: c.businessId,
    status: 'active',
    clientId: set.clientId!,
    currency: set.currency!,
    lines: set.lines!,
    frequency: input.frequency as RecurringFrequency,
    interval: input.interval ?? 1,
    startDate: set.startDate!,
    action: input.action ?? 'issue',
    nextIndex: 0,
    nextDate: set.startDate!,
    isTest: business.isTest,
    createdAt: now,
    updatedAt: now,
    ...set,
  }
  // Read back inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
  return deps.db.write(async (tx) => presentRecurring(await insertRecurring(tx, row)))
}

export async function updateRecurring(
  deps: RecurringDeps,
  c: Actor,
  id: number,
  input: RecurringUpdateInput,
): Promise<RecurringView> {
  const current = await mustFind(deps.db.read, c, id)
  const set = await planTemplate(deps, c, input, current)
  const datesChanged =
    (set.frequency ?? current.frequency) !== current.frequency ||
    (set.interval ?? current.interval) !== current.interval ||
    (set.startDate ?? current.startDate) !== current.startDate
  return deps.db.write(async (tx) => {
    // Judged again on the row as it stands in this transaction: the background task may have made a date meanwhile.
    const now = await findRecurring(tx, c.businessId, id)
    if (!now) throw new NotFound('No such recurring invoice.')
    const merged = { ...now, ...set }
    const at = place(merged, today(deps), datesChanged)
    const row = await updateRecurringRow(tx, c.businessId, id, {
      ...set,
      ...at,
      updatedAt: deps.clock.now().toISOString(),
    })
    return presentRecurring(row!)
  })
}

export async function deleteRecurring(deps: RecurringDeps, c: Actor, id: number): Promise<void> {
  await deps.db.write(async (tx) => {
    if (!(await deleteRecurringRow(tx, c.businessId, id))) throw new NotFound('No such recurring invoice.')
  })
}

/** The recurring invoice to pause or resume: 404 when there is none, refused when it stands `already` or has ended. */
async function switchable(tx: Tx, c: Actor, id: number, already: 'paused' | 'active'): Promise<RecurringRow> {
  const r = await findRecurring(tx, c.businessId, id)
  if (!r) throw new NotFound('No such recurring invoice.')
  if (r.status === already) throw Refusal.say(already === 'paused' ? 'recurring_paused' : 'recurring_active')
  if (r.status === 'ended') throw Refusal.say('recurring_ended')
  return r
}

export async function pauseRecurring(deps: RecurringDeps, c: Actor, id: number): Promise<RecurringView> {
  return deps.db.write(async (tx) => {
    await switchable(tx, c, id, 'paused')
    const row = await updateRecurringRow(tx, c.businessId, id, {
      status: 'paused',
      updatedAt: deps.clock.now().toISOString(),
    })
    return presentRecurring(row!)
  })
}

/** Resuming never makes the dates that passed while paused: the next date is the first on or after today. */
export async function resumeRecurring(deps: RecurringDeps, c: Actor, id: number): Promise<RecurringView> {
  return deps.db.write(async (tx) => {
    const r = await switchable(tx, c, id, 'active')
    const s = scheduleOf(r)
    const k = Math.max(r.nextIndex, firstIndexFrom(s, today(deps)))
    const next = nextAt(s, k, r.documentsMade)
    const row = await updateRecurringRow(tx, c.businessId, id, {
      status: next ? 'active' : 'ended',
      nextIndex: next?.index ?? k,
      nextDate: next?.date ?? null,
      updatedAt: deps.clock.now().toISOString(),
    })
    return presentRecurring(row!)
  })
}
