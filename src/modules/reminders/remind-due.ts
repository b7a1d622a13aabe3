// The background task of payment reminders (extensions §14): plain functions over the service's dependencies, with
// the clock injected, that the scheduler (every minute and at start), the CLI and the tests all call.
//
// Exactly once: a step is claimed in a write transaction (the row of (document, step) is the record, written before
// the email is handed over, counting the hand-over), so two processes never take one step; a claim whose process died
// is taken over once, and a hand-over that failed is tried again (once, where the email may have gone out), so a
// crash between the email and its record sends it again at most once. Catching up: only the latest step that has
// come is sent, the earlier ones are written as passed.
import { MailerError } from '../../adapters/smtp'
import type { Tx } from '../../db/client'
import { claimToken, holderIsGone, holderOf } from '../../platform/idempotency'
import { backgroundActs } from '../../platform/policy'
import { utcDay } from '../../shared/dates'
import { errorFacts } from '../../shared/logger'
import { ApiError, NotDelivered, NotFound, Refusal } from '../../shared/errors'
import { getBusiness } from '../business'
import { findClient } from '../clients'
import { amountDue, findDocument, OWING_STATUSES, type DocumentRow } from '../documents'
import { remindOnSchedule, UnrecordedEmail, type MailDeps } from '../mail'
import { Dec } from '../../shared/money'
import { dueCandidates, insertStep, openSteps, stepsOf, updateStep, type ReminderStepRow } from './reminders.repo'
import { readReminderSettings } from './reminders.service'
import { daysOverdue, fillPlaceholders, latestStepDue, type ReminderStep } from './steps'
import { nextTurn } from '../../shared/turns'

/** A claim of another machine is taken over after this long: nothing here can tell whether its process lives. */
export const CLAIM_LEASE_MS = 10 * 60_000
/** After a hand-over that surely sent nothing (the mail server unreachable), the step is tried again this much later. */
export const RETRY_AFTER_MS = 15 * 60_000
/** Hand-overs that may have reached the mail server: the first, and one more after a crash. */
const MAX_HANDOVERS = 2

export interface RemindRun {
  sent: number
  refused: number
  waiting: number
}

/** The error a step keeps, as `last_run.error` reads in §13: `{type, code, message}`. */
interface StepError {
  type: string
  code: string | null
  message: string
}

function stale(row: Pick<ReminderStepRow, 'claim'>, nowMs: number): boolean {
  if (!row.claim) return true
  const { claimedAt, holder } = holderOf(row.claim)
  return (holder !== null && holderIsGone(holder)) || nowMs - claimedAt > CLAIM_LEASE_MS
}

/** Whether the document still takes reminders: issued and owing, not converted, with something due. */
function stillOwing(doc: DocumentRow): boolean {
  return (
    (doc.type === 'invoice' || doc.type === 'proforma') &&
    (OWING_STATUSES as readonly string[]).includes(doc.status) &&
    doc.convertedIntoId === null &&
    doc.dueDate !== null &&
    amountDue(doc).gt(new Dec('0'))
  )
}

/**
 * One run: finds the documents with a step to send (one read; an idle server writes nothing) and the steps whose
 * next try has come or whose claim was left by a process that is gone, and handles each document in turn.
 */
export async function remindDue(deps: MailDeps): Promise<RemindRun> {
  const now = deps.clock.now()
  const today = utcDay(now)
  const work = new Map<number, number>()
  for (const c of await dueCandidates(deps.db.read, today)) {
    const latest = latestStepDue(c.dueDate, JSON.parse(c.steps) as ReminderStep[], today)
    if (latest && (c.top === null || c.top < latest.days)) work.set(c.id, c.businessId)
  }
  for (const r of await openSteps(deps.db.read, now.toISOString()))
    if (r.state === 'waiting' || stale(r, Date.now())) work.set(r.documentId, r.businessId)
  const run: RemindRun = { sent: 0, refused: 0, waiting: 0 }
  for (const [documentId, businessId] of work) {
    // One document's fault (the database busy past its wait) must not hold back the others: it is tried next run.
    try {
      const outcome = await remindDocumentStep(deps, businessId, documentId)
      if (outcome) run[outcome]++
      // Requests in between, and the driver's memory handed back as the run goes (shared/turns.ts).
      await nextTurn()
    } catch (e) {
      deps.logger.error('payment reminder failed', {
        business_id: businessId,
        document_id: documentId,
        ...errorFacts(e),
      })
    }
  }
  return run
}

interface Claimed {
  step: ReminderStep
  token: string
  dueDate: string
}

/** Marks a step the document no longer needs (or an earlier one a catch-up skipped) as passed. */
async function pass(tx: Tx, documentId: number, stepDays: number, now: string) {
  await updateStep(tx, documentId, stepDays, { state: 'passed', claim: null, nextTryAt: null }, now)
}

/**
 * Claims the document's step due now, in one write transaction: the latest step that has come, unless it was
 * handled already (or a later one was); a waiting step whose try has come; a claim whose process is gone. Earlier
 * steps without a row count as passed. Answers null when there is nothing to send.
 */
async function claimStep(deps: MailDeps, businessId: number, documentId: number): Promise<Claimed | null> {
  return deps.db.write(async (tx) => {
    const now = deps.clock.now()
    const nowIso = now.toISOString()
    const today = utcDay(now)
    const doc = await findDocument(tx, businessId, documentId)
    const business = await getBusiness(tx, businessId)
    const rows = await stepsOf(tx, documentId)
    const settings = await readReminderSettings(tx, businessId)
    const client = doc ? await findClient(tx, businessId, doc.clientId) : undefined
    const open = rows.filter((r) => r.state === 'waiting' || (r.state === 'sending' && stale(r, Date.now())))
    // A Paused Business's steps wait for it to choose a plan again.
    if (business.deletedAt || !backgroundActs(business)) return null
    // Paid, cancelled, converted, or its Client opted out since: no more reminders; what waited is passed.
    if (!doc || !stillOwing(doc) || !settings.enabled || !client?.reminders || !client.email) {
      for (const r of open) await pass(tx, documentId, r.stepDays, nowIso)
      return null
    }
    const latest = latestStepDue(doc.dueDate!, settings.steps, today)
    if (!latest) return null
    const token = claimToken()
    const row = rows.find((r) => r.stepDays === latest.days)
    if (!row) {
      // A later step was handled under settings since changed: this earlier one is not sent after it.
      if (rows.some((r) => r.stepDays > latest.days)) return null
      await insertStep(
        tx,
        { documentId, stepDays: latest.days, businessId, state: 'sending', claim: token, attempts: 1 },
        nowIso,
      )
    } else if (row.state === 'waiting' && row.nextTryAt !== null && row.nextTryAt <= nowIso) {
      await updateStep(
        tx,
        documentId,
        latest.days,
        { state: 'sending', claim: token, attempts: row.attempts + 1 },
        nowIso,
      )
    } else if (row.state === 'sending' && stale(row, Date.now())) {
      if (row.attempts >= MAX_HANDOVERS) {
        const error: StepError = {
          type: 'not_delivered',
          code: null,
          message:
            'The hand-over of this reminder was interrupted twice; it may have gone out, so it is not sent again.',
        }
        await updateStep(
          tx,
          documentId,
          latest.days,
          { state: 'refused', claim: null, error: JSON.stringify(error) },
          nowIso,
        )
        return null
      }
      await updateStep(tx, documentId, latest.days, { claim: token, attempts: row.attempts + 1 }, nowIso)
    } else return null
    // Earlier steps count as passed: a person gets one reminder, not one per step missed.
    for (const s of settings.steps) {
      if (s.days >= latest.days) continue
      const had = rows.find((r) => r.stepDays === s.days)
      if (!had)
        await insertStep(
          tx,
          { documentId, stepDays: s.days, businessId, state: 'passed', claim: null, attempts: 0 },
          nowIso,
        )
    }
    for (const r of open) if (r.stepDays < latest.days) await pass(tx, documentId, r.stepDays, nowIso)
    return { step: latest, token, dueDate: doc.dueDate! }
  })
}

/**
 * The subject and text of a step for a document: the step's own words with their placeholders filled, or null where
 * the step has none (the mail module then writes a reminder's default words in the document's language).
 */
export function stepWords(
  step: ReminderStep,
  doc: {
    document_number: string | null
    amount_due: string
    currency: string
    due_date: string | null
    client: { name: string }
  },
  pageUrl: string | null,
  businessName: string,
  today: string,
): { subject: string | null; text: string | null } {
  const values = {
    number: doc.document_number ?? '',
    amount_due: `${doc.amount_due} ${doc.currency}`,
    due_date: doc.due_date ?? '',
    days_overdue: String(doc.due_date ? daysOverdue(doc.due_date, today) : 0),
    client: doc.client.name,
    business: businessName,
    link: pageUrl ?? '',
  }
  const fill = (text: string | null) => (text === null ? null : fillPlaceholders(text, values))
  return { subject: fill(step.subject), text: fill(step.message) }
}

/** A refusal the mail server gives for now: SMTP's 4xx answers ask the sender to try again later (RFC 5321 §4.2.1). */
function transient(e: MailerError): boolean {
  return e.reason === 'refused' && e.smtpCode !== null && e.smtpCode >= 400 && e.smtpCode < 500
}

/**
 * What a failed step keeps: the error, and whether and when it is tried again. A hand-over that surely sent nothing
 * (the mail server unreachable, or answering "not now") is tried again and not counted; one that may have gone out (the connection lost with
 * the message on its way, or the email out and its record not written) is counted and tried again while the hand-overs
 * it has had (`attempts`, this one included) are fewer than `MAX_HANDOVERS`: a Client gets it at most once more.
 */
function failureOf(
  e: unknown,
  now: Date,
  attempts: number,
): { state: 'waiting' | 'refused'; nextTryAt: string | null; error: StepError; handedOver: boolean } {
  const retry = new Date(now.getTime() + RETRY_AFTER_MS).toISOString()
  if (e instanceof Refusal) {
    const error = { type: 'refusal', code: e.code, message: e.message }
    // The daily limit leaves the step for the next UTC day.
    if (e.code === 'sending_limit_reached') {
      const next = new Date(`${utcDay(new Date(now.getTime() + 86_400_000))}T00:00:00.000Z`)
      return { state: 'waiting', nextTryAt: next.toISOString(), error, handedOver: false }
    }
    return { state: 'refused', nextTryAt: null, error, handedOver: false }
  }
  const maybeSent = (error: StepError) =>
    attempts < MAX_HANDOVERS
      ? { state: 'waiting' as const, nextTryAt: retry, error, handedOver: true }
      : { state: 'refused' as const, nextTryAt: null, error, handedOver: true }
  if (e instanceof UnrecordedEmail)
    return maybeSent({
      type: 'server_error',
      code: null,
      message: 'The reminder went out but could not be recorded: it may reach the Client twice.',
    })
  if (e instanceof NotDelivered) {
    const cause = (e as { cause?: unknown }).cause
    const error = { type: 'not_delivered', code: null, message: e.message }
    // Unreachable, or refused for now (an SMTP 4xx answer): nothing was handed over, and it may succeed later.
    if (cause instanceof MailerError && !cause.maybeSent && (cause.reason === 'unreachable' || transient(cause)))
      return { state: 'waiting', nextTryAt: retry, error, handedOver: false }
    if (cause instanceof MailerError && cause.reason === 'interrupted') return maybeSent(error)
    return { state: 'refused', nextTryAt: null, error, handedOver: !(cause instanceof MailerError) || cause.maybeSent }
  }
  const message = e instanceof ApiError ? e.message : 'The reminder could not be prepared; it is tried again later.'
  return {
    state: 'waiting',
    nextTryAt: retry,
    error: { type: e instanceof ApiError ? e.type : 'server_error', code: null, message },
    handedOver: false,
  }
}

/** Claims and sends the document's step due now; answers what became of it (null: nothing to send). */
export async function remindDocumentStep(
  deps: MailDeps,
  businessId: number,
  documentId: number,
): Promise<keyof RemindRun | null> {
  const claimed = await claimStep(deps, businessId, documentId)
  if (!claimed) return null
  const { step, token } = claimed
  try {
    await remindOnSchedule(deps, businessId, documentId, {
      stepDays: step.days,
      words: (doc, pageUrl, businessName) => stepWords(step, doc, pageUrl, businessName, utcDay(deps.clock.now())),
      recordStep: async (tx) => {
        await updateStep(
          tx,
          documentId,
          step.days,
          { state: 'sent', claim: null, error: null, nextTryAt: null },
          deps.clock.now().toISOString(),
        )
      },
    })
    return 'sent'
  } catch (e) {
    // Paid, cancelled or converted between the claim and the judge: the document needs no more reminders.
    if (
      e instanceof NotFound ||
      (e instanceof Refusal && (e.code === 'not_remindable' || e.code === 'converted_proforma'))
    ) {
      await deps.db.write((tx) => pass(tx, documentId, step.days, deps.clock.now().toISOString()))
      return null
    }
    if (!(e instanceof ApiError))
      deps.logger.error('payment reminder failed', {
        business_id: businessId,
        document_id: documentId,
        name: (e as Error)?.name,
      })
    let f: ReturnType<typeof failureOf> | undefined
    await deps.db.write(async (tx) => {
      const row = (await stepsOf(tx, documentId)).find((r) => r.stepDays === step.days)
      f = failureOf(e, deps.clock.now(), row?.attempts ?? 1)
      await updateStep(
        tx,
        documentId,
        step.days,
        {
          state: f.state,
          claim: null,
          nextTryAt: f.nextTryAt,
          error: JSON.stringify(f.error),
          // A hand-over that surely sent nothing is not counted against the one more a crash may take.
          attempts: f.handedOver ? (row?.attempts ?? 1) : Math.max(0, (row?.attempts ?? 1) - 1),
        },
        deps.clock.now().toISOString(),
        token,
      )
    })
    return f?.state === 'waiting' ? 'waiting' : 'refused'
  }
}
