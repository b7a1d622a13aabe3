// The answer limit: one total timer from the start of an attempt until the answer's head, the outcome decided by the
// status as soon as the head is in, then at most the first kilobyte of the body read for a short grace, and the
// socket closed. Receivers are raw TCP servers on 127.0.0.1 so that a status line or a body can be dripped byte by
// byte; they are reached by the real httpSender, alone and through deliverDue.
import { describe, expect, test } from 'bun:test'
import net from 'node:net'
import type { Harness } from '../../../test/harness'
import {
  EXCERPT_BYTES,
  EXCERPT_GRACE_MS,
  httpSender,
  type PostRequest,
  type PostResult,
  type WebhookSender,
} from '../../adapters/http'
import { deliveryContext } from '../../jobs/webhooks'
import { RESOLVE_TIMEOUT_MS } from './address-guard'
import { deliverDue, dispatchOutbox, type DeliveryContext } from './delivery'
import { ANSWER_TIMEOUT_MS, ATTEMPT_LIMIT_MS, CLAIM_MARGIN_MS, CLAIM_MS, SENDER_SLACK_MS } from './engine'
import { acmeClient, liveDeliveryFixture, liveDeliveryHarness, CONSULTING_LINE, issueInvoice } from './webhooks.testkit'

// ------------------------------------------------------------------------------------------------------------
// Helpers

/** Room for a loaded machine on top of a limit; far below the lengths the old sender would have taken. */
const SLACK_MS = 400

interface RawReceiver {
  url: string
  port: number
  /** Requests whose head has arrived. */
  requests: number
  /** Resolves when the server side of the n-th connection (0-based) is closed. */
  closed(n?: number): Promise<void>
  stop(): Promise<void>
}

/** A TCP server that, once a request's head is in, hands the socket to `answer` to write whatever it likes. */
async function rawReceiver(answer: (s: net.Socket) => void): Promise<RawReceiver> {
  const sockets: Array<{ socket: net.Socket; closed: Promise<void> }> = []
  const timers = new Set<ReturnType<typeof setInterval>>()
  const state = { requests: 0 }
  const server = net.createServer((socket) => {
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
    sockets.push({ socket, closed })
    socket.on('error', () => {})
    let head = ''
    let answered = false
    socket.on('data', (d) => {
      if (answered) return
      head += d.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      answered = true
      state.requests++
      answer(socket)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    get requests() {
      return state.requests
    },
    async closed(n = 0) {
      while (!sockets[n]) await Bun.sleep(10)
      await sockets[n]!.closed
    },
    async stop() {
      for (const t of timers) clearInterval(t)
      for (const { socket } of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Writes `text` one byte every `everyMs`, then calls `then`; stops when the socket goes. */
function drip(s: net.Socket, text: string, everyMs: number, then?: () => void) {
  let i = 0
  const t = setInterval(() => {
    if (s.destroyed) return clearInterval(t)
    if (i >= text.length) {
      clearInterval(t)
      return then?.()
    }
    s.write(text[i++]!)
  }, everyMs)
  s.on('close', () => clearInterval(t))
}

/** Writes a chunked body's chunk of one byte every `everyMs`, forever (until the socket goes). */
function dripForever(s: net.Socket, everyMs: number) {
  const t = setInterval(() => {
    if (s.destroyed) return clearInterval(t)
    s.write('1\r\nx\r\n')
  }, everyMs)
  s.on('close', () => clearInterval(t))
}

const CHUNKED_200 = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n'

function post(url: string, timeoutMs: number): PostRequest {
  return {
    url: new URL(url),
    address: '127.0.0.1',
    headers: { 'content-type': 'application/json' },
    body: '{"type":"ping"}',
    timeoutMs,
  }
}

async function timed(p: Promise<PostResult>): Promise<{ r: PostResult; ms: number }> {
  const t0 = performance.now()
  const r = await p
  return { r, ms: performance.now() - t0 }
}

/** 5 KB that show where a cut was made: 1024 'A's, then 'B's. */
const FIVE_KB = 'A'.repeat(EXCERPT_BYTES) + 'B'.repeat(5 * 1024 - EXCERPT_BYTES)

// ------------------------------------------------------------------------------------------------------------

describe('httpSender: one total limit until the head, then the first kilobyte for a short grace', () => {
  test('a 200 whose body never ends is an answer as soon as the head is in: status 200, the start of the body kept, the socket closed after the grace', async () => {
    const rx = await rawReceiver((s) => {
      s.write(CHUNKED_200 + '6\r\nhello \r\n')
      dripForever(s, 50)
    })
    try {
      const { r, ms } = await timed(httpSender.post(post(rx.url, 5_000)))
      expect(r.kind).toBe('answer')
      if (r.kind !== 'answer') return
      expect(r.status).toBe(200)
      expect(r.excerpt.startsWith('hello ')).toBe(true)
      expect(r.excerpt.length).toBeLessThanOrEqual(EXCERPT_BYTES)
      // Decided at the head: the recorded duration is the time to the status, not the time spent reading.
      expect(r.durationMs).toBeLessThan(EXCERPT_GRACE_MS)
      expect(ms).toBeLessThan(EXCERPT_GRACE_MS + SLACK_MS)
      await rx.closed()
    } finally {
      await rx.stop()
    }
  })

  test('a status line dripped past the limit is "no answer within …", however steadily its bytes come', async () => {
    const rx = await rawReceiver((s) => drip(s, 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', 40))
    try {
      const { r, ms } = await timed(httpSender.post(post(rx.url, 300)))
      expect(r).toMatchObject({ kind: 'error', error: 'no answer within 300 ms' })
      expect(ms).toBeGreaterThanOrEqual(290)
      expect(ms).toBeLessThan(300 + SLACK_MS)
      // The connection is given up, not left dripping.
      await rx.closed()
    } finally {
      await rx.stop()
    }
  })

  test('a receiver that accepts and says nothing is "no answer" at the limit', async () => {
    const rx = await rawReceiver(() => {})
    try {
      const { r, ms } = await timed(httpSender.post(post(rx.url, 250)))
      expect(r).toMatchObject({ kind: 'error', error: 'no answer within 250 ms' })
      expect(ms).toBeLessThan(250 + SLACK_MS)
      await rx.closed()
    } finally {
      await rx.stop()
    }
  })

  test('a body dripping forever after a slow head still ends the attempt within the limit plus the grace', async () => {
    const limit = 1_000
    const rx = await rawReceiver((s) => drip(s, CHUNKED_200, 8, () => dripForever(s, 20)))
    try {
      const { r, ms } = await timed(httpSender.post(post(rx.url, limit)))
      expect(r.kind).toBe('answer')
      if (r.kind === 'answer') {
        expect(r.status).toBe(200)
        expect(r.excerpt).toMatch(/^x+$/)
      }
      expect(ms).toBeLessThan(limit + EXCERPT_GRACE_MS + SLACK_MS)
      await rx.closed()
    } finally {
      await rx.stop()
    }
  })

  test('a 500 with a 5 KB body is an answer 500 with only its first kilobyte kept', async () => {
    const rx = await rawReceiver((s) =>
      s.write(
        `HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: ${FIVE_KB.length}\r\n\r\n${FIVE_KB}`,
      ),
    )
    try {
      const r = await httpSender.post(post(rx.url, 5_000))
      expect(r).toMatchObject({ kind: 'answer', status: 500, excerpt: FIVE_KB.slice(0, EXCERPT_BYTES) })
    } finally {
      await rx.stop()
    }
  })

  test('a 5 KB body that stalls after its first bytes keeps what arrived within the grace', async () => {
    const rx = await rawReceiver((s) =>
      s.write(`HTTP/1.1 503 Service Unavailable\r\nContent-Length: ${FIVE_KB.length}\r\n\r\n${FIVE_KB.slice(0, 100)}`),
    )
    try {
      const { r, ms } = await timed(httpSender.post(post(rx.url, 5_000)))
      expect(r).toMatchObject({ kind: 'answer', status: 503, excerpt: FIVE_KB.slice(0, 100) })
      expect(ms).toBeLessThan(EXCERPT_GRACE_MS + SLACK_MS)
    } finally {
      await rx.stop()
    }
  })
})

describe('deliverDue with the real sender: the outcome of an attempt under the answer limit', () => {
  let h: Harness
  let key: string
  let clientId: number

  liveDeliveryFixture((f) => ({ h, key, clientId } = f))

  /** One webhook to `url`, one Invoice issued, one attempt made; answers the delivery as the API lists it. */
  async function oneAttempt(
    url: string,
    ctx: DeliveryContext = deliveryContext(h.deps),
  ): Promise<{ d: any; ms: number }> {
    const w = await h.request('POST', '/v1/webhooks', { key, body: { url, events: ['document.issued'] } })
    expect(w.status).toBe(201)
    await issueInvoice(h, key, clientId, CONSULTING_LINE)
    await dispatchOutbox(ctx)
    const t0 = performance.now()
    expect(await deliverDue(ctx)).toBe(1)
    const ms = performance.now() - t0
    const list = await h.request('GET', `/v1/webhooks/${w.body.id}/deliveries?limit=100`, { key })
    await h.request('DELETE', `/v1/webhooks/${w.body.id}`, { key })
    return { d: list.body.data[0], ms }
  }

  test('a receiver that answers 200 at once and never ends the body is delivered: status 200 recorded with the start of the body, the batch not held', async () => {
    const rx = await rawReceiver((s) => {
      s.write(CHUNKED_200 + '9\r\nreceived \r\n')
      dripForever(s, 50)
    })
    try {
      const { d, ms } = await oneAttempt(rx.url)
      expect(d.status).toBe('delivered')
      expect(d.attempts).toHaveLength(1)
      expect(d.attempts[0].status_code).toBe(200)
      expect(d.attempts[0].error).toBeNull()
      expect(d.attempts[0].response.startsWith('received ')).toBe(true)
      expect(ms).toBeLessThan(EXCERPT_GRACE_MS + SLACK_MS + 500)
      await rx.closed()
    } finally {
      await rx.stop()
    }
  })

  test('a status line dripped past the limit is a failure "no answer within …", retried', async () => {
    const rx = await rawReceiver((s) => drip(s, 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', 40))
    try {
      const { d, ms } = await oneAttempt(rx.url, { ...deliveryContext(h.deps), answerTimeoutMs: 300 })
      expect(d.status).toBe('pending')
      expect(d.next_attempt_at).not.toBeNull()
      expect(d.attempts[0].status_code).toBeNull()
      expect(d.attempts[0].error).toBe('no answer within 300 ms')
      expect(d.attempts[0].response).toBeNull()
      expect(ms).toBeLessThan(300 + SLACK_MS + 500)
    } finally {
      await rx.stop()
    }
  })

  test('a 500 with a 5 KB body is a failure with only the first kilobyte kept', async () => {
    const rx = await rawReceiver((s) =>
      s.write(`HTTP/1.1 500 Internal Server Error\r\nContent-Length: ${FIVE_KB.length}\r\n\r\n${FIVE_KB}`),
    )
    try {
      const { d } = await oneAttempt(rx.url)
      expect(d.status).toBe('pending')
      expect(d.reason).toBe('answered 500')
      expect(d.attempts[0].status_code).toBe(500)
      expect(d.attempts[0].response).toBe(FIVE_KB.slice(0, EXCERPT_BYTES))
    } finally {
      await rx.stop()
    }
  })

  test('a sender that never settles is given up after the limit plus the grace: the attempt is a failure, retried', async () => {
    const hung: WebhookSender = { post: () => new Promise<PostResult>(() => {}) }
    const ctx: DeliveryContext = { ...deliveryContext(h.deps), sender: hung, answerTimeoutMs: 200 }
    const { d, ms } = await oneAttempt('http://127.0.0.1:9/hook', ctx)
    expect(d.status).toBe('pending')
    expect(d.attempts[0].error).toBe('no answer within 200 ms')
    expect(ms).toBeLessThan(200 + EXCERPT_GRACE_MS + SENDER_SLACK_MS + SLACK_MS)
  })

  test('every stage of an attempt is bounded and together they end well inside the claim, so no other process sends it twice', () => {
    expect(ANSWER_TIMEOUT_MS).toBe(15_000)
    expect(ATTEMPT_LIMIT_MS).toBe(RESOLVE_TIMEOUT_MS + ANSWER_TIMEOUT_MS + EXCERPT_GRACE_MS + SENDER_SLACK_MS)
    expect(ATTEMPT_LIMIT_MS + CLAIM_MARGIN_MS).toBeLessThanOrEqual(CLAIM_MS)
  })
})
