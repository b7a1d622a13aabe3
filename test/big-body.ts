// Sends a large request body over a raw socket as a hostile client would: with its true Content-Length, chunked with
// none, or with a Content-Length that lies; for the tests (and the soak) that a server never holds such a body.
import { connect } from 'node:net'

export type BodyFraming = 'declared' | 'chunked' | 'lying'

export interface BigBodyAnswer {
  /** The answer's status, or 0 when the connection ended with none. */
  status: number
  headers: string
  body: string
  /** How many bytes of the body went out before the server answered or closed. */
  sent: number
}

/**
 * POSTs `bytes` of body to `url`, written 64 KiB at a time as the socket drains; stops writing once the server has
 * answered (or closed). `lying` declares 1 KiB and sends all the bytes anyway: the server must neither trust nor be
 * hurt by the declared length.
 */
export function sendBigBody(
  url: string,
  opts: {
    bytes: number
    framing: BodyFraming
    headers?: Record<string, string>
    timeoutMs?: number
    headStartMs?: number
  },
): Promise<BigBodyAnswer> {
  const u = new URL(url)
  const head = [`POST ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`]
  for (const [k, v] of Object.entries(opts.headers ?? {})) head.push(`${k}: ${v}`)
  if (opts.framing === 'declared') head.push(`Content-Length: ${opts.bytes}`)
  else if (opts.framing === 'lying') head.push('Content-Length: 1024')
  else head.push('Transfer-Encoding: chunked')
  const chunk = Buffer.alloc(64 * 1024, 0x61)
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname)
    let received = Buffer.alloc(0)
    let sent = 0
    let answered = false
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      socket.destroy()
      const text = received.toString('latin1')
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text)
      const split = text.indexOf('\r\n\r\n')
      resolve({
        status: m ? Number(m[1]) : 0,
        headers: split < 0 ? text : text.slice(0, split),
        body: split < 0 ? '' : text.slice(split + 4),
        sent,
      })
    }
    const timer = setTimeout(finish, opts.timeoutMs ?? 60_000)
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d])
      answered = true
      // The whole answer is in once its declared length has arrived.
      const text = received.toString('latin1')
      const split = text.indexOf('\r\n\r\n')
      const len = /\r\ncontent-length: (\d+)/i.exec(text)
      if (split >= 0 && len && received.length >= split + 4 + Number(len[1])) finish()
    })
    socket.on('close', finish)
    socket.on('error', finish)
    const write = () => {
      while (!answered && !finished && sent < opts.bytes) {
        const n = Math.min(chunk.length, opts.bytes - sent)
        const piece = n === chunk.length ? chunk : chunk.subarray(0, n)
        const frame =
          opts.framing === 'chunked'
            ? Buffer.concat([Buffer.from(n.toString(16) + '\r\n'), piece, Buffer.from('\r\n')])
            : piece
        sent += n
        if (!socket.write(frame)) return void socket.once('drain', write)
      }
      if (!answered && !finished && opts.framing === 'chunked' && sent >= opts.bytes) socket.write('0\r\n\r\n')
    }
    socket.on('connect', () => {
      socket.write(head.join('\r\n') + '\r\n\r\n')
      // A moment between head and body: a server that refuses on the head alone is heard before the socket is reset
      // under a body it will never read (a reset drops an answer not yet read).
      setTimeout(write, opts.headStartMs ?? 100)
    })
  })
}

/** The resident memory of a process now, in MB (10^6 bytes), from /proc. */
export async function rssOf(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  return (Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024) / 1e6
}
