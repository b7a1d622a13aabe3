// SQL of payment reminders: a Business's settings, each document's steps as handled, and the background task's reads.
import { and, desc, eq, getTableColumns, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm'
import type { Queryable, Tx } from '../../db/client'
import {
  businesses,
  clients,
  documents,
  reminderSettings,
  reminderSteps,
  type ReminderStepState,
} from '../../db/schema'
import { BACKGROUND_PAUSED_PLANS } from '../../platform/policy'
import { OWING_STATUSES } from '../documents'
import type { ReminderStep } from './steps'

export type ReminderSettingsRow = typeof reminderSettings.$inferSelect
export type ReminderStepRow = typeof reminderSteps.$inferSelect

export async function findSettings(q: Queryable, businessId: number): Promise<ReminderSettingsRow | undefined> {
  return q.select().from(reminderSettings).where(eq(reminderSettings.businessId, businessId)).get()
}

export async function saveSettings(
  tx: Tx,
  businessId: number,
  enabled: boolean,
  steps: ReminderStep[],
  now: string,
): Promise<void> {
  const values = {
    enabled,
    steps: JSON.stringify(steps),
    firstDays: steps.length ? Math.min(...steps.map((s) => s.days)) : null,
    updatedAt: now,
  }
  await tx
    .insert(reminderSettings)
    .values({ businessId, ...values })
    .onConflictDoUpdate({ target: reminderSettings.businessId, set: values })
}

/** The Businesses whose reminders go out: not deleted, not Paused (platform/policy.ts, backgroundActs). */
const acting = [isNull(businesses.deletedAt), notInArray(businesses.plan, [...BACKGROUND_PAUSED_PLANS])]

/** A document the background task may have a step for: its Business's steps and the latest step it already has. */
export interface Candidate {
  id: number
  businessId: number
  dueDate: string
  steps: string
  /** The greatest step_days of its handled steps (any state); null when none. */
  top: number | null
}

/**
 * The one read of each run: issued Invoices and never-converted Proformas still owing, of Businesses with reminders
 * enabled (not deleted, not Paused), whose Client takes reminders at an address, and whose earliest step has come. A server with nothing due
 * makes this read and no write.
 */
export async function dueCandidates(q: Queryable, today: string): Promise<Candidate[]> {
  return q
    .select({
      id: documents.id,
      businessId: documents.businessId,
      dueDate: sql<string>`${documents.dueDate}`,
      steps: reminderSettings.steps,
      top: sql<
        number | null
      >`(SELECT max(${reminderSteps.stepDays}) FROM ${reminderSteps} WHERE ${reminderSteps.documentId} = ${documents.id})`,
    })
    .from(reminderSettings)
    .innerJoin(businesses, eq(businesses.id, reminderSettings.businessId))
    .innerJoin(documents, eq(documents.businessId, reminderSettings.businessId))
    .innerJoin(clients, eq(clients.id, documents.clientId))
    .where(
      and(
        eq(reminderSettings.enabled, true),
        sql`${reminderSettings.firstDays} IS NOT NULL`,
        // A deleted Business sends nothing; a Paused one waits (platform/policy.ts, backgroundActs).
        ...acting,
        inArray(documents.type, ['invoice', 'proforma']),
        inArray(documents.status, [...OWING_STATUSES]),
        sql`${documents.convertedIntoId} IS NULL`,
        sql`${documents.dueDate} IS NOT NULL`,
        sql`${documents.dueDate} <= date(${today}, (-${reminderSettings.firstDays}) || ' days')`,
        eq(clients.reminders, true),
        sql`coalesce(${clients.email}, '') <> ''`,
        // Only a document whose latest step that has come is above every step it has: the rows of documents already
        // reminded of it never leave the database (a server with thousands of them reminded reads none of them).
        sql`coalesce((SELECT max(r.step_days) FROM ${reminderSteps} r WHERE r.document_id = ${documents.id}), -100000) <
          (SELECT max(json_extract(j.value, '$.days')) FROM json_each(${reminderSettings.steps}) j
           WHERE date(${documents.dueDate}, json_extract(j.value, '$.days') || ' days') <= ${today})`,
      ),
    )
    .orderBy(documents.id)
}

/**
 * Steps waiting for their next try, and every step being handed over (a claim whose process may be gone), of
 * Businesses that send: a Paused or deleted one's steps stay as they are, and cost an idle server no write each minute.
 */
export async function openSteps(q: Queryable, now: string): Promise<ReminderStepRow[]> {
  return q
    .select(getTableColumns(reminderSteps))
    .from(reminderSteps)
    .innerJoin(businesses, eq(businesses.id, reminderSteps.businessId))
    .where(
      and(
        or(
          eq(reminderSteps.state, 'sending'),
          and(eq(reminderSteps.state, 'waiting'), lte(reminderSteps.nextTryAt, now)),
        ),
        ...acting,
      ),
    )
    .orderBy(reminderSteps.documentId)
}

export async function stepsOf(q: Queryable, documentId: number): Promise<ReminderStepRow[]> {
  return q.select().from(reminderSteps).where(eq(reminderSteps.documentId, documentId))
}

export async function insertStep(
  tx: Tx,
  row: Pick<ReminderStepRow, 'documentId' | 'stepDays' | 'businessId' | 'state' | 'claim' | 'attempts'>,
  now: string,
): Promise<void> {
  await tx.insert(reminderSteps).values({ ...row, createdAt: now, updatedAt: now })
}

export async function updateStep(
  tx: Tx,
  documentId: number,
  stepDays: number,
  set: Partial<Pick<ReminderStepRow, 'state' | 'claim' | 'attempts' | 'nextTryAt' | 'error'>>,
  now: string,
  /** Only while this claim still holds it. */
  claim?: string,
): Promise<boolean> {
  const rows = await tx
    .update(reminderSteps)
    .set({ ...set, updatedAt: now })
    .where(
      and(
        eq(reminderSteps.documentId, documentId),
        eq(reminderSteps.stepDays, stepDays),
        claim === undefined ? undefined : eq(reminderSteps.claim, claim),
      ),
    )
    .returning({ d: reminderSteps.documentId })
  return rows.length > 0
}

/** A step that needs a person's eye, as the application lists it: refused, or waiting after a failed try. */
export interface StepNotice {
  documentId: number
  documentNumber: string | null
  stepDays: number
  state: ReminderStepState
  error: string | null
  nextTryAt: string | null
  updatedAt: string
}

export async function stepNotices(q: Queryable, businessId: number, limit: number): Promise<StepNotice[]> {
  return q
    .select({
      documentId: reminderSteps.documentId,
      documentNumber: documents.documentNumber,
      stepDays: reminderSteps.stepDays,
      state: reminderSteps.state,
      error: reminderSteps.error,
      nextTryAt: reminderSteps.nextTryAt,
      updatedAt: reminderSteps.updatedAt,
    })
    .from(reminderSteps)
    .innerJoin(documents, eq(documents.id, reminderSteps.documentId))
    .where(
      and(
        eq(reminderSteps.businessId, businessId),
        sql`${reminderSteps.error} IS NOT NULL`,
        inArray(reminderSteps.state, ['refused', 'waiting']),
      ),
    )
    .orderBy(desc(reminderSteps.updatedAt))
    .limit(limit)
}
