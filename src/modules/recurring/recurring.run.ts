// The background task of recurring invoices (extensions §13): each date that has come makes one Draft, then issues
// and sends it as the schedule's action says. Plain functions over deps with the clock injected: the scheduler calls
// them every minute and at start, and so do the tests.
import { eq, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { recurringInvoices } from '../../db/schema'
import { systemActor } from '../../platform/actor'
import { holderIsGone, thisProcess, type Holder } from '../../platform/idempotency'
import { isBusy } from '../../db/busy'
import { backgroundRefusal } from '../../platform/policy'
import { addDays, utcDay } from '../../shared/dates'
import { ApiError, NotDelivered, Refusal } from '../../shared/errors'
import { errorFacts } from '../../shared/logger'
import { getBusiness, type BusinessRow } from '../business'
import { findClient } from '../clients'
import { words } from '../words'
import { findDocument, insertDraftInTx, issueInTx } from '../documents'
import { sendDocument, type MailDeps } from '../mail'
import { fillPlaceholders, firstIndexFrom, nextAt, periodOf } from './dates'
import type { LastRun, RunError, TemplateLine } from './recurring.present'
import {
  anythingToDo,
  claimPending,
  dueSchedules,
  findRecurring,
  pendingSchedules,
  updateRecurringRow,
  type RecurringRow,
} from './recurring.repo'
import { scheduleOf } from './recurring.service'
import { nextTurn } from '../../shared/turns'

export type RecurringRunDeps = MailDeps

/** A claim on a pending step older than this is taken over even when its process may live (another machine). */
const CLAIM_LEASE_MS = 10 * 60_000
/** Schedules read at a time; the task goes on reading until none is due. */
const BATCH = 200
/** Hand-overs of one Invoice's email: the first, and one more after a crash between the email and its record (§14). */
const MAX_SENDS = 2

export interface RunReport {
  /** Drafts made (one per date). */
  made: number
  /** Steps finished (issue, send) whose Draft was made earlier or by a process that stopped. */
  resumed: number
}

interface Claim {
  token: string
  at: number
  /** null: given back by its process after a fault, free to take. */
  holder: Holder | null
  /** The Invoice's email handed over so far under this step (counted before each hand-over); absent: none. */
  sends?: number
}

function newClaim(deps: RecurringRunDeps, sends = 0): string {
  const claim: Claim = { token: crypto.randomUUID(), at: deps.clock.now().getTime(), holder: thisProcess(), sends }
  return JSON.stringify(claim)
}

function sendsOf(raw: string | null): number {
  return raw === null ? 0 : ((JSON.parse(raw) as Claim).sends ?? 0)
}

/** A claim whose process is gone (this machine), given back, or older than the lease, is free to take. */
function isStale(deps: RecurringRunDeps, raw: string | null): boolean {
  if (raw === null) return true
  const c = JSON.parse(raw) as Claim
  return c.holder === null || holderIsGone(c.holder) || deps.clock.now().getTime() - c.at > CLAIM_LEASE_MS
}

/**
 * Makes every date that has come, oldest first, and finishes the steps a stopped process left. An idle server pays one
 * read here (no write transaction) whatever the number of schedules.
 */
export async function runRecurringInvoices(deps: RecurringRunDeps): Promise<RunReport> {
  const report: RunReport = { made: 0, resumed: 0 }
  const today = utcDay(deps.clock.now())
  if (!(await anythingToDo(deps.db.read, today))) return report
  try {
    await makeAndFinish(deps, today, report)
  } catch (e) {
    // Another process on the database held its write lock past the busy timeout: it is making these dates itself
    // (each is taken in its own transaction, so nothing is half made), and this process goes on at its next run.
    if (!isBusy(e)) throw e
    deps.logger.info('recurring invoices: the database is busy with another process; going on at the next run', {
      made: report.made,
    })
  }
  return report
}

async function makeAndFinish(deps: RecurringRunDeps, today: string, report: RunReport): Promise<void> {
  const failed = new Set<number>()
  const businesses = new Map<number, BusinessRow>()
  const businessOf = async (id: number) => {
    let b = businesses.get(id)
    if (!b) businesses.set(id, (b = await getBusiness(deps.db.read, id)))
    return b
  }

  for (const r of await pendingSchedules(deps.db.read, BATCH)) {
    if (!isStale(deps, r.pendingClaim)) continue
    // The hand-overs counted so far go with the step: a crash does not reset them.
    const claim = newClaim(deps, sendsOf(r.pendingClaim))
    if (!(await deps.db.write((tx) => claimPending(tx, r.id, r.pendingClaim, claim)))) continue
    await finishSteps(deps, await businessOf(r.businessId), r.id, claim)
    report.resumed++
    await nextTurn()
  }

  for (;;) {
    const due = (await dueSchedules(deps.db.read, today, BATCH + failed.size)).filter((s) => !failed.has(s.id))
    let made = 0
    for (const s of due) {
      const taken = await makeDate(deps, await businessOf(s.businessId), s.id, today).catch((e) => {
        // A fault of one schedule (not a refusal: those are kept in last_run) stops neither the run nor the others.
        if (isBusy(e)) throw e
        deps.logger.error('recurring invoice date failed', { recurring_invoice_id: s.id, ...errorFacts(e) })
        failed.add(s.id)
        return null
      })
      if (taken === null) continue
      made++
      if (taken.made) report.made++
      if (taken.claim) await finishSteps(deps, await businessOf(s.businessId), s.id, taken.claim)
      // Requests in between, and the driver's memory handed back (0.7 MB an Invoice held to the run's end without it).
      await nextTurn()
    }
    // Read again until nothing is due: a schedule stopped over several dates makes one per pass, oldest first. Nothing
    // taken from a whole batch: every one was taken by another process in between, which goes on with them.
    if (due.length === 0 || made === 0) break
  }
}

/**
 * Makes the schedule's next date, if it has come and no step of the date before is left: its Draft and the schedule
 * moved on commit in one transaction, judged on the row as it stands in it, so two processes never make one date. With
 * a step to follow (issue, send), the transaction also claims it for this process. Answers whether a Draft was made
 * and the claim on its next step; null when the date was not this process's to make.
 */
async function makeDate(
  deps: RecurringRunDeps,
  business: BusinessRow,
  id: number,
  today: string,
): Promise<{ made: boolean; claim: string | null } | null> {
  return deps.db.write(async (tx) => {
    const r = await findRecurring(tx, business.id, id)
    if (!r || r.status !== 'active' || r.nextDate === null || r.nextDate > today || r.pendingDocumentId !== null)
      return null
    const s = scheduleOf(r)
    const k = r.nextIndex
    const date = r.nextDate
    const paused = backgroundRefusal(business)
    if (paused) {
      // A Paused Business acts on nothing (extensions §9): the dates that came while it is Paused are passed as a
      // paused schedule passes them (none is made later in a burst), and its last_run says why, once.
      const kept = r.lastRun ? (JSON.parse(r.lastRun) as LastRun) : null
      const next = nextAt(s, Math.max(k + 1, firstIndexFrom(s, addDays(today, 1) ?? today)), r.documentsMade)
      await updateRecurringRow(tx, business.id, id, {
        nextIndex: next?.index ?? k + 1,
        nextDate: next?.date ?? null,
        status: next ? 'active' : 'ended',
        ...(kept?.error?.code === 'business_paused'
          ? {}
          : { lastRun: JSON.stringify({ date, document_id: null, error: errorOf(paused) } satisfies LastRun) }),
        updatedAt: deps.clock.now().toISOString(),
      })
      return { made: false, claim: null }
    }
    // {{month}} in the language the Invoice is written in: its Client's, else the Business's (extensions §18).
    const client = await findClient(tx, business.id, r.clientId)
    const at = { date, period: periodOf(s, k), month: words(client?.language ?? business.language).month }
    const lines = (JSON.parse(r.lines) as TemplateLine[]).map((l) => ({
      ...l,
      description: fillPlaceholders(l.description, at),
      notes: l.notes === null ? null : fillPlaceholders(l.notes, at),
    }))
    let documentId: number | null = null
    let error: RunError | null = null
    try {
      const doc = await insertDraftInTx(deps, tx, business, {
        clientId: r.clientId,
        currency: r.currency,
        paymentTerms: r.paymentTerms,
        bankAccountIds: r.bankAccountIds,
        notes: r.notes === null ? null : fillPlaceholders(r.notes, at),
        buyerReference: r.buyerReference,
        orderReference: r.orderReference,
        deliveryDate: date,
        lines,
        recurringInvoiceId: r.id,
      })
      documentId = doc.id
    } catch (e) {
      // The Draft is judged before anything is written (a Line filled past its limit): the date is kept as refused.
      if (!(e instanceof ApiError)) throw e
      error = errorOf(e)
    }
    const made = r.documentsMade + (documentId === null ? 0 : 1)
    const next = nextAt(s, k + 1, made)
    const step = documentId !== null && r.action !== 'draft' ? 'issue' : null
    const claim = step ? newClaim(deps) : null
    const lastRun: LastRun = { date, document_id: documentId, error }
    await updateRecurringRow(tx, business.id, id, {
      nextIndex: next?.index ?? k + 1,
      nextDate: next?.date ?? null,
      status: next ? 'active' : 'ended',
      documentsMade: made,
      lastRun: JSON.stringify(lastRun),
      pendingDocumentId: step ? documentId : null,
      pendingStep: step,
      pendingClaim: claim,
      updatedAt: deps.clock.now().toISOString(),
    })
    return { made: documentId !== null, claim }
  })
}

/** The steps run as an Admin key of the Business would: their events are those of its requests. */
function actorOf(business: BusinessRow) {
  return systemActor(
    {
      businessId: business.id,
      businessPublicId: business.publicId,
      currency: business.currency,
      isTest: business.isTest,
    },
    'recurring invoice',
  )
}

/** The error as `last_run.error` keeps it: the API's type, its code (a refusal's, or `not_delivered`), its message. */
function errorOf(e: ApiError): RunError {
  const code = (e.extra.code as string | undefined) ?? (e.type === 'not_delivered' ? 'not_delivered' : null)
  return { type: e.type, code, message: e.message }
}

/** Whether this process still holds the pending step (a process that took it over after the lease wins). */
async function holds(tx: Tx, id: number, claim: string): Promise<RecurringRow | null> {
  const r = (await tx.select().from(recurringInvoices).where(eq(recurringInvoices.id, id)).get()) ?? null
  return r && r.pendingClaim === claim && r.pendingDocumentId !== null ? r : null
}

/** Ends the pending step, keeping a refusal in `last_run.error`; the schedule goes on from its next date. */
async function settle(deps: RecurringRunDeps, id: number, claim: string, error: RunError | null): Promise<void> {
  await deps.db.write(async (tx) => {
    const r = await holds(tx, id, claim)
    if (!r) return
    const last = r.lastRun ? (JSON.parse(r.lastRun) as LastRun) : null
    await tx
      .update(recurringInvoices)
      .set({
        pendingDocumentId: null,
        pendingStep: null,
        pendingClaim: null,
        ...(error && last ? { lastRun: JSON.stringify({ ...last, error }) } : {}),
      })
      .where(eq(recurringInvoices.id, id))
  })
}

/**
 * Issues the made Draft and, for `send`, sends it, as the claim holder. The issue commits with the schedule's next
 * step; a refusal (numbering at its end, the issuing limit, no address or mailbox, the daily limit, an email not
 * delivered, the Business Paused since) keeps what was made and is kept in `last_run.error`. Anything else gives the
 * claim back, so the next run tries again from the Draft.
 *
 * The email is counted in the claim before it is handed over (extensions §14): a crash between the email and its
 * record sends it again at most once, and a third hand-over is refused `not_delivered` in `last_run.error`.
 */
async function finishSteps(deps: RecurringRunDeps, business: BusinessRow, id: number, claim: string): Promise<void> {
  let held = claim
  try {
    const send = await deps.db.write(async (tx) => {
      const r = await holds(tx, id, held)
      if (!r) return null
      const paused = backgroundRefusal(business)
      if (paused) throw paused
      const doc = await findDocument(tx, business.id, r.pendingDocumentId!)
      if (!doc) throw Refusal.say('draft_deleted')
      // A Draft issued by hand since (a stopped process left it) is not issued twice.
      if (r.pendingStep === 'issue' && doc.status === 'draft') await issueInTx(deps, tx, business, doc.id)
      // Nothing to send, or sent already (the process stopped after the email was recorded): the steps are done.
      if (r.action !== 'send' || doc.lastSent !== null) {
        await tx
          .update(recurringInvoices)
          .set({ pendingDocumentId: null, pendingStep: null, pendingClaim: null })
          .where(eq(recurringInvoices.id, id))
        return null
      }
      const sends = sendsOf(held)
      if (sends >= MAX_SENDS)
        throw new NotDelivered(
          'The email of this Invoice was handed over twice without being recorded: it may have gone out, so it is not sent again.',
        )
      const counted = JSON.stringify({ ...(JSON.parse(held) as Claim), sends: sends + 1 } satisfies Claim)
      await tx
        .update(recurringInvoices)
        .set({ pendingStep: 'send', pendingClaim: counted })
        .where(eq(recurringInvoices.id, id))
      return { id: doc.id, counted }
    })
    if (send === null) return
    // Held from here by the claim as committed, its hand-over counted.
    held = send.counted
    await sendDocument(deps, actorOf(business), send.id, undefined)
    await settle(deps, id, held, null)
  } catch (e) {
    if (e instanceof ApiError) return settle(deps, id, held, errorOf(e))
    if (!isBusy(e)) deps.logger.error('recurring invoice step failed', { recurring_invoice_id: id, ...errorFacts(e) })
    // Given back with its count of hand-overs: the next run tries again, and a send it may have made still counts.
    const back: Claim = { token: crypto.randomUUID(), at: 0, holder: null, sends: sendsOf(held) }
    await deps.db
      .write((tx) =>
        tx
          .update(recurringInvoices)
          .set({ pendingClaim: JSON.stringify(back) })
          .where(sql`${recurringInvoices.id} = ${id} AND ${recurringInvoices.pendingClaim} = ${held}`),
      )
      .catch(() => undefined)
  }
}
