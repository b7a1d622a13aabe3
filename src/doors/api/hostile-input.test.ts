// Hostile clients against the real server (`invoicing serve`'s own Bun.serve settings): bodies of any size over
// 1 MiB are answered 413 in the contract's shape, a body that stalls is cut off in bounded time, a short Host
// header cannot make the router and the pipeline read two different paths, API answers are not cached or sniffed,
// and the database files are the owner's alone.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { connect } from 'node:net'
import { serve } from '../../cli/serve'
import { makeHarness, type Harness } from '../../../test/harness'

let h: Harness
let server: { stop: () => Promise<void>; port: number }
let key: string
const MiB = 1024 * 1024
// Short bounds so the test does not wait out the real ones (10 s without a byte, 60 s in all).
const IDLE_MS = 400

beforeAll(async () => {
  h = await makeHarness({ config: { bodyLimits: { idleMs: IDLE_MS, totalMs: 3_000 } } })
  key = (await h.business()).key
  server = await serve(h.deps, 0)
})
// serve's stop closes the database the harness opened.
afterAll(() => server.stop())

const url = (path: string) => `http://127.0.0.1:${server.port}${path}`

async function clientCount(): Promise<number> {
  const r = await fetch(url('/v1/clients?limit=100'), { headers: { authorization: `Bearer ${key}` } })
  return ((await r.json()) as any).data.length
}

/** A raw HTTP/1.1 exchange: what the server wrote and how long until it closed the connection. */
function raw(request: string, waitMs = 15_000): Promise<{ text: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const started = performance.now()
    let text = ''
    const socket = connect(server.port, '127.0.0.1', () => socket.write(request))
    socket.on('data', (d) => (text += d.toString()))
    socket.on('error', () => undefined)
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ text, closedAfterMs: null })
    }, waitMs)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ text, closedAfterMs: performance.now() - started })
    })
  })
}

function jsonOf(text: string): any {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))
}

describe('bodies over 1 MiB', () => {
  for (const size of [MiB + 1, 2 * MiB + 1, 8 * MiB]) {
    for (const framing of ['Content-Length', 'chunked'] as const) {
      test(`${size} bytes sent ${framing}: 413 invalid_request JSON, nothing created`, async () => {
        const envelope = '{"name":"Big","email":"a@b.de","country":"DE","notes":""}'
        const bytes = new TextEncoder().encode(envelope.slice(0, -2) + 'x'.repeat(size - envelope.length) + '"}')
        expect(bytes.length).toBe(size)
        const res = await fetch(url('/v1/clients'), {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body:
            framing === 'chunked'
              ? new ReadableStream({
                  start(c) {
                    for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.subarray(i, i + 64 * 1024))
                    c.close()
                  },
                })
              : bytes,
        })
        expect(res.status).toBe(413)
        expect(res.headers.get('content-type')).toContain('application/json')
        const answer = (await res.json()) as any
        expect(answer.error.type).toBe('invalid_request')
        expect(answer.error.message).toContain('1 MiB')
        expect(await clientCount()).toBe(0)
      }, 30_000)
    }
  }
})

describe('a body that stops arriving', () => {
  test('is answered 408 invalid_request and its connection closed, for a Content-Length and a chunked body', async () => {
    const head = `POST /v1/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n`
    const [declared, chunked] = await Promise.all([
      raw(`${head}Content-Length: 100\r\n\r\n{"name":`),
      raw(`${head}Transfer-Encoding: chunked\r\n\r\n8\r\n{"name":\r\n`),
    ])
    for (const r of [declared, chunked]) {
      expect(r.text.startsWith('HTTP/1.1 408')).toBe(true)
      expect(jsonOf(r.text).error.type).toBe('invalid_request')
      expect(r.closedAfterMs).not.toBeNull()
      expect(r.closedAfterMs!).toBeLessThan(IDLE_MS + 5_000)
    }
  }, 30_000)

  test('fifty stalled connections are all closed, none left open', async () => {
    const head = `POST /v1/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`
    // Within the body bound and a margin, well before Bun's own 10 s idle timeout would have closed them.
    const all = await Promise.all(Array.from({ length: 50 }, () => raw(head, IDLE_MS + 4_000)))
    expect(all.filter((r) => r.closedAfterMs === null)).toEqual([])
    // The service still answers.
    expect((await fetch(url('/health'))).status).toBe(200)
  }, 30_000)

  test('one that trickles a byte at a time is cut off at the total bound', async () => {
    const started = performance.now()
    const result = await new Promise<string>((resolve) => {
      let text = ''
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.write(
          `POST /v1/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
        ),
      )
      const drip = setInterval(() => socket.write(' '), IDLE_MS / 4)
      socket.on('data', (d) => (text += d.toString()))
      socket.on('error', () => undefined)
      socket.on('close', () => {
        clearInterval(drip)
        resolve(text)
      })
    })
    expect(result.startsWith('HTTP/1.1 408')).toBe(true)
    expect(performance.now() - started).toBeLessThan(3_000 + 5_000)
  }, 30_000)
})

describe('the path is read once', () => {
  test('GET /v1/v1/business with a one-letter Host is 404 not_found, not a route reached without a credential', async () => {
    const r = await raw('GET /v1/v1/business HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(r.text.startsWith('HTTP/1.1 404')).toBe(true)
    expect(jsonOf(r.text).error.type).toBe('not_found')
    // In process too, for every short host and with a key: the same 404, and a real path still answers.
    for (const host of ['x', 'ab', 'a:1']) {
      const res = await h.app.fetch(
        new Request(`http://${host}/v1/v1/business`, { headers: { authorization: `Bearer ${key}` } }),
      )
      expect(res.status).toBe(404)
      const ok = await h.app.fetch(
        new Request(`http://${host}/v1/business`, { headers: { authorization: `Bearer ${key}` } }),
      )
      expect(ok.status).toBe(200)
      const none = await h.app.fetch(new Request(`http://${host}/v1/business`))
      expect(none.status).toBe(401)
    }
    // A body goes along with the request the app is handed.
    const created = await h.app.fetch(
      new Request('http://x/v1/clients', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Short Host', email: 'a@b.de', country: 'DE' }),
      }),
    )
    expect(created.status).toBe(201)
    expect(((await created.json()) as any).name).toBe('Short Host')
  })
})

describe('answers and files', () => {
  test('authenticated API answers say Cache-Control: no-store and X-Content-Type-Options: nosniff, refusals too', async () => {
    for (const res of [
      await fetch(url('/v1/business'), { headers: { authorization: `Bearer ${key}` } }),
      await fetch(url('/v1/clients/999999'), { headers: { authorization: `Bearer ${key}` } }),
      await fetch(url('/v1/business')),
    ]) {
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      await res.arrayBuffer()
    }
  })

  test('the database file and its -wal and -shm files are readable and writable by their owner only (0600)', () => {
    const path = h.deps.config.dbPath
    for (const f of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(f).mode & 0o777).toString(8)).toBe('600')
  })
})
