// SQL of OAuth apps' webhooks: the webhook, which Businesses it hears, its deliveries and attempts.
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import type { HotReader } from '../../db/hot'
import { hotExists } from '../../db/hot-shape'
import {
  appWebhookAttempts,
  appWebhookDeliveries,
  appWebhooks,
  businesses,
  connectedApps,
  memberships,
  meta,
  oauthApps,
  outbox,
} from '../../db/schema'
import { claimDue, deliveryDueAt } from '../webhooks'
import { memberOfConnection } from './oauth.repo'
import { lowerTo, type GrantRole } from './roles'

export type AppWebhookRow = typeof appWebhooks.$inferSelect
export type AppDeliveryRow = typeof appWebhookDeliveries.$inferSelect

export async function findAppWebhook(q: Queryable, appId: number): Promise<AppWebhookRow | undefined> {
  return q.select().from(appWebhooks).where(eq(appWebhooks.appId, appId)).get()
}

/** Adds the app's webhook, or replaces its address and events (and secret) when it has one. */
export async function upsertAppWebhook(tx: Tx, values: typeof appWebhooks.$inferInsert): Promise<AppWebhookRow> {
  return tx
    .insert(appWebhooks)
    .values(values)
    .onConflictDoUpdate({
      target: appWebhooks.appId,
      set: {
        url: values.url,
        events: values.events,
        secret: values.secret,
        paused: false,
        pausedReason: null,
        updatedAt: values.updatedAt,
      },
    })
    .returning()
    .get()
}

// ---- Which Businesses an app hears

/** The Roles of the app's connections that may act in a Business (not ended, used within 90 days). */
export async function liveRoles(
  q: Queryable,
  appId: number,
  businessId: number,
  unusedBefore: string,
): Promise<GrantRole[]> {
  const rows = await q
    .select({ role: connectedApps.role, memberRole: memberships.role })
    .from(connectedApps)
    .innerJoin(businesses, eq(businesses.id, connectedApps.businessId))
    .innerJoin(memberships, memberOfConnection)
    .where(
      and(
        eq(connectedApps.appId, appId),
        eq(connectedApps.businessId, businessId),
        isNull(connectedApps.endedAt),
        gt(connectedApps.lastUsedAt, unusedBefore),
        isNull(businesses.deletedAt),
      ),
    )
  return rows.map((r) => lowerTo(r.role, r.memberRole))
}

/** App webhooks that hear a Business now: their app has a connection there that may act. */
export async function appWebhooksHearing(
  q: Queryable,
  businessId: number,
  unusedBefore: string,
): Promise<AppWebhookRow[]> {
  return q
    .selectDistinct({ w: appWebhooks })
    .from(appWebhooks)
    .innerJoin(connectedApps, eq(connectedApps.appId, appWebhooks.appId))
    .innerJoin(businesses, eq(businesses.id, connectedApps.businessId))
    .innerJoin(memberships, memberOfConnection)
    .where(
      and(
        eq(connectedApps.businessId, businessId),
        isNull(connectedApps.endedAt),
        gt(connectedApps.lastUsedAt, unusedBefore),
        isNull(businesses.deletedAt),
      ),
    )
    .then((rows) => rows.map((r) => r.w))
}

// ---- The outbox, read with a cursor of its own (a Business's own dispatch marks events it has fanned out)

const CURSOR_KEY = 'app_webhooks_outbox_cursor'

/** The last outbox event fanned out to app webhooks; null until the first app webhook is set. */
export async function outboxCursor(q: Queryable): Promise<number | null> {
  const row = await q.select({ value: meta.value }).from(meta).where(eq(meta.key, CURSOR_KEY)).get()
  return row ? Number(row.value) : null
}

/** Starts the cursor at the end of the outbox: apps hear what happens from then on, not the file's past. */
export async function startOutboxCursor(tx: Tx): Promise<void> {
  if ((await outboxCursor(tx)) === null) await setOutboxCursor(tx, await lastOutboxId(tx))
}

export async function setOutboxCursor(tx: Tx, id: number): Promise<void> {
  await tx
    .insert(meta)
    .values({ key: CURSOR_KEY, value: String(id) })
    .onConflictDoUpdate({ target: meta.key, set: { value: String(id) } })
}

export async function outboxAfter(q: Queryable, afterId: number, limit: number) {
  return q.select().from(outbox).where(gt(outbox.id, afterId)).orderBy(asc(outbox.id)).limit(limit)
}

export async function lastOutboxId(q: Queryable): Promise<number> {
  const row = await q
    .select({ id: sql<number>`coalesce(max(${outbox.id}), 0)` })
    .from(outbox)
    .get()
  return row?.id ?? 0
}

// ---- Deliveries

export async function insertAppDelivery(tx: Tx, values: typeof appWebhookDeliveries.$inferInsert): Promise<void> {
  await tx.insert(appWebhookDeliveries).values(values)
}

export interface ClaimedAppDelivery {
  delivery: AppDeliveryRow
  webhook: AppWebhookRow
  plan: 'free' | 'pro' | 'pro_plus' | 'paused'
  appName: string
  ownerPersonId: number | null
  subjectType: 'document' | 'payment' | 'refund'
  subjectId: number
  occurredAt: string
  businessPublicId: string
}

/** Whether any app delivery is due: one read on the hot reader, where the claim is a write transaction; true without one. */
export function anyAppDeliveryDue(hot: HotReader | null, nowIso: string): boolean {
  return hotExists(hot, appWebhookDeliveries, dueNow(nowIso))
}

const dueNow = (nowIso: string) =>
  deliveryDueAt(appWebhookDeliveries, appWebhookDeliveries.appWebhookId, appWebhooks, nowIso)

/** Claims due deliveries (the webhooks module's claimDue: a paused webhook's wait) and reads back what this token holds. */
export async function claimDueAppDeliveries(
  tx: Tx,
  nowIso: string,
  claimedUntil: string,
  token: string,
  limit: number,
): Promise<ClaimedAppDelivery[]> {
  const ids = await claimDue(tx, appWebhookDeliveries, appWebhookDeliveries.appWebhookId, appWebhooks, {
    nowIso,
    claimedUntil,
    token,
    limit,
  })
  if (ids.length === 0) return []
  return tx
    .select({
      delivery: appWebhookDeliveries,
      webhook: appWebhooks,
      plan: businesses.plan,
      appName: oauthApps.name,
      ownerPersonId: oauthApps.ownerPersonId,
      subjectType: outbox.subjectType,
      subjectId: outbox.subjectId,
      occurredAt: outbox.occurredAt,
      businessPublicId: businesses.publicId,
    })
    .from(appWebhookDeliveries)
    .innerJoin(appWebhooks, eq(appWebhooks.id, appWebhookDeliveries.appWebhookId))
    .innerJoin(oauthApps, eq(oauthApps.id, appWebhooks.appId))
    .innerJoin(businesses, eq(businesses.id, appWebhookDeliveries.businessId))
    .innerJoin(outbox, eq(outbox.id, appWebhookDeliveries.outboxId))
    .where(and(inArray(appWebhookDeliveries.id, ids), eq(appWebhookDeliveries.claimToken, token)))
}

/** Writes an attempt's outcome, only while this process still holds the claim. */
export async function finishAppDelivery(
  tx: Tx,
  id: number,
  token: string | null,
  set: Partial<AppDeliveryRow>,
): Promise<void> {
  await tx
    .update(appWebhookDeliveries)
    .set({ ...set, claimedUntil: null, claimToken: null })
    .where(
      and(
        eq(appWebhookDeliveries.id, id),
        token === null ? isNull(appWebhookDeliveries.claimToken) : eq(appWebhookDeliveries.claimToken, token),
      ),
    )
}

export async function insertAppAttempt(tx: Tx, values: typeof appWebhookAttempts.$inferInsert): Promise<void> {
  await tx.insert(appWebhookAttempts).values(values)
}

export async function pauseAppWebhook(tx: Tx, id: number, reason: string, at: string): Promise<void> {
  await tx.update(appWebhooks).set({ paused: true, pausedReason: reason, updatedAt: at }).where(eq(appWebhooks.id, id))
}

/** Claims today's failure email: true when none was sent in the last day (at most one a day). */
export async function claimFailureEmail(tx: Tx, id: number, nowIso: string, dayAgo: string): Promise<boolean> {
  const r = await tx
    .update(appWebhooks)
    .set({ failureEmailedAt: nowIso })
    .where(
      and(eq(appWebhooks.id, id), or(isNull(appWebhooks.failureEmailedAt), lt(appWebhooks.failureEmailedAt, dayAgo))),
    )
    .returning({ id: appWebhooks.id })
  return r.length === 1
}

/**
 * The app left the Business: its waiting messages about it become failed unsent (not resendable) and every stored
 * body about it is erased; time, event, status and attempts stay.
 */
export async function forgetBusinessForApp(tx: Tx, appId: number, businessId: number, at: string): Promise<void> {
  const hook = await findAppWebhook(tx, appId)
  if (!hook) return
  const about = and(eq(appWebhookDeliveries.appWebhookId, hook.id), eq(appWebhookDeliveries.businessId, businessId))
  await tx
    .update(appWebhookDeliveries)
    .set({ status: 'failed_unsent', reason: 'app_not_connected', nextAttemptAt: null, updatedAt: at })
    .where(and(about, eq(appWebhookDeliveries.status, 'pending')))
  await tx.update(appWebhookDeliveries).set({ body: null }).where(about)
}

/** Deliveries (with their attempts) older than the cut-off are erased. */
export async function deleteAppDeliveriesBefore(tx: Tx, before: string): Promise<void> {
  await tx.delete(appWebhookDeliveries).where(lt(appWebhookDeliveries.createdAt, before))
}
