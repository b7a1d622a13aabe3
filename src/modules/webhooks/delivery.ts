// Delivery: outbox events fanned out to the webhooks that hear them, then POSTed on the retry schedule.
import { webhooksSend } from '../../platform/policy'
import { randomUUID } from 'node:crypto'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import type { Logger } from '../../shared/logger'
import type { SecretBox } from '../../shared/secret-box'
import { EXCERPT_GRACE_MS, limitText, type WebhookSender } from '../../adapters/http'
import { AddressRefused, checkAddress, RESOLVE_TIMEOUT_MS, type Resolver } from './address-guard'
import { within } from '../../shared/within'
import { signatureHeader } from './signature'
import { getBusiness } from '../business'
import {
  anyDeliveryDue,
  anyUndispatchedEvent,
  claimDueDeliveries,
  claimOutboxEvent,
  deleteDeliveriesBefore,
  finishDelivery,
  insertAttempt,
  insertDelivery,
  insertMessage,
  markDispatched,
  pauseWebhook,
  undispatchedEvents,
  webhooksOf,
  type ClaimedDelivery,
  type OutboxRow,
  type WebhookRow,
} from './webhooks.repo'

/** Waits after each failed attempt; the tenth failure is final. Each wait is lengthened by up to a tenth. */
export const RETRY_WAITS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000]
export const MAX_ATTEMPTS = 10
export const ANSWER_TIMEOUT_MS = 15_000
export const CLAIM_MS = 60_000
/** Past the sender's own limit plus grace, the attempt stops waiting for it whatever sender is injected. */
export const SENDER_SLACK_MS = 1_000
/** Left of the claim for the attempt's own write after the answer (the writer is shared and serialised). */
export const CLAIM_MARGIN_MS = 10_000
/**
 * The longest an attempt may run before its outcome is written: past its claim another process could take the same
 * delivery and send it twice. Every stage is bounded, and a module that breaks this fails to load.
 */
export const ATTEMPT_LIMIT_MS = RESOLVE_TIMEOUT_MS + ANSWER_TIMEOUT_MS + EXCERPT_GRACE_MS + SENDER_SLACK_MS
if (ATTEMPT_LIMIT_MS + CLAIM_MARGIN_MS > CLAIM_MS) throw new Error('a webhook attempt does not fit in its claim')
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000

/** Builds what a message carries, as the API answers it (for an Admin key), from a fresh read after commit. */
export type SubjectBuilder = (kind: 'document' | 'payment', businessId: number, id: number) => Promise<unknown>

export interface DeliveryContext {
  db: Database
  clock: Clock
  logger: Logger
  sender: WebhookSender
  resolve: Resolver
  allowPrivate: boolean
  build: SubjectBuilder
  /** Lengthening of a wait, 0..0.1; injected so tests can pin it. */
  jitter?: () => number
  /** The answer limit (default 15 s); tests shorten it. Never more than fits in the claim. */
  answerTimeoutMs?: number
}

/** `p`, or what `late` gives (or throws) once `ms` have passed, whichever comes first. */

function hears(events: string, type: string): boolean {
  const list = JSON.parse(events) as string[]
  return list.length === 0 || list.includes(type)
}

/** Fans committed outbox events out into one delivery per webhook that hears them; same body, same webhook-id. */
export async function dispatchOutbox(ctx: DeliveryContext, limit = 1000): Promise<number> {
  // Every second, mostly to find nothing: asked first of the hot reader, which builds no rows (none on a libSQL server).
  if (!anyUndispatchedEvent(ctx.db.hot)) return 0
  const pending = await undispatchedEvents(ctx.db.read, limit)
  if (pending.length === 0) return 0
  // Bodies are built before the write, from what the API would answer now, and only for events a webhook hears:
  // a Business without webhooks costs one UPDATE per batch, not a document read per event.
  const hooksOf = new Map<number, WebhookRow[]>()
  const heard: Array<{ event: OutboxRow; body: string }> = []
  const unheard: number[] = []
  for (const event of pending) {
    if (!hooksOf.has(event.businessId)) hooksOf.set(event.businessId, await webhooksOf(ctx.db.read, event.businessId))
    if (!hooksOf.get(event.businessId)!.some((h) => hears(h.events, event.type))) {
      unheard.push(event.id)
      continue
    }
    const businessPublicId = (await getBusiness(ctx.db.read, event.businessId)).publicId
    const subject = await ctx.build(event.subjectType, event.businessId, event.subjectId)
    const body = JSON.stringify({ type: event.type, timestamp: event.occurredAt, business_id: businessPublicId, data: { [event.subjectType]: subject } })
    heard.push({ event, body })
  }
  const now = ctx.clock.now().toISOString()
  await ctx.db.write(async (tx) => {
    await markDispatched(tx, unheard, now)
    for (const { event, body } of heard) {
      // Another process dispatched it meanwhile.
      if (!(await claimOutboxEvent(tx, event.id, now))) continue
      const hooks = await webhooksOf(tx, event.businessId)
      const hearing = hooks.filter((h) => hears(h.events, event.type))
      // One stored body for every webhook that hears the event (and for any resend of it).
      if (hearing.length > 0) await insertMessage(tx, { messageId: event.messageId, businessId: event.businessId, body, createdAt: now })
      for (const h of hearing) {
        await insertDelivery(tx, {
          businessId: event.businessId,
          webhookId: h.id,
          messageId: event.messageId,
          eventType: event.type,
          status: 'pending',
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        })
      }
    }
  })
  return pending.length
}

/** Claims due deliveries atomically: two processes on one file never take the same attempt. */
async function claimDue(ctx: DeliveryContext, limit: number): Promise<ClaimedDelivery[]> {
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  // Every second, mostly to find nothing: a read first, where the claim takes a write transaction.
  if (!anyDeliveryDue(ctx.db.hot, nowIso)) return []
  const token = randomUUID()
  return ctx.db.write((tx) => claimDueDeliveries(tx, nowIso, new Date(now.getTime() + CLAIM_MS).toISOString(), token, limit))
}

/** The secrets that sign now, opened (they are stored sealed): the current one, and the previous one for 24 hours after a roll. */
function signingSecrets(h: WebhookRow, now: Date, box: SecretBox): string[] {
  const out = [h.secret]
  if (h.previousSecret && h.previousSecretUntil && h.previousSecretUntil > now.toISOString()) out.push(h.previousSecret)
  return out.map((s) => box.open(s, 'webhook-secret'))
}

/** One attempt of one claimed delivery, and what follows from its outcome. */
async function attempt(ctx: DeliveryContext, c: ClaimedDelivery): Promise<void> {
  const { delivery, webhook } = c
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  if (c.deletedAt) {
    await ctx.db.write((tx) => finishDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed_unsent', reason: 'the Business was deleted', nextAttemptAt: null, updatedAt: nowIso }))
    return
  }
  if (!webhooksSend(c)) {
    // Nothing is sent while the Business is not on a paid plan (a Test business too); the message is kept for a resend later.
    await ctx.db.write((tx) => finishDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed_unsent', reason: 'the Business is not on a paid plan', nextAttemptAt: null, updatedAt: nowIso }))
    return
  }
  let result: Awaited<ReturnType<WebhookSender['post']>>
  const answerTimeoutMs = Math.min(ctx.answerTimeoutMs ?? ANSWER_TIMEOUT_MS, ANSWER_TIMEOUT_MS)
  try {
    // checkAddress bounds the lookup itself (RESOLVE_TIMEOUT_MS, counted in ATTEMPT_LIMIT_MS).
    const target = await checkAddress(webhook.url, { allowPrivate: ctx.allowPrivate, resolve: ctx.resolve })
    const timestamp = Math.floor(now.getTime() / 1000)
    const post = ctx.sender.post({
      url: target.url,
      address: target.address,
      body: c.body,
      timeoutMs: answerTimeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'invoicing-webhooks/1',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(signingSecrets(webhook, now, ctx.db.secrets), delivery.messageId, timestamp, c.body),
      },
    })
    // httpSender bounds itself (limit + grace); this backstop holds any injected sender to the claim as well.
    const sending = performance.now()
    result = await within(post, answerTimeoutMs + EXCERPT_GRACE_MS + SENDER_SLACK_MS, () => ({
      kind: 'error',
      error: `no answer within ${limitText(answerTimeoutMs)}`,
      durationMs: Math.round(performance.now() - sending),
    }))
  } catch (e) {
    // The address failed its check at delivery time: nothing was connected to.
    result = { kind: 'error', error: e instanceof AddressRefused ? `address refused: ${e.message}` : 'delivery failed before sending', durationMs: 0 }
  }
  const attempts = delivery.attempts + 1
  const ok = result.kind === 'answer' && result.status >= 200 && result.status < 300
  const gone = result.kind === 'answer' && result.status === 410
  await ctx.db.write(async (tx) => {
    await insertAttempt(tx, {
      deliveryId: delivery.id,
      attemptedAt: nowIso,
      durationMs: result.durationMs,
      statusCode: result.kind === 'answer' ? result.status : null,
      error: result.kind === 'error' ? result.error : null,
      responseExcerpt: result.kind === 'answer' ? result.excerpt : null,
    })
    if (ok) return finishDelivery(tx, delivery.id, delivery.claimToken, { status: 'delivered', attempts, nextAttemptAt: null, reason: null, updatedAt: nowIso })
    if (gone) {
      // 410 Gone pauses the webhook until someone turns it on again.
      await pauseWebhook(tx, webhook.id, 'gone', nowIso)
      return finishDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed', attempts, nextAttemptAt: null, reason: 'the address answered 410 Gone; the webhook is paused', updatedAt: nowIso })
    }
    const reason = result.kind === 'answer' ? `answered ${result.status}` : result.error
    if (attempts >= MAX_ATTEMPTS) return finishDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed', attempts, nextAttemptAt: null, reason, updatedAt: nowIso })
    const wait = RETRY_WAITS_MS[attempts - 1]! * (1 + (ctx.jitter ?? (() => Math.random() * 0.1))())
    return finishDelivery(tx, delivery.id, delivery.claimToken, { status: 'pending', attempts, reason, nextAttemptAt: new Date(now.getTime() + Math.round(wait)).toISOString(), updatedAt: nowIso })
  })
}

/** Runs every due attempt (a few at a time); the scheduler calls it each second, tests call it directly. */
export async function deliverDue(ctx: DeliveryContext, limit = 20): Promise<number> {
  const claimed = await claimDue(ctx, limit)
  await Promise.all(claimed.map((c) => attempt(ctx, c).catch((e) => ctx.logger.error('webhook attempt failed', { delivery: c.delivery.id, name: (e as Error)?.name }))))
  return claimed.length
}

/** Retention: deliveries (with their attempts) older than 30 days are erased, their messages and the dispatched outbox events with them. */
export async function pruneDeliveries(db: Database, clock: Clock): Promise<number> {
  const before = new Date(clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString()
  return db.write((tx) => deleteDeliveriesBefore(tx, before))
}

