// The OAuth apps a person owns, as the application's profile → Apps manages them (extensions §9, §10): register (the
// redirect URIs judged as dynamic registration judges them, an optional webhook under the webhook address rules),
// roll the client secret, change name and redirect URIs, the app's webhook and its deliveries with Resend, delete.
// Every function takes the owner: another person's app is answered as no app at all.
import { and, desc, eq, gte, inArray, isNull } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { SECRET_LOST_REASON } from '../../db/secrets'
import {
  appWebhookAttempts,
  appWebhookDeliveries,
  appWebhooks,
  businesses,
  connectedApps,
  oauthApps,
  oauthRedirectUris,
} from '../../db/schema'
import { FieldErrorBag, InvalidRequest, NotFound, Refusal } from '../../shared/errors'
import { webhooksPlanRefusal } from '../../platform/policy'
import { AddressRefused, checkAddress, EVENT_TYPES, newWebhookSecret } from '../webhooks'
import { createApp, deleteApp, MAX_REDIRECT_URIS } from './apps.service'
import { findAppWebhook, liveRoles, startOutboxCursor, upsertAppWebhook } from './app-webhooks.repo'
import type { AppWebhookDeps } from './app-webhooks'
import { UNUSED_DAYS } from './connections.service'
import { findAppByClientId, redirectUrisOf, type OAuthAppRow } from './oauth.repo'
import { redirectUriFault } from './redirect-uris'
import { CLIENT_SECRET_PREFIX, newSecret, sha256 } from './secrets'

const DAY_MS = 24 * 3600_000
const RETENTION_MS = 30 * DAY_MS
const MAX_NAME = 100

export interface OwnedAppView {
  client_id: string
  name: string
  public: boolean
  redirect_uris: string[]
  created_at: string
  /** Connections that still act, across every Business. */
  connections: number
  webhook: { url: string; events: string[]; paused: boolean; paused_reason: string | null } | null
}

/** The app, when this person owns it; NotFound otherwise (another person's app is not told apart from none). */
async function owned(db: Database, personId: number, clientId: string): Promise<OAuthAppRow> {
  const app = await findAppByClientId(db.read, clientId)
  if (!app || app.ownerPersonId !== personId) throw new NotFound('No such app of yours.')
  return app
}

async function view(db: Database, app: OAuthAppRow): Promise<OwnedAppView> {
  const hook = await findAppWebhook(db.read, app.id)
  const live = await db.read
    .select({ id: connectedApps.id })
    .from(connectedApps)
    .where(and(eq(connectedApps.appId, app.id), isNull(connectedApps.endedAt)))
  return {
    client_id: app.clientId,
    name: app.name,
    public: app.clientSecretHash === null,
    redirect_uris: await redirectUrisOf(db.read, app.id),
    created_at: app.createdAt,
    connections: live.length,
    webhook: hook
      ? {
          url: hook.url,
          events: JSON.parse(hook.events) as string[],
          paused: hook.paused,
          paused_reason: hook.pausedReason,
        }
      : null,
  }
}

export async function appsOfOwner(db: Database, personId: number): Promise<OwnedAppView[]> {
  const apps = await db.read.select().from(oauthApps).where(eq(oauthApps.ownerPersonId, personId)).orderBy(oauthApps.id)
  return Promise.all(apps.map((a) => view(db, a)))
}

export async function ownedApp(db: Database, personId: number, clientId: string): Promise<OwnedAppView> {
  return view(db, await owned(db, personId, clientId))
}

/** Redirect URIs typed one per line: blank lines dropped, each judged as dynamic registration judges it. */
export function redirectUriLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
}

function judgeRedirectUris(uris: string[], bag: FieldErrorBag): void {
  if (uris.length === 0) bag.add('redirect_uris', 'at least one redirect URI is required')
  if (uris.length > MAX_REDIRECT_URIS) bag.add('redirect_uris', `at most ${MAX_REDIRECT_URIS} redirect URIs`)
  uris.forEach((u, i) => {
    const fault = redirectUriFault(u)
    if (fault) bag.add(`redirect_uris.${i}`, fault)
  })
}

function judgeName(raw: string, bag: FieldErrorBag): string {
  const name = raw.trim()
  if (!name) bag.add('name', 'is required')
  else if (name.length > MAX_NAME) bag.add('name', `must be at most ${MAX_NAME} characters`)
  return name
}

async function judgeWebhookUrl(d: AppWebhookDeps, url: string, bag: FieldErrorBag, field: string): Promise<void> {
  try {
    await checkAddress(url, { allowPrivate: d.allowPrivate, resolve: d.resolve })
  } catch (e) {
    bag.add(field, e instanceof AddressRefused ? e.message : 'is not a usable address')
  }
}

function judgeEvents(events: string[], bag: FieldErrorBag): void {
  events.forEach((e, i) => {
    if (!(EVENT_TYPES as readonly string[]).includes(e))
      bag.add(`events.${i}`, `must be one of ${EVENT_TYPES.join(', ')}`)
  })
}

/**
 * Registers an app for its owner; with a webhook address, its webhook too. Everything is judged before anything is
 * written, so a refused form leaves no app behind. The client secret and the webhook's secret are shown once.
 */
export async function registerOwnedApp(
  d: AppWebhookDeps,
  personId: number,
  input: { name: string; redirectUris: string[]; public: boolean; webhookUrl: string },
): Promise<{ client_id: string; client_secret: string | null; webhook_secret: string | null }> {
  const bag = new FieldErrorBag()
  judgeName(input.name, bag)
  judgeRedirectUris(input.redirectUris, bag)
  const webhookUrl = input.webhookUrl.trim()
  if (webhookUrl) await judgeWebhookUrl(d, webhookUrl, bag, 'webhook_url')
  bag.throwIfAny()
  const app = await createApp(d.db, d.clock, {
    ownerPersonId: personId,
    name: input.name,
    redirectUris: input.redirectUris,
    public: input.public,
  })
  let webhookSecret: string | null = null
  if (webhookUrl)
    webhookSecret = (await setOwnedAppWebhook(d, personId, app.client_id, { url: webhookUrl, events: [] })).secret
  return { client_id: app.client_id, client_secret: app.client_secret, webhook_secret: webhookSecret }
}

/** Name and redirect URIs replaced; codes already issued keep the address they were issued for (60 seconds). */
export async function updateOwnedApp(
  db: Database,
  personId: number,
  clientId: string,
  input: { name: string; redirectUris: string[] },
): Promise<void> {
  const app = await owned(db, personId, clientId)
  const bag = new FieldErrorBag()
  const name = judgeName(input.name, bag)
  judgeRedirectUris(input.redirectUris, bag)
  bag.throwIfAny()
  const uris = [...new Set(input.redirectUris)]
  await db.write(async (tx) => {
    await tx.update(oauthApps).set({ name }).where(eq(oauthApps.id, app.id))
    await tx.delete(oauthRedirectUris).where(eq(oauthRedirectUris.appId, app.id))
    await tx.insert(oauthRedirectUris).values(uris.map((uri) => ({ appId: app.id, uri })))
  })
}

/** A new client secret, shown once; the old one stops working at once (tokens already issued keep acting). */
export async function rollClientSecret(db: Database, personId: number, clientId: string): Promise<string> {
  const app = await owned(db, personId, clientId)
  if (app.clientSecretHash === null)
    throw new InvalidRequest({ client_secret: ['a public app has no client secret; it proves itself with PKCE alone'] })
  const secret = newSecret(CLIENT_SECRET_PREFIX)
  await db.write((tx) =>
    tx
      .update(oauthApps)
      .set({ clientSecretHash: sha256(secret) })
      .where(eq(oauthApps.id, app.id)),
  )
  return secret
}

/** Deletes the app: its Connected apps end (their tokens answer 401), its webhook and deliveries go. */
export async function deleteOwnedApp(db: Database, personId: number, clientId: string): Promise<void> {
  await owned(db, personId, clientId)
  await deleteApp(db, clientId)
}

/**
 * Sets the app's webhook, or changes its address and events (keeping its secret); a new webhook's secret is shown
 * once. A webhook whose secret was lost with the key (`invoicing secrets forget`) gets a new one, shown once, and is on
 * again: saving it is the way back.
 */
export async function setOwnedAppWebhook(
  d: AppWebhookDeps,
  personId: number,
  clientId: string,
  input: { url: string; events: string[] },
): Promise<{ secret: string | null }> {
  const app = await owned(d.db, personId, clientId)
  const bag = new FieldErrorBag()
  const url = input.url.trim()
  await judgeWebhookUrl(d, url, bag, 'url')
  judgeEvents(input.events, bag)
  bag.throwIfAny()
  const events = JSON.stringify([...new Set(input.events)])
  const now = d.clock.now().toISOString()
  const existing = await findAppWebhook(d.db.read, app.id)
  if (existing && existing.pausedReason !== SECRET_LOST_REASON) {
    await d.db.write((tx) =>
      tx.update(appWebhooks).set({ url, events, updatedAt: now }).where(eq(appWebhooks.id, existing.id)),
    )
    return { secret: null }
  }
  const secret = newWebhookSecret()
  await d.db.write(async (tx) => {
    await startOutboxCursor(tx)
    await upsertAppWebhook(tx, {
      appId: app.id,
      url,
      events,
      secret: d.db.secrets.seal(secret, 'webhook-secret'),
      createdAt: now,
      updatedAt: now,
    })
  })
  return { secret }
}

/** Pause, or turn on again (after a 410 paused it: its owner turns it on). */
export async function pauseOwnedAppWebhook(
  db: Database,
  personId: number,
  clientId: string,
  paused: boolean,
  at: string,
): Promise<void> {
  const app = await owned(db, personId, clientId)
  const hook = await findAppWebhook(db.read, app.id)
  if (!hook) throw new NotFound('The app has no webhook.')
  // On again with its lost secret, it would sign with a secret no one has.
  if (!paused && hook.paused && hook.pausedReason === SECRET_LOST_REASON) {
    throw new InvalidRequest({
      paused: ['its signing secret was lost: save the webhook again for a new secret, which turns it on'],
    })
  }
  await db.write((tx) =>
    tx
      .update(appWebhooks)
      .set({ paused, pausedReason: paused ? 'paused' : null, updatedAt: at })
      .where(eq(appWebhooks.id, hook.id)),
  )
}

/** Removes the webhook with its deliveries. */
export async function deleteOwnedAppWebhook(db: Database, personId: number, clientId: string): Promise<void> {
  const app = await owned(db, personId, clientId)
  await db.write((tx) => tx.delete(appWebhooks).where(eq(appWebhooks.appId, app.id)))
}

export interface AppDeliveryView {
  id: number
  business: { id: string; name: string }
  webhook_message_id: string
  event: string
  status: string
  reason: string | null
  next_attempt_at: string | null
  created_at: string
  attempts: Array<{
    at: string
    duration_ms: number
    status_code: number | null
    error: string | null
    response: string | null
  }>
}

/** The webhook's deliveries of the last 30 days, newest first, each with its attempts. */
export async function ownedAppDeliveries(
  db: Database,
  personId: number,
  clientId: string,
  now: Date,
  limit = 100,
): Promise<AppDeliveryView[]> {
  const app = await owned(db, personId, clientId)
  const hook = await findAppWebhook(db.read, app.id)
  if (!hook) return []
  const since = new Date(now.getTime() - RETENTION_MS).toISOString()
  const rows = await db.read
    .select({ d: appWebhookDeliveries, businessId: businesses.publicId, businessName: businesses.name })
    .from(appWebhookDeliveries)
    .innerJoin(businesses, eq(businesses.id, appWebhookDeliveries.businessId))
    .where(and(eq(appWebhookDeliveries.appWebhookId, hook.id), gte(appWebhookDeliveries.createdAt, since)))
    .orderBy(desc(appWebhookDeliveries.id))
    .limit(limit)
  const attempts = rows.length
    ? await db.read
        .select()
        .from(appWebhookAttempts)
        .where(
          inArray(
            appWebhookAttempts.deliveryId,
            rows.map((r) => r.d.id),
          ),
        )
        .orderBy(appWebhookAttempts.id)
    : []
  return rows.map(({ d, businessId, businessName }) => ({
    id: d.id,
    business: { id: businessId, name: businessName },
    webhook_message_id: d.messageId,
    event: d.eventType,
    status: d.status,
    reason: d.reason,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        at: a.attemptedAt,
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        error: a.error,
        response: a.responseExcerpt,
      })),
  }))
}

/**
 * Resend (contract, "Webhook delivery"): a stored message sent again as a new delivery with the same body and
 * `webhook-id`, retried on the same schedule. Refused `webhook_paused`; `app_not_connected` when the app no longer
 * hears the message's Business (its body was erased); `webhooks_need_a_paid_plan` while that Business is Free or
 * Paused.
 */
export async function resendOwnedAppDelivery(
  db: Database,
  personId: number,
  clientId: string,
  deliveryId: number,
  now: Date,
): Promise<{ id: number }> {
  const app = await owned(db, personId, clientId)
  if (!Number.isSafeInteger(deliveryId)) throw new NotFound('No such delivery.')
  const hook = await findAppWebhook(db.read, app.id)
  const d = hook
    ? await db.read
        .select({ d: appWebhookDeliveries, plan: businesses.plan })
        .from(appWebhookDeliveries)
        .innerJoin(businesses, eq(businesses.id, appWebhookDeliveries.businessId))
        .where(and(eq(appWebhookDeliveries.id, deliveryId), eq(appWebhookDeliveries.appWebhookId, hook.id)))
        .get()
    : undefined
  if (!hook || !d) throw new NotFound('No such delivery.')
  if (hook.paused) throw Refusal.say('webhook_paused')
  const unusedBefore = new Date(now.getTime() - UNUSED_DAYS * DAY_MS).toISOString()
  const hears = (await liveRoles(db.read, app.id, d.d.businessId, unusedBefore)).length > 0
  if (!hears || (d.d.status === 'failed_unsent' && d.d.reason === 'app_not_connected')) {
    throw Refusal.say('app_not_connected')
  }
  const plan = webhooksPlanRefusal(d)
  if (plan) throw plan
  const at = now.toISOString()
  const row = await db.write((tx) =>
    tx
      .insert(appWebhookDeliveries)
      .values({
        appWebhookId: hook.id,
        businessId: d.d.businessId,
        outboxId: d.d.outboxId,
        messageId: d.d.messageId,
        eventType: d.d.eventType,
        // The same body as sent (actions answered anew at each attempt); none yet if it was never attempted.
        body: d.d.body,
        status: 'pending',
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: appWebhookDeliveries.id })
      .get(),
  )
  return row
}
