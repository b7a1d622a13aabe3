// SQL for the request log: the batched append, the listing and the retention delete.
import { and, asc, eq, gt, gte, lt, lte } from 'drizzle-orm'
import type { Database, Queryable, Tx } from '../db/client'
import { requestLog } from '../db/schema'

export type RequestLogEntry = typeof requestLog.$inferInsert
export type RequestLogRow = typeof requestLog.$inferSelect

const INSERT_SQL =
  'INSERT INTO request_log (business_id, request_id, method, path, status, credential_type, credential_name, ip, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'

function toValues(e: RequestLogEntry): unknown[] {
  return [e.businessId, e.requestId, e.method, e.path, e.status, e.credentialType, e.credentialName, e.ip ?? null, e.at]
}

/** Appends entries as bookkeeping rows (db.append: one short transaction, not waiting for the disk). */
export async function appendRequestLog(db: Database, entries: RequestLogEntry[]): Promise<void> {
  await db.append(INSERT_SQL, entries.map(toValues))
}

export async function listRequestLog(
  q: Queryable,
  businessId: number,
  opts: { afterId: number; limit: number; from?: string; to?: string; since: string },
): Promise<RequestLogRow[]> {
  const conds = [eq(requestLog.businessId, businessId), gt(requestLog.id, opts.afterId), gte(requestLog.at, opts.since)]
  if (opts.from) conds.push(gte(requestLog.at, opts.from))
  if (opts.to) conds.push(lte(requestLog.at, opts.to))
  return q
    .select()
    .from(requestLog)
    .where(and(...conds))
    .orderBy(asc(requestLog.id))
    .limit(opts.limit)
}

/** Erases entries older than `before`; answers how many. */
export async function deleteRequestLogBefore(tx: Tx, before: string): Promise<number> {
  const r = await tx.delete(requestLog).where(lt(requestLog.at, before)).returning({ id: requestLog.id })
  return r.length
}
