// Webhook management (extensions §5): add, read, change, pause, roll the secret, delete, deliveries, resend.
import { webhooksPlanRefusal } from '../../platform/policy'
import type { Database } from '../../db/client'
import { SECRET_LOST_REASON } from '../../db/secrets'
import { getBusiness } from '../business'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, NotFound, Refusal } from '../../shared/errors'
import { AddressRefused, checkAddress, type Resolver } from './address-guard'
import { DELIVERY_RETENTION_MS } from './engine'
import { EVENT_TYPES } from './events'
import { newSecret } from './signature'
import {
  attemptsOf,
  countWebhooks,
  createDelivery,
  deleteOwnWebhook,
  deliveryPage,
  findDelivery,
  findWebhook,
  insertWebhook,
  updateOwnWebhook,
  webhookPage,
  type AttemptRow,
  type DeliveryRow,
  type WebhookRow,
} from './webhooks.repo'

const MAX_WEBHOOKS = 10
const ROLL_OVERLAP_MS = 24 * 60 * 60 * 1000

export interface WebhookDeps {
  db: Database
  clock: Clock
  resolve: Resolver
  allowPrivate: boolean
}

export function presentWebhook(h: WebhookRow, secret?: string) {
  return {
    id: h.id,
    url: h.url,
    events: JSON.parse(h.events) as string[],
    paused: h.paused,
    paused_reason: h.pausedReason,
    created_at: h.createdAt,
    updated_at: h.updatedAt,
    ...(secret ? { secret } : {}),
  }
}

async function checkUrl(deps: WebhookDeps, url: string, bag: FieldErrorBag): Promise<void> {
  try {
    await checkAddress(url, { allowPrivate: deps.allowPrivate, resolve: deps.resolve })
  } catch (e) {
    bag.add('url', e instanceof AddressRefused ? e.message : 'is not a usable address')
  }
}

function checkEvents(events: string[] | undefined, bag: FieldErrorBag): void {
  events?.forEach((e, i) => {
    if (!(EVENT_TYPES as readonly string[]).includes(e))
      bag.add(`events.${i}`, `must be one of ${EVENT_TYPES.join(', ')}`)
  })
}

async function own(db: Database, businessId: number, id: number): Promise<WebhookRow> {
  const row = await findWebhook(db.read, businessId, id)
  if (!row) throw new NotFound('No such webhook.')
  return row
}

export async function addWebhook(deps: WebhookDeps, businessId: number, input: { url: string; events?: string[] }) {
  const bag = new FieldErrorBag()
  checkEvents(input.events, bag)
  await checkUrl(deps, input.url, bag)
  bag.throwIfAny()
  const secret = newSecret()
  const now = deps.clock.now().toISOString()
  // The answer is built inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
  return deps.db.write(async (tx) => {
    const n = await countWebhooks(tx, businessId)
    if (n >= MAX_WEBHOOKS) throw Refusal.say('webhook_limit_reached', { max: MAX_WEBHOOKS })
    const row = await insertWebhook(tx, {
      businessId,
      url: input.url,
      events: JSON.stringify([...new Set(input.events ?? [])]),
      secret: deps.db.secrets.seal(secret, 'webhook-secret'),
      createdAt: now,
      updatedAt: now,
    })
    return presentWebhook(row, secret)
  })
}

export async function listWebhooks(deps: WebhookDeps, businessId: number, afterId: number, limit: number) {
  const rows = await webhookPage(deps.db.read, businessId, afterId, limit)
  return rows
}

export async function getWebhook(deps: WebhookDeps, businessId: number, id: number) {
  return presentWebhook(await own(deps.db, businessId, id))
}

export async function updateWebhook(
  deps: WebhookDeps,
  businessId: number,
  id: number,
  input: { url?: string; events?: string[]; paused?: boolean },
) {
  const current = await own(deps.db, businessId, id)
  const bag = new FieldErrorBag()
  // Its secret was lost with the key (`invoicing secrets forget`): on again, it would sign with a secret no one has.
  if (input.paused === false && current.paused && current.pausedReason === SECRET_LOST_REASON) {
    bag.add('paused', 'its signing secret was lost: roll the secret, which turns the webhook on again')
  }
  checkEvents(input.events, bag)
  if (input.url !== undefined) await checkUrl(deps, input.url, bag)
  bag.throwIfAny()
  const set: Partial<WebhookRow> = { updatedAt: deps.clock.now().toISOString() }
  if (input.url !== undefined) set.url = input.url
  if (input.events !== undefined) set.events = JSON.stringify([...new Set(input.events)])
  if (input.paused !== undefined) {
    set.paused = input.paused
    set.pausedReason = input.paused ? 'by_request' : null
  }
  const row = await deps.db.write((tx) => updateOwnWebhook(tx, businessId, id, set))
  if (!row) throw new NotFound('No such webhook.')
  return presentWebhook(row)
}

export async function deleteWebhook(deps: WebhookDeps, businessId: number, id: number): Promise<void> {
  await own(deps.db, businessId, id)
  await deps.db.write((tx) => deleteOwnWebhook(tx, businessId, id))
}

/**
 * A new secret, shown once; the old one keeps signing beside it for 24 hours. Read and written in one transaction, so
 * two rolls at once keep a true previous secret and a webhook deleted meanwhile is a 404, not a failure. A webhook
 * paused because its secret was lost (`invoicing secrets forget`) has no old secret worth signing with: the roll
 * resumes it, signing with the new secret alone.
 */
export async function rollSecret(deps: WebhookDeps, businessId: number, id: number) {
  const now = deps.clock.now()
  const secret = newSecret()
  const row = await deps.db.write(async (tx) => {
    const current = await findWebhook(tx, businessId, id)
    if (!current) throw new NotFound('No such webhook.')
    const lost = current.paused && current.pausedReason === SECRET_LOST_REASON
    return updateOwnWebhook(tx, businessId, id, {
      secret: deps.db.secrets.seal(secret, 'webhook-secret'),
      // Moved as stored (sealed): it is opened only to sign.
      previousSecret: lost ? null : current.secret,
      previousSecretUntil: lost ? null : new Date(now.getTime() + ROLL_OVERLAP_MS).toISOString(),
      ...(lost ? { paused: false, pausedReason: null } : {}),
      updatedAt: now.toISOString(),
    })
  })
  if (!row) throw new NotFound('No such webhook.')
  return presentWebhook(row, secret)
}

function presentDelivery(d: DeliveryRow, attempts: AttemptRow[], url: string) {
  return {
    id: d.id,
    webhook_id: d.webhookId,
    webhook_message_id: d.messageId,
    event: d.eventType,
    url,
    status: d.status,
    reason: d.reason,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    attempts: attempts.map((a) => ({
      at: a.attemptedAt,
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      response: a.responseExcerpt,
    })),
  }
}

export async function listDeliveries(
  deps: WebhookDeps,
  businessId: number,
  webhookId: number,
  afterId: number,
  limit: number,
) {
  const hook = await own(deps.db, businessId, webhookId)
  const since = new Date(deps.clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString()
  const rows = await deliveryPage(deps.db.read, webhookId, afterId, since, limit)
  const attempts = rows.length
    ? await attemptsOf(
        deps.db.read,
        rows.map((r) => r.id),
      )
    : []
  return rows.map((d) => ({
    id: d.id,
    view: presentDelivery(
      d,
      attempts.filter((a) => a.deliveryId === d.id),
      hook.url,
    ),
  }))
}

/** Sends a stored message again as a new delivery with the same body and webhook-id. */
export async function resendDelivery(deps: WebhookDeps, businessId: number, deliveryId: number) {
  const d = await findDelivery(deps.db.read, businessId, deliveryId)
  if (!d) throw new NotFound('No such delivery.')
  const hook = await own(deps.db, businessId, d.webhookId)
  const business = await getBusiness(deps.db.read, businessId)
  // A Test business is held to the same rule: the contract exempts no Business from it.
  const plan = webhooksPlanRefusal(business)
  if (plan) throw plan
  if (hook.paused) throw Refusal.say('webhook_paused')
  const now = deps.clock.now().toISOString()
  // The answer is built inside the transaction: a keyed request's answer commits with the change (platform/idempotency.ts).
  return deps.db.write(async (tx) =>
    presentDelivery(
      await createDelivery(tx, {
        businessId,
        webhookId: d.webhookId,
        messageId: d.messageId,
        eventType: d.eventType,
        status: 'pending',
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      }),
      [],
      hook.url,
    ),
  )
}
