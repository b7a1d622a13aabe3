// The webhook POST: to a pinned, already-checked address; one overall limit until the answer's head arrives, no
// redirects followed, then at most the first 1 KB of the body, read for a short grace period.
import http from 'node:http'
import https from 'node:https'

export interface PostRequest {
  url: URL
  /** The address that passed the guard; the connection goes there, whatever DNS says now. */
  address: string
  headers: Record<string, string>
  body: string
  /** From the start of the attempt (connect included) until the status line and headers are in. */
  timeoutMs: number
}

/** `durationMs` of an answer is the time until its status arrived; the excerpt is whatever of the body came in time. */
export type PostResult =
  | { kind: 'answer'; status: number; excerpt: string; durationMs: number }
  | { kind: 'error'; error: string; durationMs: number }

export interface WebhookSender {
  post(r: PostRequest): Promise<PostResult>
}

export const EXCERPT_BYTES = 1024
/** After the head, how long the start of the body is waited for; the outcome is already decided by the status. */
export const EXCERPT_GRACE_MS = 1_000

/** "15 s", or "300 ms" for a limit that is not whole seconds (tests shorten it). */
export function limitText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

export const httpSender: WebhookSender = {
  post(r) {
    const started = performance.now()
    const family = r.address.includes(':') ? 6 : 4
    const elapsed = () => Math.round(performance.now() - started)
    return new Promise<PostResult>((resolve) => {
      let settled = false
      let answer: { status: number; durationMs: number } | null = null
      const chunks: Buffer[] = []
      let size = 0
      let res: http.IncomingMessage | null = null
      let grace: ReturnType<typeof setTimeout> | undefined
      // A total limit, not an idle one: a receiver that drips its status line byte by byte still runs out of time.
      const limit = setTimeout(() => settle(), r.timeoutMs)
      const lib = r.url.protocol === 'https:' ? https : http
      const req = lib.request(
        r.url,
        {
          method: 'POST',
          headers: { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) },
          // Pinning the lookup keeps the TLS name and Host header while connecting only to the checked address.
          lookup: ((_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
            opts?.all ? cb(null, [{ address: r.address, family }]) : cb(null, r.address, family)) as never,
        },
        (response) => {
          if (settled) return response.destroy()
          res = response
          // The status decides the outcome; the body is read only for the deliveries list, briefly and at most 1 KB.
          answer = { status: response.statusCode ?? 0, durationMs: elapsed() }
          clearTimeout(limit)
          grace = setTimeout(() => settle(), EXCERPT_GRACE_MS)
          response.on('data', (c: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(c)
            size += c.length
            if (size >= EXCERPT_BYTES) settle()
          })
          response.on('end', () => settle())
          response.on('close', () => settle())
          response.on('error', () => settle())
        },
      )
      /** Ends the attempt once: the answer if its head came in, otherwise the reason; the socket is always closed. */
      function settle(error?: NodeJS.ErrnoException) {
        if (settled) return
        settled = true
        clearTimeout(limit)
        clearTimeout(grace)
        if (answer) {
          resolve({
            kind: 'answer',
            status: answer.status,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            durationMs: answer.durationMs,
          })
        } else if (error) {
          resolve({
            kind: 'error',
            error: error.code ? `no connection (${error.code})` : 'no connection',
            durationMs: elapsed(),
          })
        } else {
          resolve({ kind: 'error', error: `no answer within ${limitText(r.timeoutMs)}`, durationMs: elapsed() })
        }
        // Nothing more is read: a body that never ends must not hold the delivery batch or outlast the claim.
        res?.destroy()
        req.destroy()
      }
      req.on('error', (e: NodeJS.ErrnoException) => settle(e))
      req.end(r.body)
    })
  },
}

/** A sender for tests: records every request and answers what it is told. */
export class FakeSender implements WebhookSender {
  readonly requests: PostRequest[] = []
  constructor(
    public answer: (r: PostRequest) => PostResult = () => ({
      kind: 'answer',
      status: 200,
      excerpt: 'ok',
      durationMs: 1,
    }),
  ) {}
  async post(r: PostRequest): Promise<PostResult> {
    this.requests.push(r)
    return this.answer(r)
  }
}
