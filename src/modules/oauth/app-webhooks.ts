// An OAuth app's webhook (contract "OAuth app's webhook", extensions §10): set by its owner, it hears every Business
// where the app has a Connected app that may act. A message is built at its first attempt and kept, its actions
// answered anew at each attempt for the app's Role there (the lowest among its connections); a 2xx counts as a use of
// those connections; when the app leaves a Business its waiting messages fail unsent and their bodies are erased; the
// owner hears of failures at most daily.
import { randomUUID } from 'node:crypto'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import type { Logger } from '../../shared/logger'
import { FieldErrorBag, NotFound } from '../../shared/errors'
import type { WebhookSender } from '../../adapters/http'
import type { Mailer } from '../../adapters/smtp'
import { within } from '../../shared/within'
import {
  AddressRefused,
  ANSWER_TIMEOUT_MS,
  checkAddress,
  CLAIM_MS,
  EVENT_TYPES,
  MAX_ATTEMPTS,
  newWebhookSecret,
  RETRY_WAITS_MS,
  signatureHeader,
  type Resolver,
} from '../webhooks'
import {
  appWebhooksHearing,
  anyAppDeliveryDue,
  claimDueAppDeliveries,
  claimFailureEmail,
  deleteAppDeliveriesBefore,
  finishAppDelivery,
  forgetBusinessForApp,
  insertAppAttempt,
  insertAppDelivery,
  liveRoles,
  outboxAfter,
  outboxCursor,
  pauseAppWebhook,
  setOutboxCursor,
  startOutboxCursor,
  upsertAppWebhook,
  type ClaimedAppDelivery,
} from './app-webhooks.repo'
import { UNUSED_DAYS } from './connections.service'
import { lowestRole, type GrantRole } from './roles'
import { findAppByClientId, touchConnectedApps } from './oauth.repo'
import { and, eq, isNull } from 'drizzle-orm'
import { connectedApps } from '../../db/schema'

const DAY_MS = 24 * 3600_000
const RETENTION_MS = 30 * DAY_MS

function hears(events: string, type: string): boolean {
  const list = JSON.parse(events) as string[]
  return list.length === 0 || list.includes(type)
}

export interface AppWebhookDeps {
  db: Database
  clock: Clock
  resolve: Resolver
  allowPrivate: boolean
}

/** `invoicing app webhook set CLIENT_ID --url U [--events a,b]` and the profile's Apps: the secret is shown once. */
export async function setAppWebhook(d: AppWebhookDeps, clientId: string, input: { url: string; events?: string[] }) {
  const bag = new FieldErrorBag()
  try {
    await checkAddress(input.url, { allowPrivate: d.allowPrivate, resolve: d.resolve })
  } catch (e) {
    bag.add('url', e instanceof AddressRefused ? e.message : 'is not a usable address')
  }
  input.events?.forEach((e, i) => {
    if (!(EVENT_TYPES as readonly string[]).includes(e)) bag.add(`events.${i}`, `must be one of ${EVENT_TYPES.join(', ')}`)
  })
  bag.throwIfAny()
  const app = await findAppByClientId(d.db.read, clientId)
  if (!app) throw new NotFound(`No OAuth app with client_id ${clientId}.`)
  const secret = newWebhookSecret()
  const now = d.clock.now().toISOString()
  const events = [...new Set(input.events ?? [])]
  const hook = await d.db.write(async (tx) => {
    await startOutboxCursor(tx)
    // Stored sealed (secrets at rest, src/db/secrets.ts); opened only to sign.
    return upsertAppWebhook(tx, { appId: app.id, url: input.url, events: JSON.stringify(events), secret: d.db.secrets.seal(secret, 'webhook-secret'), createdAt: now, updatedAt: now })
  })
  return { client_id: clientId, url: hook.url, events, paused: hook.paused, created_at: hook.createdAt, updated_at: hook.updatedAt, secret }
}

export interface AppDeliveryContext extends AppWebhookDeps {
  logger: Logger
  sender: WebhookSender
  /** What a message carries, as the API answers it to a token of this Role. */
  build: (kind: 'document' | 'payment', businessId: number, id: number, role: GrantRole) => Promise<unknown>
  /** The failure email to the app's owner goes through the service's own mail server (INVOICING_MAIL_RELAY). */
  mailRelay: string | null
  mailer: Mailer
  /** The owner's email address (people live in their own module). */
  ownerEmail: (personId: number) => Promise<string | null>
  /** The sender's address of the service's own emails. */
  serviceFrom: string
  jitter?: () => number
  answerTimeoutMs?: number
}

const unusedBefore = (now: Date) => new Date(now.getTime() - UNUSED_DAYS * DAY_MS).toISOString()

/**
 * Fans committed events out to the app webhooks that hear their Business, reading the outbox with a cursor of its own.
 * The first run starts at the end of the outbox: an app hears what happens from then on, not the file's past.
 */
export async function dispatchAppWebhooks(ctx: AppDeliveryContext, limit = 500): Promise<number> {
  const cursor = await outboxCursor(ctx.db.read)
  // No app webhook was ever set: nothing to fan out.
  if (cursor === null) return 0
  const events = await outboxAfter(ctx.db.read, cursor, limit)
  if (events.length === 0) return 0
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  await ctx.db.write(async (tx) => {
    // Another process moved the cursor meanwhile: it fanned these out.
    if ((await outboxCursor(tx)) !== cursor) return
    const hearing = new Map<number, Awaited<ReturnType<typeof appWebhooksHearing>>>()
    for (const e of events) {
      if (!hearing.has(e.businessId)) hearing.set(e.businessId, await appWebhooksHearing(tx, e.businessId, unusedBefore(now)))
      for (const w of hearing.get(e.businessId)!) {
        if (w.paused || !hears(w.events, e.type) || Date.parse(w.createdAt) > Date.parse(e.occurredAt)) continue
        await insertAppDelivery(tx, {
          appWebhookId: w.id,
          businessId: e.businessId,
          outboxId: e.id,
          messageId: e.messageId,
          eventType: e.type,
          status: 'pending',
          nextAttemptAt: nowIso,
          createdAt: nowIso,
          updatedAt: nowIso,
        })
      }
    }
    await setOutboxCursor(tx, events[events.length - 1]!.id)
  })
  return events.length
}

async function emailOwner(ctx: AppDeliveryContext, c: ClaimedAppDelivery, why: string): Promise<void> {
  if (!ctx.mailRelay || c.ownerPersonId === null) return
  const to = await ctx.ownerEmail(c.ownerPersonId)
  if (!to) return
  const now = ctx.clock.now()
  const claimed = await ctx.db.write((tx) => claimFailureEmail(tx, c.webhook.id, now.toISOString(), new Date(now.getTime() - DAY_MS).toISOString()))
  if (!claimed) return
  try {
    await ctx.mailer.send(ctx.mailRelay, {
      from: { name: 'invoicing', address: ctx.serviceFrom },
      to: [to],
      cc: [],
      bcc: [],
      subject: `Your app ${c.appName}: a webhook message was not delivered`,
      text:
        `A message to the webhook of your OAuth app "${c.appName}" (${c.webhook.url}) was not delivered: ${why}.\n\n` +
        `Event: ${c.delivery.eventType}, webhook-id ${c.delivery.messageId}.\n` +
        'Look at the deliveries under Profile → Apps. You get at most one such email a day.\n',
      attachments: [],
    })
  } catch (e) {
    ctx.logger.error('app webhook failure email not sent', { name: (e as Error)?.name })
  }
}

async function attempt(ctx: AppDeliveryContext, c: ClaimedAppDelivery): Promise<void> {
  const { delivery, webhook } = c
  const now = ctx.clock.now()
  const nowIso = now.toISOString()
  const roles = await liveRoles(ctx.db.read, webhook.appId, delivery.businessId, unusedBefore(now))
  if (roles.length === 0) {
    // The app no longer hears this Business (ended, or unused 90 days before the job marked it).
    await ctx.db.write(async (tx) => {
      await finishAppDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed_unsent', reason: 'app_not_connected', nextAttemptAt: null, updatedAt: nowIso })
      await forgetBusinessForApp(tx, webhook.appId, delivery.businessId, nowIso)
    })
    return
  }
  if (c.plan === 'free' || c.plan === 'paused') {
    await ctx.db.write((tx) => finishAppDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed_unsent', reason: 'the Business is not on a paid plan', nextAttemptAt: null, updatedAt: nowIso }))
    return
  }
  const role = lowestRole(roles)
  const subject = await ctx.build(c.subjectType, delivery.businessId, c.subjectId, role)
  // The message is built once (its first attempt) and kept: retries and resends carry the same body, with only the
  // document's actions answered anew for the app's Role at this attempt (contract, "Outbound webhooks" 4).
  const body = delivery.body
    ? withActionsOf(delivery.body, c.subjectType, subject)
    : JSON.stringify({ type: delivery.eventType, timestamp: c.occurredAt, business_id: c.businessPublicId, data: { [c.subjectType]: subject } })
  const answerTimeoutMs = Math.min(ctx.answerTimeoutMs ?? ANSWER_TIMEOUT_MS, ANSWER_TIMEOUT_MS)
  let result: Awaited<ReturnType<WebhookSender['post']>>
  try {
    const target = await checkAddress(webhook.url, { allowPrivate: ctx.allowPrivate, resolve: ctx.resolve })
    const timestamp = Math.floor(now.getTime() / 1000)
    const started = performance.now()
    result = await within(
      ctx.sender.post({
        url: target.url,
        address: target.address,
        body,
        timeoutMs: answerTimeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'invoicing-webhooks/1',
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader([ctx.db.secrets.open(webhook.secret, 'webhook-secret')], delivery.messageId, timestamp, body),
        },
      }),
      answerTimeoutMs + 2_000,
      () => ({ kind: 'error', error: 'no answer in time', durationMs: Math.round(performance.now() - started) }),
    )
  } catch (e) {
    result = { kind: 'error', error: e instanceof AddressRefused ? `address refused: ${e.message}` : 'delivery failed before sending', durationMs: 0 }
  }
  const attempts = delivery.attempts + 1
  const ok = result.kind === 'answer' && result.status >= 200 && result.status < 300
  const gone = result.kind === 'answer' && result.status === 410
  let failedForGood: string | null = null
  await ctx.db.write(async (tx) => {
    await insertAppAttempt(tx, {
      deliveryId: delivery.id,
      attemptedAt: nowIso,
      durationMs: result.durationMs,
      statusCode: result.kind === 'answer' ? result.status : null,
      error: result.kind === 'error' ? result.error : null,
      responseExcerpt: result.kind === 'answer' ? result.excerpt : null,
    })
    if (ok) {
      await finishAppDelivery(tx, delivery.id, delivery.claimToken, { status: 'delivered', body, attempts, nextAttemptAt: null, reason: null, updatedAt: nowIso })
      // A message taken counts as a use of the app's connections to that Business.
      const live = await tx
        .select({ id: connectedApps.id })
        .from(connectedApps)
        .where(and(eq(connectedApps.appId, webhook.appId), eq(connectedApps.businessId, delivery.businessId), isNull(connectedApps.endedAt)))
      await touchConnectedApps(tx, live.map((l) => l.id), nowIso)
      return
    }
    if (gone) {
      await pauseAppWebhook(tx, webhook.id, 'gone', nowIso)
      failedForGood = 'the address answered 410 Gone, so the webhook is paused until you turn it on'
      return finishAppDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed', body, attempts, nextAttemptAt: null, reason: 'the address answered 410 Gone; the webhook is paused', updatedAt: nowIso })
    }
    const reason = result.kind === 'answer' ? `answered ${result.status}` : result.error
    if (attempts >= MAX_ATTEMPTS) {
      failedForGood = `its last attempt failed (${reason})`
      return finishAppDelivery(tx, delivery.id, delivery.claimToken, { status: 'failed', body, attempts, nextAttemptAt: null, reason, updatedAt: nowIso })
    }
    const wait = RETRY_WAITS_MS[attempts - 1]! * (1 + (ctx.jitter ?? (() => Math.random() * 0.1))())
    return finishAppDelivery(tx, delivery.id, delivery.claimToken, { status: 'pending', body, attempts, reason, nextAttemptAt: new Date(now.getTime() + Math.round(wait)).toISOString(), updatedAt: nowIso })
  })
  if (failedForGood) await emailOwner(ctx, c, failedForGood)
}

/** The kept body with the subject's `actions` replaced by those answered now (a Payment has none: kept as it is). */
function withActionsOf(kept: string, subjectType: string, fresh: unknown): string {
  const message = JSON.parse(kept) as { data: Record<string, Record<string, unknown>> }
  const stored = message.data?.[subjectType]
  const now = (fresh as Record<string, unknown> | null)?.actions
  if (!stored || !('actions' in stored) || now === undefined) return kept
  stored.actions = now
  return JSON.stringify(message)
}

/** Runs every due attempt of app webhooks (a few at a time); the scheduler calls it each second. */
export async function deliverDueAppWebhooks(ctx: AppDeliveryContext, limit = 20): Promise<number> {
  const now = ctx.clock.now()
  // Every second, mostly to find nothing: a read first, where the claim takes a write transaction.
  if (!anyAppDeliveryDue(ctx.db.hot, now.toISOString())) return 0
  const token = randomUUID()
  const claimed = await ctx.db.write((tx) => claimDueAppDeliveries(tx, now.toISOString(), new Date(now.getTime() + CLAIM_MS).toISOString(), token, limit))
  await Promise.all(claimed.map((c) => attempt(ctx, c).catch((e) => ctx.logger.error('app webhook attempt failed', { delivery: c.delivery.id, name: (e as Error)?.name }))))
  return claimed.length
}

/** Retention: deliveries of app webhooks older than 30 days are erased. */
export async function pruneAppDeliveries(db: Database, clock: Clock): Promise<void> {
  await db.write((tx) => deleteAppDeliveriesBefore(tx, new Date(clock.now().getTime() - RETENTION_MS).toISOString()))
}
