// The per-key rate count every process on one database shares (contract, Limits; extensions §12): a restart or a
// second server never hands a key a fresh 120.
//
// On a local file the count lives in a memory-mapped side file (`<db>.rate`, src/platform/rate-map.ts) that every
// process maps shared: no fsync, no lock on the main database (a rate hit never waits behind a Payment), well under a
// microsecond a hit. A power cut may forgive the requests of the last moments; a restart, a crash of the process or a
// second process forgives none.
//
// Without the driver's fast paths (a libSQL server, or a file opened through @libsql/client alone to test that path)
// the count is a table in the database, one `INSERT … ON CONFLICT DO UPDATE … RETURNING` per request.
import type { Client } from '@libsql/client'
import type { Database as Db } from '../db/client'
import { openMapCount } from './rate-map'

export const RATE_WINDOW_MS = 60_000

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Unix seconds (UTC) when the current window ends. */
  reset: number
  retryAfter: number
}

export interface RateCount {
  readonly limit: number
  /** Counts one request of the key at `nowMs` and says whether it may be served. */
  hit(key: string, nowMs: number): RateDecision | Promise<RateDecision>
  /** The key's standing without counting a request (with no open window, a full one would start now). */
  peek(key: string, nowMs: number): RateDecision | Promise<RateDecision>
  /** Drops windows that have ended, so the table follows the keys in use. */
  sweep(nowMs: number): void | Promise<void>
  close(): void
}

const TABLE = `CREATE TABLE IF NOT EXISTS rate_windows (key TEXT PRIMARY KEY, start_ms INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID`
// A window opens with the key's first request and lasts windowMs; the request after it opens the next one. In an
// UPDATE every right-hand side reads the row as it was, so both CASEs judge the same old window.
const HIT = `INSERT INTO rate_windows (key, start_ms, count) VALUES (?1, ?2, 1)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN ?2 >= start_ms + ?3 THEN 1 ELSE count + 1 END,
    start_ms = CASE WHEN ?2 >= start_ms + ?3 THEN ?2 ELSE start_ms END
  RETURNING start_ms, count`
const PEEK = `SELECT start_ms, count FROM rate_windows WHERE key = ?1`
const SWEEP = `DELETE FROM rate_windows WHERE start_ms + ?2 <= ?1`

type Row = { start_ms: number; count: number }

/** The decision for a window (start, count) as it stands after this request; `counted` false for a peek. */
export function decide(
  limit: number,
  windowMs: number,
  nowMs: number,
  row: Row | undefined,
  counted: boolean,
): RateDecision {
  const open = row && nowMs < row.start_ms + windowMs ? row : { start_ms: nowMs, count: 0 }
  const end = open.start_ms + windowMs
  return {
    allowed: counted ? open.count <= limit : open.count < limit,
    limit,
    remaining: Math.max(0, limit - open.count),
    reset: Math.ceil(end / 1000),
    retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
  }
}

/** The side file beside a local database file. */
export function rateFileOf(dbFile: string): string {
  return `${dbFile}.rate`
}

export function openRateCount(db: Db, limit: number, windowMs = RATE_WINDOW_MS): RateCount {
  if (db.nativeFile) return openMapCount(rateFileOf(db.nativeFile), limit, windowMs)
  // A local file through @libsql/client alone waits for the file's writer like any other connection.
  return openTableCount(db.connect(), db.url.startsWith('file:') ? ['PRAGMA busy_timeout = 5000'] : [], limit, windowMs)
}

function openTableCount(client: Client, prepare: string[], limit: number, windowMs: number): RateCount {
  // Created on first use rather than by a migration: on a local file the count is the mapped side file instead.
  let ready: Promise<unknown> | null = null
  const run = async (sql: string, args: unknown[]) => {
    ready ??= (async () => {
      for (const p of prepare) await client.execute(p)
      await client.execute(TABLE)
    })()
    await ready
    return (await client.execute({ sql, args: args as never })).rows as unknown as Row[]
  }
  return {
    limit,
    hit: async (key, nowMs) => decide(limit, windowMs, nowMs, (await run(HIT, [key, nowMs, windowMs]))[0], true),
    peek: async (key, nowMs) => decide(limit, windowMs, nowMs, (await run(PEEK, [key]))[0], false),
    sweep: async (nowMs) => void (await run(SWEEP, [nowMs, windowMs])),
    close: () => client.close(),
  }
}
