// An OAuth app's webhook (contract "OAuth app's webhook", extensions §10): set by its owner, it hears every Business
// where the app has a Connected app that may act. A message is built at its first attempt and kept, its actions
// answered anew at each attempt for the app's Role there (the lowest among its connections); a 2xx counts as a use of
// those connections; when the app leaves a Business its waiting messages fail unsent and their bodies are erased; the
// owner hears of failures at most daily.
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, NotFound } from '../../shared/errors'
import type { Mailer } from '../../adapters/smtp'
import {
  AddressRefused,
  checkAddress,
  deliverDueTo,
  DELIVERY_RETENTION_MS,
  EVENT_TYPES,
  hears,
  newWebhookSecret,
  type DeliveryTarget,
  type EngineContext,
  type WebhookDeps,
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
import { findAppByClientId, touchLiveConnections } from './oauth.repo'

const DAY_MS = 24 * 3600_000

/** What setting an app's webhook needs: the same as a Business's webhook (the address rules are one). */
export type AppWebhookDeps = WebhookDeps

/** `invoicing app webhook set CLIENT_ID --url U [--events a,b]` and the profile's Apps: the secret is shown once. */
export async function setAppWebhook(d: AppWebhookDeps, clientId: string, input: { url: string; events?: string[] }) {
  const bag = new FieldErrorBag()
  try {
    await checkAddress(input.url, { allowPrivate: d.allowPrivate, resolve: d.resolve })
  } catch (e) {
    bag.add('url', e instanceof AddressRefused ? e.message : 'is not a usable address')
  }
  input.events?.forEach((e, i) => {
    if (!(EVENT_TYPES as readonly string[]).includes(e))
      bag.add(`events.${i}`, `must be one of ${EVENT_TYPES.join(', ')}`)
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
    return upsertAppWebhook(tx, {
      appId: app.id,
      url: input.url,
      events: JSON.stringify(events),
      secret: d.db.secrets.seal(secret, 'webhook-secret'),
      createdAt: now,
      updatedAt: now,
    })
  })
  return {
    client_id: clientId,
    url: hook.url,
    events,
    paused: hook.paused,
    created_at: hook.createdAt,
    updated_at: hook.updatedAt,
    secret,
  }
}

export interface AppDeliveryContext extends AppWebhookDeps, EngineContext {
  /** What a message carries, as the API answers it to a token of this Role. */
  build: (kind: 'document' | 'payment' | 'refund', businessId: number, id: number, role: GrantRole) => Promise<unknown>
  /** The failure email to the app's owner goes through the service's own mail server (INVOICING_MAIL_RELAY). */
  mailRelay: string | null
  mailer: Mailer
  /** The owner's email address (people live in their own module). */
  ownerEmail: (personId: number) => Promise<string | null>
  /** The sender's address of the service's own emails. */
  serviceFrom: string
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
      if (!hearing.has(e.businessId))
        hearing.set(e.businessId, await appWebhooksHearing(tx, e.businessId, unusedBefore(now)))
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
  const claimed = await ctx.db.write((tx) =>
    claimFailureEmail(tx, c.webhook.id, now.toISOString(), new Date(now.getTime() - DAY_MS).toISOString()),
  )
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

/**
 * An OAuth app's webhook as the engine's target. A message is built at its first attempt and kept on the delivery;
 * each attempt answers its actions anew for the app's Role in that Business then.
 */
function appWebhooks(ctx: AppDeliveryContext): DeliveryTarget<ClaimedAppDelivery> {
  return {
    name: 'app webhook',
    anyDue: anyAppDeliveryDue,
    claim: claimDueAppDeliveries,
    async prepare(c, now) {
      const { delivery, webhook } = c
      const roles = await liveRoles(ctx.db.read, webhook.appId, delivery.businessId, unusedBefore(now))
      if (roles.length === 0) {
        // The app no longer hears this Business (ended, or unused 90 days before the job marked it).
        return {
          unsent: 'app_not_connected',
          also: (tx) => forgetBusinessForApp(tx, webhook.appId, delivery.businessId, now.toISOString()),
        }
      }
      return {
        async message() {
          const subject = await ctx.build(c.subjectType, delivery.businessId, c.subjectId, lowestRole(roles))
          // The message is built once (its first attempt) and kept: retries and resends carry the same body, with only
          // the document's actions answered anew for the app's Role at this attempt (contract, "Outbound webhooks" 4).
          const body = delivery.body
            ? withActionsOf(delivery.body, c.subjectType, subject)
            : JSON.stringify({
                type: delivery.eventType,
                timestamp: c.occurredAt,
                business_id: c.businessPublicId,
                data: { [c.subjectType]: subject },
              })
          return { body, secrets: [webhook.secret], keep: { body } }
        },
      }
    },
    recordAttempt: insertAppAttempt,
    finish: finishAppDelivery,
    pause: pauseAppWebhook,
    async delivered(tx, c, nowIso) {
      // A message taken counts as a use of the app's connections to that Business.
      await touchLiveConnections(tx, c.webhook.appId, c.delivery.businessId, nowIso)
    },
    failedForGood: (c, why) => emailOwner(ctx, c, why),
  }
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
export function deliverDueAppWebhooks(ctx: AppDeliveryContext, limit = 20): Promise<number> {
  return deliverDueTo(ctx, appWebhooks(ctx), limit)
}

/** Retention: deliveries of app webhooks older than 30 days are erased. */
export async function pruneAppDeliveries(db: Database, clock: Clock): Promise<void> {
  await db.write((tx) =>
    deleteAppDeliveriesBefore(tx, new Date(clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString()),
  )
}
