// Dynamic registration (RFC 7591) takes no credential, so one address could fill the table with apps: it is limited
// per IP address to 20 registrations an hour, the limit the MCP SDK's own authorization server puts on /register
// (an assistant registers once per server it meets, so a person never comes near it). Client ID Metadata Documents
// fetched for client_ids not yet known are counted the same way, apart (each fetch is an outbound request and a kept
// app). Counted in the process: it guards the table against a flood, it is not a quota, so a second process counting
// apart is acceptable.
import type { Clock } from '../../shared/clock'

export const PER_ADDRESS_PER_HOUR = 20
const WINDOW_MS = 3600_000
/** Past this many addresses the windows that have ended are dropped, so the map follows the addresses in use. */
const SWEEP_AT = 10_000

export class AddressLimit {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly clock: Clock,
    readonly limit = PER_ADDRESS_PER_HOUR,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Counts one registration from `ip` (null: not known, counted together) and says when it may come again. */
  hit(ip: string | null): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.clock.now().getTime()
    const key = ip ?? 'unknown'
    let w = this.windows.get(key)
    if (!w || now >= w.start + this.windowMs) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now)
      w = { start: now, count: 0 }
      this.windows.set(key, w)
    }
    w.count++
    if (w.count <= this.limit) return { allowed: true }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000)) }
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now >= w.start + this.windowMs) this.windows.delete(k)
  }
}
