// A marker written inside the first write transaction of a piece of work, so that the work and the marker commit
// together or not at all (the idempotency record of a keyed request, with its answer: extensions §12, ARCHITECTURE
// rule 6).
import { AsyncLocalStorage } from 'node:async_hooks'
import type { SQLWrapper } from 'drizzle-orm'

/** What a marker needs of a transaction: one statement, and how many rows it changed. */
export interface MarkerTx {
  run(query: SQLWrapper): Promise<{ rowsAffected: number }>
}

export interface CommitMarker {
  /** Set once a transaction carrying the mark has committed; later transactions of the same work carry none. */
  marked: boolean
  /**
   * Writes the mark inside the transaction, given what the transaction's body returned (a keyed operation's answer is
   * built from it before the commit); throws (rolling it back) when the mark may not be written.
   */
  mark(tx: MarkerTx, value: unknown): Promise<void>
}

const markers = new AsyncLocalStorage<CommitMarker>()

/**
 * For the crash tests only (INVOICING_TEST_HOLD_COMMIT_MS, read by config.ts): how long a marked transaction stays open
 * before its mark, and how long its work waits after the commit, so a test can kill the process while keyed changes
 * are surely in flight, or committed but not yet answered. 0 in service.
 */
let holdBeforeMarkMs = 0
export function holdMarkedTransactions(ms: number): void {
  holdBeforeMarkMs = ms
}

/** Runs work with a marker: the first write transaction it commits carries the mark. */
export function withCommitMarker<T>(marker: CommitMarker, work: () => Promise<T>): Promise<T> {
  return markers.run(marker, work)
}

/** Runs a transaction (`run` gets a body that must call `mark` last) and records that the mark committed. */
export async function markedTransaction<T, X extends MarkerTx>(
  transaction: (body: (tx: X) => Promise<T>) => Promise<T>,
  fn: (tx: X) => Promise<T>,
): Promise<T> {
  const marker = markers.getStore()
  if (!marker || marker.marked) return transaction(fn)
  const result = await transaction(async (tx) => {
    const value = await fn(tx)
    if (holdBeforeMarkMs > 0) await Bun.sleep(holdBeforeMarkMs)
    await marker.mark(tx, value)
    return value
  })
  marker.marked = true
  if (holdBeforeMarkMs > 0) await Bun.sleep(holdBeforeMarkMs)
  return result
}
