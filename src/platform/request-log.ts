// The request log: entries buffered in memory and written in batches, so no request waits on a log write.
import type { Database } from '../db/client'
import type { Logger } from '../shared/logger'
import { appendRequestLog, deleteRequestLogBefore, type RequestLogEntry } from './request-log.repo'

export { listRequestLog, type RequestLogEntry, type RequestLogRow } from './request-log.repo'

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = []
  private flushing: Promise<void> | null = null

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly maxBuffer = 2000,
  ) {}

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
        await appendRequestLog(this.db, batch.slice(i, i + 500))
        await Bun.sleep(0)
      }
    })()
      .catch((e: unknown) =>
        this.logger.error('request log write failed', { entries: batch.length, name: (e as Error)?.name }),
      )
      .finally(() => {
        this.flushing = null
      })
    await this.flushing
  }
}

/** Retention: entries older than `before` are erased (the job runs it daily with 30 days). */
export async function pruneRequestLog(db: Database, before: string): Promise<number> {
  return db.write((tx) => deleteRequestLogBefore(tx, before))
}
