// SQL for webhooks: the outbox, the webhooks themselves, their deliveries and attempts.
import { and, asc, count, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Queryable, SqlTx, Tx } from '../../db/client'
import { businessRowsAfter, findBusinessRow, isBusinessRow, updateBusinessRow } from '../../platform/business-rows.repo'
import type { HotReader } from '../../db/hot'
import { hotExists } from '../../db/hot-shape'
import { businesses, outbox, webhookAttempts, webhookDeliveries, webhookMessages, webhooks } from '../../db/schema'

export type WebhookRow = typeof webhooks.$inferSelect
export type WebhookInsert = typeof webhooks.$inferInsert
export type DeliveryRow = typeof webhookDeliveries.$inferSelect
export type DeliveryInsert = typeof webhookDeliveries.$inferInsert
export type AttemptRow = typeof webhookAttempts.$inferSelect
export type AttemptInsert = typeof webhookAttempts.$inferInsert
export type OutboxRow = typeof outbox.$inferSelect
export type OutboxInsert = typeof outbox.$inferInsert

// ---- Outbox

export async function insertOutboxEvent(tx: SqlTx, v: OutboxInsert): Promise<void> {
  // Plain SQL: it runs in the transaction of every change that raises an event.
  await tx.run(sql`INSERT INTO outbox (business_id, type, subject_type, subject_id, message_id, occurred_at)
    VALUES (${v.businessId}, ${v.type}, ${v.subjectType}, ${v.subjectId}, ${v.messageId}, ${v.occurredAt})`)
}

const undispatched = () => isNull(outbox.dispatchedAt)

/** Outbox events not yet fanned out, oldest first. */
export async function undispatchedEvents(q: Queryable, limit: number): Promise<OutboxRow[]> {
  return q.select().from(outbox).where(undispatched()).orderBy(asc(outbox.id)).limit(limit)
}

/** Whether any event may wait to be fanned out: one indexed read on the hot reader (true without one). */
export function anyUndispatchedEvent(hot: HotReader | null): boolean {
  return hotExists(hot, outbox, undispatched())
}

/** Marks events that no webhook hears as dispatched, in one statement. */
export async function markDispatched(tx: Tx, ids: number[], dispatchedAt: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await tx
      .update(outbox)
      .set({ dispatchedAt })
      .where(and(inArray(outbox.id, ids.slice(i, i + 500)), isNull(outbox.dispatchedAt)))
  }
}

/** Marks an event dispatched unless another process did first; true when this call claimed it. */
export async function claimOutboxEvent(tx: Tx, id: number, dispatchedAt: string): Promise<boolean> {
  const claimed = await tx
    .update(outbox)
    .set({ dispatchedAt })
    .where(and(eq(outbox.id, id), isNull(outbox.dispatchedAt)))
    .returning({ id: outbox.id })
  return claimed.length > 0
}

// ---- Webhooks

export async function webhooksOf(q: Queryable, businessId: number): Promise<WebhookRow[]> {
  return q.select().from(webhooks).where(eq(webhooks.businessId, businessId))
}

export async function findWebhook(q: Queryable, businessId: number, id: number): Promise<WebhookRow | undefined> {
  return findBusinessRow(q, webhooks, businessId, id)
}

export async function countWebhooks(q: Queryable, businessId: number): Promise<number> {
  return (await q.select({ n: count() }).from(webhooks).where(eq(webhooks.businessId, businessId)).get())?.n ?? 0
}

export async function insertWebhook(tx: Tx, values: WebhookInsert): Promise<WebhookRow> {
  return tx.insert(webhooks).values(values).returning().get()
}

/** One page of a Business's webhooks, by id after `afterId`. */
export async function webhookPage(
  q: Queryable,
  businessId: number,
  afterId: number,
  limit: number,
): Promise<WebhookRow[]> {
  return businessRowsAfter(q, webhooks, businessId, afterId, limit)
}

/** Changes a Business's webhook; undefined when it has none with this id. */
export async function updateOwnWebhook(
  tx: Tx,
  businessId: number,
  id: number,
  set: Partial<WebhookRow>,
): Promise<WebhookRow | undefined> {
  return updateBusinessRow(tx, webhooks, businessId, id, set)
}

export async function pauseWebhook(tx: Tx, id: number, pausedReason: string, updatedAt: string): Promise<void> {
  await tx.update(webhooks).set({ paused: true, pausedReason, updatedAt }).where(eq(webhooks.id, id))
}

export async function deleteOwnWebhook(tx: Tx, businessId: number, id: number): Promise<void> {
  await tx.delete(webhooks).where(isBusinessRow(webhooks, businessId, id))
}

// ---- Messages, deliveries and attempts

/** Stores a message's body once, under its webhook-id; a second store of the same message keeps the first. */
export async function insertMessage(tx: Tx, values: typeof webhookMessages.$inferInsert): Promise<void> {
  await tx.insert(webhookMessages).values(values).onConflictDoNothing()
}

export async function insertDelivery(tx: Tx, values: DeliveryInsert): Promise<void> {
  await tx.insert(webhookDeliveries).values(values)
}

export async function createDelivery(tx: Tx, values: DeliveryInsert): Promise<DeliveryRow> {
  return tx.insert(webhookDeliveries).values(values).returning().get()
}

export async function findDelivery(q: Queryable, businessId: number, id: number): Promise<DeliveryRow | undefined> {
  return findBusinessRow(q, webhookDeliveries, businessId, id)
}

/** One page of a webhook's deliveries created at or after `since`, by id after `afterId`. */
export async function deliveryPage(
  q: Queryable,
  webhookId: number,
  afterId: number,
  since: string,
  limit: number,
): Promise<DeliveryRow[]> {
  return q
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        gt(webhookDeliveries.id, afterId),
        gte(webhookDeliveries.createdAt, since),
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(limit)
}

/** The attempts of these deliveries, oldest first (callers skip the query when `ids` is empty). */
export async function attemptsOf(q: Queryable, deliveryIds: number[]): Promise<AttemptRow[]> {
  return q
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.id))
}

export type ClaimedDelivery = {
  delivery: DeliveryRow
  /** The message's body, stored once for every webhook that hears it. */
  body: string
  webhook: WebhookRow
  plan: string
  isTest: boolean
  /** Set when the Business was deleted: nothing more is sent about it. */
  deletedAt: string | null
}

/** The columns that make a delivery due and claim it, a Business's webhook's or an OAuth app's alike. */
interface DeliveryColumns {
  id: SQLiteColumn
  status: SQLiteColumn
  nextAttemptAt: SQLiteColumn
  claimedUntil: SQLiteColumn
  claimToken: SQLiteColumn
}

/** The webhooks a delivery belongs to: a Business's or an OAuth app's, either of which can be paused. */
type PausableHooks = SQLiteTable & { id: SQLiteColumn; paused: SQLiteColumn }

/**
 * A delivery due at `nowIso`: pending, its time come, no live claim on it, and its webhook (`hookId` in `hooks`) not
 * paused, since a paused webhook's messages wait until it is turned on again. The one rule for both kinds, which the
 * claims and the idle checks share.
 */
export function deliveryDueAt(
  t: Omit<DeliveryColumns, 'id' | 'claimToken'>,
  hookId: SQLiteColumn,
  hooks: PausableHooks,
  nowIso: string,
) {
  return and(
    eq(t.status, 'pending'),
    lte(t.nextAttemptAt, nowIso),
    or(isNull(t.claimedUntil), lt(t.claimedUntil, nowIso)),
    sql`${hookId} IN (SELECT ${hooks.id} FROM ${hooks} WHERE ${eq(hooks.paused, false)})`,
  )
}

/**
 * Marks up to `limit` deliveries due at `nowIso` (oldest due first) with `token` until `claimedUntil`, inside the
 * caller's one write transaction; answers their ids. Each kind reads back what this token holds, so two processes on
 * one file never take the same attempt. The one claim for both kinds.
 */
export async function claimDue(
  tx: Tx,
  t: SQLiteTable & DeliveryColumns,
  hookId: SQLiteColumn,
  hooks: PausableHooks,
  c: { nowIso: string; claimedUntil: string; token: string; limit: number },
): Promise<number[]> {
  const due = await tx
    .select({ id: t.id })
    .from(t)
    .where(deliveryDueAt(t, hookId, hooks, c.nowIso))
    .orderBy(asc(t.nextAttemptAt), asc(t.id))
    .limit(c.limit)
  if (due.length === 0) return []
  const ids = due.map((d) => d.id as number)
  await tx
    .update(t)
    .set({ claimedUntil: c.claimedUntil, claimToken: c.token })
    .where(and(inArray(t.id, ids), or(isNull(t.claimedUntil), lt(t.claimedUntil, c.nowIso))))
  return ids
}

/** Whether any delivery is due: one read on the hot reader, where the claim is a write transaction; true without one. */
export function anyDeliveryDue(hot: HotReader | null, nowIso: string): boolean {
  return hotExists(hot, webhookDeliveries, dueNow(nowIso))
}

const dueNow = (nowIso: string) => deliveryDueAt(webhookDeliveries, webhookDeliveries.webhookId, webhooks, nowIso)

/** Claims due deliveries (claimDue) and reads back what this token holds, with their bodies, webhooks and Businesses. */
export async function claimDueDeliveries(
  tx: Tx,
  nowIso: string,
  claimedUntil: string,
  token: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const ids = await claimDue(tx, webhookDeliveries, webhookDeliveries.webhookId, webhooks, {
    nowIso,
    claimedUntil,
    token,
    limit,
  })
  if (ids.length === 0) return []
  return tx
    .select({
      delivery: webhookDeliveries,
      body: webhookMessages.body,
      webhook: webhooks,
      plan: businesses.plan,
      isTest: businesses.isTest,
      deletedAt: businesses.deletedAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.messageId, webhookDeliveries.messageId))
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .innerJoin(businesses, eq(businesses.id, webhookDeliveries.businessId))
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.claimToken, token)))
}

/**
 * Ends an attempt: the outcome's columns, and the claim released; only while `token` still holds the claim, so a
 * process that stalled past its claim never overwrites what the process that claimed the delivery after it wrote.
 */
export async function finishDelivery(
  tx: Tx,
  id: number,
  token: string | null,
  set: Partial<DeliveryInsert>,
): Promise<void> {
  const held = token === null ? isNull(webhookDeliveries.claimToken) : eq(webhookDeliveries.claimToken, token)
  await tx
    .update(webhookDeliveries)
    .set({ ...set, claimedUntil: null, claimToken: null })
    .where(and(eq(webhookDeliveries.id, id), held))
}

export async function insertAttempt(tx: Tx, values: AttemptInsert): Promise<void> {
  await tx.insert(webhookAttempts).values(values)
}

/**
 * Erases deliveries created before `before` (their attempts go with them), then the messages no delivery is left
 * to send, and outbox events dispatched before `before` (they have done their work); answers how many deliveries.
 */
export async function deleteDeliveriesBefore(tx: Tx, before: string): Promise<number> {
  const n = (
    await tx
      .delete(webhookDeliveries)
      .where(lt(webhookDeliveries.createdAt, before))
      .returning({ id: webhookDeliveries.id })
  ).length
  await tx
    .delete(webhookMessages)
    .where(
      and(
        lt(webhookMessages.createdAt, before),
        sql`not exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.messageId} = ${webhookMessages.messageId})`,
      ),
    )
  await tx.delete(outbox).where(and(isNotNull(outbox.dispatchedAt), lt(outbox.dispatchedAt, before)))
  return n
}
