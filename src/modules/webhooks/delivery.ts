// A Business's webhooks: outbox events fanned out to the webhooks that hear them, then POSTed by the delivery engine
// (engine.ts) on its retry schedule.
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { deliverDueTo, DELIVERY_RETENTION_MS, hears, type DeliveryTarget, type EngineContext } from './engine'
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

/** Builds what a message carries, as the API answers it (for an Admin key), from a fresh read after commit. */
export type SubjectBuilder = (
  kind: 'document' | 'payment' | 'refund',
  businessId: number,
  id: number,
) => Promise<unknown>

export interface DeliveryContext extends EngineContext {
  /** What a message carries, built once at dispatch. */
  build: SubjectBuilder
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
    const body = JSON.stringify({
      type: event.type,
      timestamp: event.occurredAt,
      business_id: businessPublicId,
      data: { [event.subjectType]: subject },
    })
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
      if (hearing.length > 0)
        await insertMessage(tx, { messageId: event.messageId, businessId: event.businessId, body, createdAt: now })
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

/** The secrets that sign now (sealed): the current one, and the previous one for 24 hours after a roll. */
function signingSecrets(h: WebhookRow, now: Date): string[] {
  const out = [h.secret]
  if (h.previousSecret && h.previousSecretUntil && h.previousSecretUntil > now.toISOString()) out.push(h.previousSecret)
  return out
}

/** A Business's webhooks as the engine's target: a message's body is stored once, at dispatch, for every webhook. */
const businessWebhooks: DeliveryTarget<ClaimedDelivery> = {
  name: 'webhook',
  anyDue: anyDeliveryDue,
  claim: claimDueDeliveries,
  async prepare(c, now) {
    if (c.deletedAt) return { unsent: 'the Business was deleted' }
    return { message: async () => ({ body: c.body, secrets: signingSecrets(c.webhook, now) }) }
  },
  recordAttempt: insertAttempt,
  finish: finishDelivery,
  pause: pauseWebhook,
}

/** Runs every due attempt (a few at a time); the scheduler calls it each second, tests call it directly. */
export function deliverDue(ctx: DeliveryContext, limit = 20): Promise<number> {
  return deliverDueTo(ctx, businessWebhooks, limit)
}

/** Retention: deliveries (with their attempts) older than 30 days are erased, their messages and the dispatched outbox events with them. */
export async function pruneDeliveries(db: Database, clock: Clock): Promise<number> {
  const before = new Date(clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString()
  return db.write((tx) => deleteDeliveriesBefore(tx, before))
}
