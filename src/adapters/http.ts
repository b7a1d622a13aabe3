// The webhook POST: to a pinned, already-checked address, 15 s limit, no redirects followed, first 1 KB kept.
import http from 'node:http'
import https from 'node:https'

export interface PostRequest {
  url: URL
  /** The address that passed the guard; the connection goes there, whatever DNS says now. */
  address: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

export type PostResult = { kind: 'answer'; status: number; excerpt: string; durationMs: number } | { kind: 'error'; error: string; durationMs: number }

export interface WebhookSender {
  post(r: PostRequest): Promise<PostResult>
}

const EXCERPT_BYTES = 1024

export const httpSender: WebhookSender = {
  post(r) {
    const started = performance.now()
    const family = r.address.includes(':') ? 6 : 4
    return new Promise<PostResult>((resolve) => {
      let settled = false
      const done = (v: PostResult) => {
        if (settled) return
        settled = true
        resolve(v)
      }
      const elapsed = () => Math.round(performance.now() - started)
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
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (c: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(c)
            size += c.length
            // Only the start of the answer is kept; stop reading a large one.
            if (size >= EXCERPT_BYTES) res.destroy()
          })
          const finish = () => done({ kind: 'answer', status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'), durationMs: elapsed() })
          res.on('end', finish)
          res.on('close', finish)
          res.on('error', finish)
        },
      )
      req.setTimeout(r.timeoutMs, () => {
        req.destroy()
        done({ kind: 'error', error: `no answer within ${Math.round(r.timeoutMs / 1000)} s`, durationMs: elapsed() })
      })
      req.on('error', (e: NodeJS.ErrnoException) => done({ kind: 'error', error: e.code ? `no connection (${e.code})` : 'no connection', durationMs: elapsed() }))
      req.end(r.body)
    })
  },
}

/** A sender for tests: records every request and answers what it is told. */
export class FakeSender implements WebhookSender {
  readonly requests: PostRequest[] = []
  constructor(public answer: (r: PostRequest) => PostResult = () => ({ kind: 'answer', status: 200, excerpt: 'ok', durationMs: 1 })) {}
  async post(r: PostRequest): Promise<PostResult> {
    this.requests.push(r)
    return this.answer(r)
  }
}
