// The one webhook delivery engine, for a Business's webhooks and an OAuth app's alike (the target a parameter): claims
// due deliveries, signs (Standard Webhooks), sends under the outbound address rules, records each attempt, backs off,
// pauses on 410 Gone. What differs between the two (their tables, how a message is made, what a success or a final
// failure also does) is the target's.
import { randomUUID } from 'node:crypto'
import type { Database, Tx } from '../../db/client'
import type { HotReader } from '../../db/hot'
import type { Clock } from '../../shared/clock'
import type { Logger } from '../../shared/logger'
import { within } from '../../shared/within'
import { webhooksSend } from '../../platform/policy'
import { EXCERPT_GRACE_MS, limitText, type PostResult, type WebhookSender } from '../../adapters/http'
import { AddressRefused, checkAddress, RESOLVE_TIMEOUT_MS, type Resolver } from './address-guard'
import { signatureHeader } from './signature'

/** Waits after each failed attempt; the tenth failure is final. Each wait is lengthened by up to a tenth. */
export const RETRY_WAITS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
]
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
/** Deliveries (with their attempts) are kept this long, a Business's and an app's alike. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000

/** Whether a webhook that hears `events` (a JSON list; empty hears every event) hears an event of `type`. */
export function hears(events: string, type: string): boolean {
  const list = JSON.parse(events) as string[]
  return list.length === 0 || list.includes(type)
}

/** What the engine needs of the service, whichever the target. */
export interface EngineContext {
  db: Database
  clock: Clock
  logger: Logger
  sender: WebhookSender
  resolve: Resolver
  allowPrivate: boolean
  /** Lengthening of a wait, 0..0.1; injected so tests can pin it. */
  jitter?: () => number
  /** The answer limit (default 15 s); tests shorten it. Never more than fits in the claim. */
  answerTimeoutMs?: number
}

/** A delivery the engine claimed: what every target's claim reads back, and the Business's plan. */
export interface Claimed {
  delivery: { id: number; claimToken: string | null; attempts: number; messageId: string }
  webhook: { id: number; url: string }
  plan: string
}

/** The columns of a delivery an attempt sets, whichever the target's table. */
export interface Outcome {
  status: 'pending' | 'delivered' | 'failed' | 'failed_unsent'
  attempts?: number
  nextAttemptAt: string | null
  reason: string | null
  updatedAt: string
}

/** The message an attempt sends: its body, the sealed secrets that sign it, and columns kept with the outcome. */
export interface Message {
  body: string
  secrets: string[]
  keep?: Record<string, unknown>
}

/** Before sending: nothing will ever be sent (with what else that changes), or how to make the message. */
export type Preparation = { unsent: string; also?: (tx: Tx) => Promise<void> } | { message: () => Promise<Message> }

/** One kind of webhook: its tables, and what is its own in an attempt. */
export interface DeliveryTarget<C extends Claimed> {
  /** Named in the log when an attempt fails unexpectedly. */
  name: string
  /** Whether anything may be due: one read on the hot reader (true without one), so an idle server writes nothing. */
  anyDue(hot: HotReader | null, nowIso: string): boolean
  /** Claims due deliveries inside the engine's one write transaction, marking them with `token` until `claimedUntil`. */
  claim(tx: Tx, nowIso: string, claimedUntil: string, token: string, limit: number): Promise<C[]>
  /** Asked first, before the plan gate: whether this message can still be sent, and how it is made. */
  prepare(c: C, now: Date): Promise<Preparation>
  recordAttempt(
    tx: Tx,
    a: {
      deliveryId: number
      attemptedAt: string
      durationMs: number
      statusCode: number | null
      error: string | null
      responseExcerpt: string | null
    },
  ): Promise<void>
  /** Writes the outcome and releases the claim, only while `token` still holds it. */
  finish(tx: Tx, id: number, token: string | null, set: Outcome & Record<string, unknown>): Promise<void>
  pause(tx: Tx, webhookId: number, reason: string, at: string): Promise<void>
  /** In the outcome's transaction, after a 2xx. */
  delivered?(tx: Tx, c: C, nowIso: string): Promise<void>
  /** After the outcome is written, when the message failed for good (`why` in a sentence for a person). */
  failedForGood?(c: C, why: string): Promise<void>
}

/** Runs every due attempt of the target (a few at a time); the scheduler calls it each second, tests call it directly. */
export async function deliverDueTo<C extends Claimed>(
  ctx: EngineContext,
  target: DeliveryTarget<C>,
  limit = 20,
): Promise<number> {
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  // Every second, mostly to find nothing: a read first, where the claim takes a write transaction.
  if (!target.anyDue(ctx.db.hot, nowIso)) return 0
  const token = randomUUID()
  // Selected, marked and read back in one write transaction: two processes on one file never take the same attempt.
  const claimed = await ctx.db.write((tx) =>
    target.claim(tx, nowIso, new Date(now.getTime() + CLAIM_MS).toISOString(), token, limit),
  )
  await Promise.all(
    claimed.map((c) =>
      attempt(ctx, target, c).catch((e) =>
        ctx.logger.error(`${target.name} attempt failed`, { delivery: c.delivery.id, name: (e as Error)?.name }),
      ),
    ),
  )
  return claimed.length
}

/** The POST of one message under the address rules and the answer limit; a failure before sending is an outcome too. */
async function send(ctx: EngineContext, url: string, messageId: string, m: Message, now: Date): Promise<PostResult> {
  const answerTimeoutMs = Math.min(ctx.answerTimeoutMs ?? ANSWER_TIMEOUT_MS, ANSWER_TIMEOUT_MS)
  try {
    // checkAddress bounds the lookup itself (RESOLVE_TIMEOUT_MS, counted in ATTEMPT_LIMIT_MS).
    const target = await checkAddress(url, { allowPrivate: ctx.allowPrivate, resolve: ctx.resolve })
    const timestamp = Math.floor(now.getTime() / 1000)
    const secrets = m.secrets.map((s) => ctx.db.secrets.open(s, 'webhook-secret'))
    const post = ctx.sender.post({
      url: target.url,
      address: target.address,
      body: m.body,
      timeoutMs: answerTimeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'invoicing-webhooks/1',
        'webhook-id': messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, messageId, timestamp, m.body),
      },
    })
    // httpSender bounds itself (limit + grace); this backstop holds any injected sender to the claim as well.
    const sending = performance.now()
    return await within(post, answerTimeoutMs + EXCERPT_GRACE_MS + SENDER_SLACK_MS, () => ({
      kind: 'error',
      error: `no answer within ${limitText(answerTimeoutMs)}`,
      durationMs: Math.round(performance.now() - sending),
    }))
  } catch (e) {
    // The address failed its check at delivery time: nothing was connected to.
    return {
      kind: 'error',
      error: e instanceof AddressRefused ? `address refused: ${e.message}` : 'delivery failed before sending',
      durationMs: 0,
    }
  }
}

/** One attempt of one claimed delivery, and what follows from its outcome. */
async function attempt<C extends Claimed>(ctx: EngineContext, target: DeliveryTarget<C>, c: C): Promise<void> {
  const { delivery, webhook } = c
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  const unsent = (reason: string, also?: (tx: Tx) => Promise<void>) =>
    ctx.db.write(async (tx) => {
      await target.finish(tx, delivery.id, delivery.claimToken, {
        status: 'failed_unsent',
        reason,
        nextAttemptAt: null,
        updatedAt: nowIso,
      })
      await also?.(tx)
    })
  const prepared = await target.prepare(c, now)
  if ('unsent' in prepared) return unsent(prepared.unsent, prepared.also)
  // Nothing is sent while the Business is not on a paid plan (a Test business too); the message is kept for a resend later.
  if (!webhooksSend(c)) return unsent('the Business is not on a paid plan')
  const message = await prepared.message()
  const result = await send(ctx, webhook.url, delivery.messageId, message, now)
  const attempts = delivery.attempts + 1
  const ok = result.kind === 'answer' && result.status >= 200 && result.status < 300
  const gone = result.kind === 'answer' && result.status === 410
  const keep = message.keep ?? {}
  let failedForGood: string | null = null
  await ctx.db.write(async (tx) => {
    await target.recordAttempt(tx, {
      deliveryId: delivery.id,
      attemptedAt: nowIso,
      durationMs: result.durationMs,
      statusCode: result.kind === 'answer' ? result.status : null,
      error: result.kind === 'error' ? result.error : null,
      responseExcerpt: result.kind === 'answer' ? result.excerpt : null,
    })
    if (ok) {
      await target.finish(tx, delivery.id, delivery.claimToken, {
        ...keep,
        status: 'delivered',
        attempts,
        nextAttemptAt: null,
        reason: null,
        updatedAt: nowIso,
      })
      return target.delivered?.(tx, c, nowIso)
    }
    if (gone) {
      // 410 Gone pauses the webhook until someone turns it on again.
      await target.pause(tx, webhook.id, 'gone', nowIso)
      failedForGood = 'the address answered 410 Gone, so the webhook is paused until you turn it on'
      return target.finish(tx, delivery.id, delivery.claimToken, {
        ...keep,
        status: 'failed',
        attempts,
        nextAttemptAt: null,
        reason: 'the address answered 410 Gone; the webhook is paused',
        updatedAt: nowIso,
      })
    }
    const reason = result.kind === 'answer' ? `answered ${result.status}` : result.error
    if (attempts >= MAX_ATTEMPTS) {
      failedForGood = `its last attempt failed (${reason})`
      return target.finish(tx, delivery.id, delivery.claimToken, {
        ...keep,
        status: 'failed',
        attempts,
        nextAttemptAt: null,
        reason,
        updatedAt: nowIso,
      })
    }
    const wait = RETRY_WAITS_MS[attempts - 1]! * (1 + (ctx.jitter ?? (() => Math.random() * 0.1))())
    return target.finish(tx, delivery.id, delivery.claimToken, {
      ...keep,
      status: 'pending',
      attempts,
      reason,
      nextAttemptAt: new Date(now.getTime() + Math.round(wait)).toISOString(),
      updatedAt: nowIso,
    })
  })
  if (failedForGood !== null && target.failedForGood) await target.failedForGood(c, failedForGood)
}
