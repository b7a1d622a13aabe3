// Reads a request body with two bounds a hostile client cannot stretch: its size (never more than the limit plus
// one chunk is held, however much is sent) and time (a body that stops arriving is given up on). The one reader of
// bodies for every door; `serve` caps what Bun itself takes at SERVED_BODY_CAP behind it.
/** The largest body any door reads (the API's 1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024

/** How long a request body may go without a byte before the request is answered 408 and its connection closed. */
const BODY_IDLE_MS = 10_000
/** How long a whole body may take, however it trickles: one byte every few seconds must not hold a request open. */
const BODY_TOTAL_MS = 60_000

/**
 * The most a served request may declare before Bun itself refuses it (Bun.serve's maxRequestBodySize): far above
 * every door's own limit, so a body up to it is refused by the door in its own words (the contract's 413), and one
 * declaring more gets Bun's bare 413 without the service ever seeing it.
 */
export const SERVED_BODY_CAP = 16 * 1024 * 1024

export type BodyRead = { text: string } | { fault: 'too_large' | 'timeout' }
export type BodyBytesRead = { bytes: Uint8Array } | { fault: 'too_large' | 'timeout' }

/** How a door bounds the bodies it reads: the size it takes (the API's 1 MiB unless the door's is smaller) and time. */
export interface BodyBounds {
  idleMs?: number
  totalMs?: number
  maxBytes?: number
}

/**
 * The body as text, or why it was not read. A declared Content-Length over the limit is refused without reading;
 * a chunked body is read until it passes the limit and no further.
 */
export async function readBody(request: Request, bounds: BodyBounds = {}): Promise<BodyRead> {
  const read = await readBodyBytes(request, bounds)
  return 'fault' in read
    ? read
    : { text: Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString('utf8') }
}

/** The body's bytes within the same bounds: every door (API, MCP, OAuth, the application's forms) reads through here. */
export async function readBodyBytes(request: Request, bounds: BodyBounds = {}): Promise<BodyBytesRead> {
  const idleMs = bounds.idleMs ?? BODY_IDLE_MS
  const totalMs = bounds.totalMs ?? BODY_TOTAL_MS
  const maxBytes = bounds.maxBytes ?? MAX_BODY_BYTES
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) return { fault: 'too_large' }
  const body = request.body
  if (!body) return { bytes: new Uint8Array() }
  const reader = body.getReader()
  const started = Date.now()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const wait = Math.min(idleMs, totalMs - (Date.now() - started))
      if (wait <= 0) return { fault: 'timeout' }
      let timer: ReturnType<typeof setTimeout> | undefined
      const next = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), wait))),
      ]).finally(() => clearTimeout(timer))
      if (next === 'timeout') return { fault: 'timeout' }
      if (next.done) break
      size += next.value.byteLength
      if (size > maxBytes) return { fault: 'too_large' }
      chunks.push(next.value)
    }
  } finally {
    // What was not read is not waited for: the answer goes out and the connection is closed behind it.
    reader.cancel().catch(() => undefined)
  }
  return { bytes: Buffer.concat(chunks, size) }
}
