// The request log: entries buffered in memory and written in batches, so no request waits on a log write.
import { and, asc, eq, gt, gte, lt, lte } from 'drizzle-orm'
import type { Database, Queryable } from '../db/client'
import { requestLog } from '../db/schema'
import type { Logger } from '../shared/logger'

export type RequestLogEntry = typeof requestLog.$inferInsert
export type RequestLogRow = typeof requestLog.$inferSelect

const INSERT_SQL =
  'INSERT INTO request_log (business_id, request_id, method, path, status, credential_type, credential_name, ip, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'

function toValues(e: RequestLogEntry): unknown[] {
  return [e.businessId, e.requestId, e.method, e.path, e.status, e.credentialType, e.credentialName, e.ip ?? null, e.at]
}

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = []
  private flushing: Promise<void> | null = null

  constructor(private readonly db: Database, private readonly logger: Logger, private readonly maxBuffer = 2000) {}

  add(entry: RequestLogEntry): void {
    this.buffer.push(entry)
    if (this.buffer.length >= this.maxBuffer) void this.flush()
  }

  /** Writes what is buffered in one transaction; called on a timer, when the buffer fills and at shutdown. */
  async flush(): Promise<void> {
    // Another waiter may have started a new write meanwhile; returning before it ends would hide entries from a reader.
    while (this.flushing) await this.flushing
    if (this.buffer.length === 0) return
    const batch = this.buffer
    this.buffer = []
    this.flushing = (async () => {
      // Chunks of 500 keep each synchronous append short, so requests are served between them.
      for (let i = 0; i < batch.length; i += 500) {
        await this.db.append(INSERT_SQL, batch.slice(i, i + 500).map(toValues))
        await Bun.sleep(0)
      }
    })()
      .catch((e: unknown) => this.logger.error('request log write failed', { entries: batch.length, name: (e as Error)?.name }))
      .finally(() => {
        this.flushing = null
      })
    await this.flushing
  }
}

export async function listRequestLog(
  q: Queryable,
  businessId: number,
  opts: { afterId: number; limit: number; from?: string; to?: string; since: string },
): Promise<RequestLogRow[]> {
  const conds = [eq(requestLog.businessId, businessId), gt(requestLog.id, opts.afterId), gte(requestLog.at, opts.since)]
  if (opts.from) conds.push(gte(requestLog.at, opts.from))
  if (opts.to) conds.push(lte(requestLog.at, opts.to))
  return q.select().from(requestLog).where(and(...conds)).orderBy(asc(requestLog.id)).limit(opts.limit)
}

/** Retention: entries older than `before` are erased (the job runs it daily with 30 days). */
export async function pruneRequestLog(db: Database, before: string): Promise<number> {
  return db.write(async (tx) => {
    const r = await tx.delete(requestLog).where(lt(requestLog.at, before)).returning({ id: requestLog.id })
    return r.length
  })
}
