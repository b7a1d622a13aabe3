// Handing memory back to the system once a burst of load is over (the idle server's RSS target is < 100 MB).
import { dlopen, FFIType } from 'bun:ffi'

type Trim = () => void

/** glibc's malloc_trim(0), through FFI: libSQL's page caches and rows are malloc'ed, and glibc keeps freed pages. */
function openMallocTrim(): Trim | null {
  try {
    const libc = dlopen('libc.so.6', { malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 } })
    return () => void libc.symbols.malloc_trim(0)
  } catch {
    // Not glibc (musl, another OS): nothing to trim this way.
    return null
  }
}

let trim: Trim | null | undefined

/**
 * A full collection, then JavaScriptCore's shrink (drops the burst's optimised code and its allocator's free pages;
 * marked deprecated in bun-types, with no replacement that reaches them), then glibc's trim. Measured after the
 * bench's load: about 97 MB RSS with the collection alone, 87 MB with shrink, 82 MB with the trim as well.
 */
export function handBackMemory(): void {
  Bun.gc(true)
  Bun.shrink()
  if (trim === undefined) trim = openMallocTrim()
  trim?.()
}

/**
 * When a server hands memory back: once it has had no request for `afterMs`, the burst's memory (`first`: caches, then
 * the heap); and while it stays idle, the heap again every `againMs` (`again`): the jobs polling every second (webhook
 * outboxes, the request log) leave a little garbage each time, which grew an idle server by 5-10 MB before the
 * collector noticed it. `seen` is called for every request; `tick` by a timer.
 */
export function idleHandBack(o: {
  afterMs: number
  againMs: number
  first: () => Promise<void>
  again: () => void
  now?: () => number
}) {
  const now = o.now ?? Date.now
  let lastRequest = now()
  let burstReleased = true
  let handedBack = -Infinity
  return {
    seen(): void {
      lastRequest = now()
      burstReleased = false
    },
    /** What this tick did: nothing, the first hand-back after a burst, or another while idle. */
    async tick(): Promise<'busy' | 'first' | 'again' | 'waiting'> {
      const t = now()
      if (t - lastRequest < o.afterMs) return 'busy'
      if (!burstReleased) {
        burstReleased = true
        await o.first()
        o.again()
        handedBack = now()
        return 'first'
      }
      if (t - handedBack < o.againMs) return 'waiting'
      o.again()
      handedBack = now()
      return 'again'
    },
  }
}
