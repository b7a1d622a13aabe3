// Reads a request body with two bounds a hostile client cannot stretch: its size (never more than the limit plus
// one chunk is held, however much is sent) and time (a body that stops arriving is given up on).
import { MAX_BODY_BYTES } from './pipeline'

/** How long a request body may go without a byte before the request is answered 408 and its connection closed. */
const BODY_IDLE_MS = 10_000
/** How long a whole body may take, however it trickles: one byte every few seconds must not hold a request open. */
const BODY_TOTAL_MS = 60_000

export type BodyRead = { text: string } | { fault: 'too_large' | 'timeout' }

/**
 * The body as text, or why it was not read. A declared Content-Length over the limit is refused without reading;
 * a chunked body is read until it passes the limit and no further.
 */
export async function readBody(request: Request, limits: { idleMs: number; totalMs: number } = { idleMs: BODY_IDLE_MS, totalMs: BODY_TOTAL_MS }): Promise<BodyRead> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return { fault: 'too_large' }
  const body = request.body
  if (!body) return { text: '' }
  const reader = body.getReader()
  const started = Date.now()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const wait = Math.min(limits.idleMs, limits.totalMs - (Date.now() - started))
      if (wait <= 0) return { fault: 'timeout' }
      let timer: ReturnType<typeof setTimeout> | undefined
      const next = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), wait))),
      ]).finally(() => clearTimeout(timer))
      if (next === 'timeout') return { fault: 'timeout' }
      if (next.done) break
      size += next.value.byteLength
      if (size > MAX_BODY_BYTES) return { fault: 'too_large' }
      chunks.push(next.value)
    }
  } finally {
    // What was not read is not waited for: the answer goes out and the connection is closed behind it.
    reader.cancel().catch(() => undefined)
  }
  return { text: Buffer.concat(chunks, size).toString('utf8') }
}
