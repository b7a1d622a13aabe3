// A GET of a small JSON document (an OAuth Client ID Metadata Document) from a pinned, already-checked address:
// one overall time limit, no redirects followed, at most a few kilobytes read.
import http from 'node:http'
import https from 'node:https'

export interface DocumentRequest {
  url: URL
  /** The address that passed the guard; the connection goes there, whatever DNS says now. */
  address: string
  timeoutMs: number
  maxBytes: number
  /** The Accept header; JSON unless told (the ECB's rates are XML). */
  accept?: string
}

export type DocumentResult =
  | { kind: 'answer'; status: number; contentType: string; body: string }
  | { kind: 'error'; error: string }

export interface DocumentFetcher {
  get(r: DocumentRequest): Promise<DocumentResult>
}

export const httpDocumentFetcher: DocumentFetcher = {
  get(r) {
    const family = r.address.includes(':') ? 6 : 4
    return new Promise<DocumentResult>((resolve) => {
      let settled = false
      const settle = (v: DocumentResult) => {
        if (settled) return
        settled = true
        clearTimeout(limit)
        req.destroy()
        resolve(v)
      }
      const limit = setTimeout(() => settle({ kind: 'error', error: 'no answer in time' }), r.timeoutMs)
      const lib = r.url.protocol === 'https:' ? https : http
      const req = lib.request(
        r.url,
        {
          method: 'GET',
          headers: { accept: r.accept ?? 'application/json' },
          lookup: ((_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
            opts?.all ? cb(null, [{ address: r.address, family }]) : cb(null, r.address, family)) as never,
        },
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (c: Buffer) => {
            size += c.length
            if (size > r.maxBytes) return settle({ kind: 'error', error: `document larger than ${r.maxBytes} bytes` })
            chunks.push(c)
          })
          res.on('end', () =>
            settle({
              kind: 'answer',
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          )
          res.on('error', () => settle({ kind: 'error', error: 'connection lost' }))
        },
      )
      req.on('error', () => settle({ kind: 'error', error: 'no connection' }))
      req.end()
    })
  },
}
