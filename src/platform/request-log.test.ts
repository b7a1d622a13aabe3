// The request log: what GET /v1/request-log shows (and to whom), its filters, paging and retention.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { type Harness, harnessForFile, serveHarness } from '../../test/harness'
import { requestLog } from '../db/schema'
import { silentLogger } from '../shared/logger'
import { pruneRequestLog, RequestLogWriter, type RequestLogEntry } from './request-log'

let h: Harness
harnessForFile((made) => (h = made))

const base = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

interface Entry {
  id: number
  request_id: string
  method: string
  path: string
  status: number
  credential: { type: string; name: string }
  ip: string | null
  at: string
}

/** Every entry the Admin key sees, walking all pages. */
async function readLog(adminKey: string, query = ''): Promise<Entry[]> {
  const out: Entry[] = []
  let cursor: string | null = null
  do {
    const q = new URLSearchParams(query)
    q.set('limit', '100')
    if (cursor) q.set('cursor', cursor)
    const r = await h.request('GET', `/v1/request-log?${q}`, { key: adminKey })
    expect(r.status).toBe(200)
    out.push(...r.body.data)
    cursor = r.body.next_cursor
  } while (cursor)
  return out
}

describe('what an entry holds', () => {
  test('each request is listed with method, path without its query, status, credential, ip, request_id (the X-Request-Id answered) and time', async () => {
    const b = await h.business()
    const member = await h.key(b.id, 'member', 'reporting script')
    const at = h.clock.now().toISOString()
    const list = await h.request('GET', '/v1/clients?search=secret-term&limit=5', { key: member })
    const created = await h.request('POST', '/v1/clients', { key: member, body: { ...base, notes: 'body-secret' } })
    const missing = await h.request('GET', '/v1/clients/999999', { key: member })
    const refused = await h.request('POST', '/v1/clients', { key: member, body: { country: 'DE' } })
    const log = await readLog(b.key)
    const byId = new Map(log.map((e) => [e.request_id, e]))
    const expected = [
      [list, 'GET', '/v1/clients', 200],
      [created, 'POST', '/v1/clients', 201],
      [missing, 'GET', '/v1/clients/999999', 404],
      [refused, 'POST', '/v1/clients', 422],
    ] as const
    for (const [r, method, path, status] of expected) {
      const entry = byId.get(r.headers.get('X-Request-Id')!)
      expect(entry).toBeDefined()
      expect(entry).toEqual({
        id: expect.any(Number),
        request_id: r.headers.get('X-Request-Id')!,
        method,
        path,
        status,
        credential: { type: 'api_key', name: 'reporting script' },
        ip: null,
        at,
      })
    }
    const text = JSON.stringify(log)
    expect(text).not.toContain('secret-term')
    expect(text).not.toContain('body-secret')
    expect(text).not.toContain('?')
  })

  test('entries are listed oldest first', async () => {
    const b = await h.business()
    for (let i = 0; i < 3; i++) {
      await h.request('GET', '/v1/business', { key: b.key })
      h.clock.advance(1000)
    }
    const log = await readLog(b.key)
    const ids = log.map((e) => e.id)
    expect(ids).toEqual([...ids].sort((x, y) => x - y))
    const ats = log.map((e) => e.at)
    expect(ats).toEqual([...ats].sort())
  })

  test("the caller's IP address is recorded", async () => {
    const b = await h.business()
    const served = serveHarness(h)
    let requestId: string | null
    try {
      const res = await fetch(`${served.base}/v1/business`, {
        headers: { authorization: `Bearer ${b.key}` },
      })
      expect(res.status).toBe(200)
      requestId = res.headers.get('X-Request-Id')
    } finally {
      served.stop()
    }
    const entry = (await readLog(b.key)).find((e) => e.request_id === requestId)
    expect(entry?.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  })

  test('refused requests of a key are logged too (403, 405, 429)', async () => {
    const b = await h.business()
    const viewer = await h.key(b.id, 'viewer', 'read only')
    const forbidden = await h.request('POST', '/v1/clients', { key: viewer, body: base })
    const wrongMethod = await h.request('DELETE', '/v1/clients', { key: viewer })
    for (let i = 0; i < 118; i++) await h.request('GET', '/v1/business', { key: viewer })
    const limited = await h.request('GET', '/v1/business', { key: viewer })
    expect([forbidden.status, wrongMethod.status, limited.status]).toEqual([403, 405, 429])
    const log = await readLog(b.key)
    const statusOf = (r: typeof forbidden) => log.find((e) => e.request_id === r.headers.get('X-Request-Id'))?.status
    expect(statusOf(forbidden)).toBe(403)
    expect(statusOf(wrongMethod)).toBe(405)
    expect(statusOf(limited)).toBe(429)
  })

  test("requests with no or an unknown key are in no Business's log", async () => {
    const b = await h.business()
    const anonymous = await h.request('GET', '/v1/clients')
    const unknown = await h.request('GET', '/v1/clients', { key: 'inv_nobody' })
    const ids = new Set((await readLog(b.key)).map((e) => e.request_id))
    expect(ids.has(anonymous.headers.get('X-Request-Id')!)).toBe(false)
    expect(ids.has(unknown.headers.get('X-Request-Id')!)).toBe(false)
  })
})

describe('who sees it', () => {
  test("another Business's entries are never shown", async () => {
    const mine = await h.business()
    const theirs = await h.business()
    const ours = await h.request('GET', '/v1/business', { key: mine.key })
    const their = await h.request('GET', '/v1/business', { key: theirs.key })
    const myLog = await readLog(mine.key)
    const theirLog = await readLog(theirs.key)
    expect(myLog.map((e) => e.request_id)).toContain(ours.headers.get('X-Request-Id')!)
    expect(myLog.map((e) => e.request_id)).not.toContain(their.headers.get('X-Request-Id')!)
    expect(theirLog.map((e) => e.request_id)).not.toContain(ours.headers.get('X-Request-Id')!)
    const myIds = new Set(myLog.map((e) => e.id))
    for (const e of theirLog) expect(myIds.has(e.id)).toBe(false)
  })

  test('Member and Viewer keys are answered 403 permission', async () => {
    const b = await h.business()
    for (const role of ['member', 'viewer'] as const) {
      const r = await h.request('GET', '/v1/request-log', { key: await h.key(b.id, role) })
      expect(r.status).toBe(403)
      expect(r.body.error.type).toBe('permission')
    }
  })
})

describe('filters, paging and retention', () => {
  test('from and to narrow the list to entries within them, both ends included', async () => {
    const b = await h.business()
    h.clock.set('2026-04-01T10:00:00.000Z')
    await h.request('GET', '/v1/business', { key: b.key })
    h.clock.set('2026-04-01T11:00:00.000Z')
    const middle = await h.request('GET', '/v1/clients', { key: b.key })
    h.clock.set('2026-04-01T12:00:00.000Z')
    await h.request('GET', '/v1/bank-accounts', { key: b.key })
    h.clock.set('2026-04-01T13:00:00.000Z')

    const only = await readLog(b.key, 'from=2026-04-01T11:00:00Z&to=2026-04-01T11:00:00Z')
    expect(only.map((e) => e.request_id)).toEqual([middle.headers.get('X-Request-Id')!])
    const fromOn = await readLog(b.key, 'from=2026-04-01T10:30:00Z')
    expect(fromOn.map((e) => e.path).slice(0, 2)).toEqual(['/v1/clients', '/v1/bank-accounts'])
    expect(fromOn.every((e) => e.at >= '2026-04-01T10:30:00.000Z')).toBe(true)
    const upTo = await readLog(b.key, 'to=2026-04-01T11:30:00Z')
    expect(upTo.map((e) => e.path)).toEqual(['/v1/business', '/v1/clients'])
  })

  test('a from or to that is not a timestamp is 422 naming it', async () => {
    const b = await h.business()
    for (const name of ['from', 'to']) {
      const r = await h.request('GET', `/v1/request-log?${name}=yesterday`, { key: b.key })
      expect(r.status).toBe(422)
      expect(Object.keys(r.body.error.errors)).toEqual([name])
    }
  })

  test('the log is paged like every list: limit, next_cursor, and a forged cursor is 422 naming cursor', async () => {
    const b = await h.business()
    const sent: string[] = []
    for (let i = 0; i < 5; i++)
      sent.push((await h.request('GET', '/v1/business', { key: b.key })).headers.get('X-Request-Id')!)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const r = await h.request(
        'GET',
        `/v1/request-log?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: b.key },
      )
      expect(r.status).toBe(200)
      expect(r.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...r.body.data.map((e: Entry) => e.request_id))
      cursor = r.body.next_cursor
      pages++
    } while (cursor && pages < 20)
    // Each page's own request is logged as the walk goes on; every entry of the five appears exactly once.
    for (const id of sent) expect(seen.filter((s) => s === id).length).toBe(1)
    expect(new Set(seen).size).toBe(seen.length)
    const forged = await h.request('GET', '/v1/request-log?cursor=abc.def', { key: b.key })
    expect(forged.status).toBe(422)
    expect(Object.keys(forged.body.error.errors)).toEqual(['cursor'])
    const badLimit = await h.request('GET', '/v1/request-log?limit=0', { key: b.key })
    expect(Object.keys(badLimit.body.error.errors)).toEqual(['limit'])
  })

  test('pruneRequestLog erases entries older than the cutoff and keeps the rest', async () => {
    const b = await h.business()
    h.clock.set('2026-05-01T09:00:00.000Z')
    const old = await h.request('GET', '/v1/business', { key: b.key })
    h.clock.set('2026-05-20T09:00:00.000Z')
    const recent = await h.request('GET', '/v1/business', { key: b.key })
    await h.app.requestLog.flush()
    const removed = await pruneRequestLog(h.deps.db, '2026-05-10T00:00:00.000Z')
    expect(removed).toBeGreaterThanOrEqual(1)
    const ids = (await readLog(b.key)).map((e) => e.request_id)
    expect(ids).not.toContain(old.headers.get('X-Request-Id')!)
    expect(ids).toContain(recent.headers.get('X-Request-Id')!)
  })

  test('only the last 30 days are listed', async () => {
    const b = await h.business()
    h.clock.set('2026-06-01T09:00:00.000Z')
    const old = await h.request('GET', '/v1/business', { key: b.key })
    h.clock.set('2026-07-01T09:00:01.000Z')
    const recent = await h.request('GET', '/v1/business', { key: b.key })
    const ids = (await readLog(b.key)).map((e) => e.request_id)
    expect(ids).not.toContain(old.headers.get('X-Request-Id')!)
    expect(ids).toContain(recent.headers.get('X-Request-Id')!)
  })
})

describe('the buffered writer', () => {
  function entry(businessId: number, requestId: string): RequestLogEntry {
    return {
      businessId,
      requestId,
      method: 'GET',
      path: '/v1/business',
      status: 200,
      credentialType: 'api_key',
      credentialName: 'writer test',
      ip: null,
      at: h.clock.now().toISOString(),
    }
  }

  test('flush() returns only once everything added before it is written, even with other flushes already waiting', async () => {
    const b = await h.business()
    const writer = new RequestLogWriter(h.deps.db, silentLogger)
    writer.add(entry(b.id, 'first'))
    const running = writer.flush()
    writer.add(entry(b.id, 'second'))
    const waiting = writer.flush()
    const reader = writer.flush()
    await reader
    // Read the table at once: whatever flush() promised must already be there.
    const ids = (await h.deps.db.read.select().from(requestLog).where(eq(requestLog.businessId, b.id)).all()).map(
      (e) => e.requestId,
    )
    expect(ids).toContain('first')
    expect(ids).toContain('second')
    await Promise.all([running, waiting])
  })

  test('a full buffer is written without waiting for the timer', async () => {
    const b = await h.business()
    const writer = new RequestLogWriter(h.deps.db, silentLogger, 3)
    for (let i = 0; i < 3; i++) writer.add(entry(b.id, `full-${i}`))
    await writer.flush()
    const ids = (await readLog(b.key)).map((e) => e.request_id)
    expect(ids.filter((id) => id.startsWith('full-'))).toEqual(['full-0', 'full-1', 'full-2'])
  })
})
