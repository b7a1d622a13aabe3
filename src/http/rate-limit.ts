// Per-key request counting: 120 a minute, the window opening with the key's first request; kept in memory, off the I/O path.

export const RATE_LIMIT = 120
export const RATE_WINDOW_MS = 60_000

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Unix seconds (UTC) when the current window ends. */
  reset: number
  retryAfter: number
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(private readonly limit = RATE_LIMIT, private readonly windowMs = RATE_WINDOW_MS) {}

  /** Counts one request of the key at `nowMs` and says whether it may be served. */
  hit(keyId: string, nowMs: number): RateDecision {
    let w = this.windows.get(keyId)
    if (!w || nowMs >= w.start + this.windowMs) {
      w = { start: nowMs, count: 0 }
      this.windows.set(keyId, w)
    }
    w.count++
    const end = w.start + this.windowMs
    return {
      allowed: w.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - w.count),
      reset: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
    }
  }

  /**
   * The key's standing without counting a request: for answers that cost nothing (an unknown endpoint) but still go
   * to a live key, which gets the rate headers on every answer. With no open window, a full one would start now.
   */
  peek(keyId: string, nowMs: number): RateDecision {
    const w = this.windows.get(keyId)
    const open = w && nowMs < w.start + this.windowMs ? w : { start: nowMs, count: 0 }
    const end = open.start + this.windowMs
    return {
      allowed: open.count < this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - open.count),
      reset: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
    }
  }

  /** Drops windows that have ended, so memory follows the keys in use. */
  sweep(nowMs: number): void {
    for (const [k, w] of this.windows) if (nowMs >= w.start + this.windowMs) this.windows.delete(k)
  }
}
