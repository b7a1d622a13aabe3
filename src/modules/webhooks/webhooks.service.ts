// Webhook management (extensions §5): add, read, change, pause, roll the secret, delete, deliveries, resend.
import { webhooksSend } from '../../platform/policy'
import type { Database } from '../../db/client'
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
    if (!(EVENT_TYPES as readonly string[]).includes(e)) bag.add(`events.${i}`, `must be one of ${EVENT_TYPES.join(', ')}`)
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
  const row = await deps.db.write(async (tx) => {
    const n = await countWebhooks(tx, businessId)
    if (n >= MAX_WEBHOOKS) throw new Refusal('webhook_limit_reached', `A Business has at most ${MAX_WEBHOOKS} webhooks; delete one first.`)
    return insertWebhook(tx, { businessId, url: input.url, events: JSON.stringify([...new Set(input.events ?? [])]), secret: deps.db.secrets.seal(secret, 'webhook-secret'), createdAt: now, updatedAt: now })
  })
  return presentWebhook(row, secret)
}

export async function listWebhooks(deps: WebhookDeps, businessId: number, afterId: number, limit: number) {
  const rows = await webhookPage(deps.db.read, businessId, afterId, limit)
  return rows
}

export async function getWebhook(deps: WebhookDeps, businessId: number, id: number) {
  return presentWebhook(await own(deps.db, businessId, id))
}

export async function updateWebhook(deps: WebhookDeps, businessId: number, id: number, input: { url?: string; events?: string[]; paused?: boolean }) {
  await own(deps.db, businessId, id)
  const bag = new FieldErrorBag()
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
 * two rolls at once keep a true previous secret and a webhook deleted meanwhile is a 404, not a failure.
 */
export async function rollSecret(deps: WebhookDeps, businessId: number, id: number) {
  const now = deps.clock.now()
  const secret = newSecret()
  const row = await deps.db.write(async (tx) => {
    const current = await findWebhook(tx, businessId, id)
    if (!current) throw new NotFound('No such webhook.')
    return updateOwnWebhook(tx, businessId, id, {
      secret: deps.db.secrets.seal(secret, 'webhook-secret'),
      // Moved as stored (sealed): it is opened only to sign.
      previousSecret: current.secret,
      previousSecretUntil: new Date(now.getTime() + ROLL_OVERLAP_MS).toISOString(),
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
    attempts: attempts.map((a) => ({ at: a.attemptedAt, duration_ms: a.durationMs, status_code: a.statusCode, error: a.error, response: a.responseExcerpt })),
  }
}

export async function listDeliveries(deps: WebhookDeps, businessId: number, webhookId: number, afterId: number, limit: number) {
  const hook = await own(deps.db, businessId, webhookId)
  const since = new Date(deps.clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString()
  const rows = await deliveryPage(deps.db.read, webhookId, afterId, since, limit)
  const attempts = rows.length ? await attemptsOf(deps.db.read, rows.map((r) => r.id)) : []
  return rows.map((d) => ({ id: d.id, view: presentDelivery(d, attempts.filter((a) => a.deliveryId === d.id), hook.url) }))
}

/** Sends a stored message again as a new delivery with the same body and webhook-id. */
export async function resendDelivery(deps: WebhookDeps, businessId: number, deliveryId: number) {
  const d = await findDelivery(deps.db.read, businessId, deliveryId)
  if (!d) throw new NotFound('No such delivery.')
  const hook = await own(deps.db, businessId, d.webhookId)
  const business = await getBusiness(deps.db.read, businessId)
  // A Test business is held to the same rule: the contract exempts no Business from it.
  if (!webhooksSend(business)) {
    throw new Refusal('webhooks_need_a_paid_plan', 'Webhooks are sent only on a paid plan; the Owner chooses one in billing settings.', { remedy: 'choose_plan' })
  }
  if (hook.paused) throw new Refusal('webhook_paused', 'The webhook is paused; turn it on (PATCH paused: false) first.')
  const now = deps.clock.now().toISOString()
  const row = await deps.db.write((tx) =>
    createDelivery(tx, { businessId, webhookId: d.webhookId, messageId: d.messageId, eventType: d.eventType, status: 'pending', nextAttemptAt: now, createdAt: now, updatedAt: now }),
  )
  return presentDelivery(row, [], hook.url)
}

