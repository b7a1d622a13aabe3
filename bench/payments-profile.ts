// Where a recorded Payment's time goes, in one process with no sockets and no wrk: the hand-written transaction
// (bench/payments-direct.ts), recordPayment() itself and the whole request through the app's fetch handler, one at a
// time; then 32 requests in flight, without and with the webhook dispatcher the server runs every second. Each with
// synchronous=OFF (the CPU alone) and FULL (plus the fsync of each commit), on a fresh temp database.
//
//   bun bench/payments-profile.ts [--seconds 3] [--keep]        (about 1 minute with the default)
//
// recordPayment() is timed by phase through wrappers on the database clients (src/ is not changed): reads before
// the transaction, BEGIN, every statement inside it (by SQL text), JavaScript between them, COMMIT, reads after it.
// It is a diagnostic for bench/payments.ts, not a benchmark with a target.
import type { Client, InStatement, Transaction } from '@libsql/client'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createDeps } from '../src/deps'
import { deliveryContext } from '../src/jobs/webhooks'
import { createApiKey, createBusiness, credentialLookup, setNumbering } from '../src/modules/business'
import { recordPayment } from '../src/modules/payments/payments.service'
import { dispatchOutbox } from '../src/modules/webhooks'
import { directContext, directTransaction } from './payments-direct'

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const SECONDS = Number(option('seconds') ?? 3)
const DOCS = 32
const FLUSH_EVERY = 100
const BODY = { amount: '0.01', payment_date: '2026-01-15', payment_method: 'cash' as const }

// ---------------------------------------------------------------- instrumentation

type Phase = 'pre' | 'tx' | 'post'
let phase: Phase = 'pre'
const us = (ms: number) => ms * 1000
interface Tally {
  /** µs and count per statement (SQL text, shortened), per phase. */
  statements: Map<string, { us: number; n: number }>
  begin: number
  commit: number
  /** Time inside db.write's callback (BEGIN excluded, COMMIT excluded). */
  body: number
  reads: { pre: number; post: number; nPre: number; nPost: number }
  hot: number
  nHot: number
  /** Hot-reader calls slower than 1 ms (a WAL reader can wait on the file's locks), their time, and the slowest. */
  hotSlow: number
  hotSlowUs: number
  hotMax: number
  commitMax: number
}
const fresh = (): Tally => ({
  statements: new Map(),
  begin: 0,
  commit: 0,
  body: 0,
  reads: { pre: 0, post: 0, nPre: 0, nPost: 0 },
  hot: 0,
  nHot: 0,
  hotSlow: 0,
  hotSlowUs: 0,
  hotMax: 0,
  commitMax: 0,
})
let tally = fresh()

const short = (s: InStatement) =>
  (typeof s === 'string' ? s : s.sql).replace(/\s+/g, ' ').replace(/"/g, '').slice(0, 110)

function note(key: string, ms: number): void {
  const e = tally.statements.get(key) ?? { us: 0, n: 0 }
  e.us += us(ms)
  e.n++
  tally.statements.set(key, e)
}

/** Times every transaction of the writer client: BEGIN, each statement, COMMIT. */
function wrapWriter(client: Client): void {
  const transaction = client.transaction.bind(client)
  client.transaction = (async (mode?: any) => {
    let t = performance.now()
    const tx = await transaction(mode)
    tally.begin += us(performance.now() - t)
    const execute = tx.execute.bind(tx)
    const commit = tx.commit.bind(tx)
    tx.execute = (async (stmt: InStatement) => {
      const t0 = performance.now()
      try {
        return await execute(stmt)
      } finally {
        const ms = performance.now() - t0
        note(`tx   ${short(stmt)}`, ms)
      }
    }) as Transaction['execute']
    tx.commit = async () => {
      t = performance.now()
      await commit()
      const spent = us(performance.now() - t)
      tally.commit += spent
      tally.commitMax = Math.max(tally.commitMax, spent)
    }
    return tx
  }) as Client['transaction']
}

/** Times every statement of the drizzle reader outside transactions. */
function wrapReader(client: Client): void {
  const execute = client.execute.bind(client)
  client.execute = (async (stmt: InStatement) => {
    const t0 = performance.now()
    try {
      return await execute(stmt)
    } finally {
      const ms = performance.now() - t0
      if (phase === 'post') {
        tally.reads.post += us(ms)
        tally.reads.nPost++
      } else {
        tally.reads.pre += us(ms)
        tally.reads.nPre++
      }
      note(`${phase === 'post' ? 'post' : 'pre '} ${short(stmt)}`, ms)
    }
  }) as Client['execute']
}

// ---------------------------------------------------------------- setup

const dir = mkdtempSync(join(tmpdir(), 'payments-profile-'))
process.env.INVOICING_RATE_LIMIT = '1000000000'
try {
  const config = loadConfig(process.env, { dbPath: join(dir, 'profile.db') })
  const deps = await createDeps(config)
  const business = await createBusiness(deps.db, deps.clock, {
    name: 'Profile Business',
    country: 'DE',
    currency: 'EUR',
  })
  await setNumbering(deps.db, business.id, 'receipt', 'RCT-{YYYY}-{NNNNNNNNN}')
  const { key } = await createApiKey(deps.db, deps.clock, business.id, { name: 'bench', role: 'admin' })
  const credential = (await credentialLookup(deps.db.read, deps.db.hot)(key))!
  const app = await buildApp(deps)
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.fetch(
      new Request(`http://127.0.0.1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )
    const text = await res.text()
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`)
    return JSON.parse(text)
  }
  const client = await call('POST', '/v1/clients', { name: 'Profile Client', email: 'p@example.com', country: 'DE' })
  const docs: number[] = []
  for (let i = 0; i < DOCS; i++) {
    const d = await call('POST', '/v1/documents', {
      type: 'invoice',
      client_id: client.id,
      lines: [{ description: 'x', quantity: '1', unit_price: '1000000000.00', vat_rate: '0' }],
    })
    await call('POST', `/v1/documents/${d.id}/issue`)
    docs.push(d.id)
  }
  const writer = deps.db.writerClient
  const reader = (deps.db.read as unknown as { $client: Client }).$client
  const ctx = await directContext(writer, business.id)

  /** Runs fn back to back for SECONDS (after a 1 s warm-up); µs per call. */
  // Every await here settles at once (the driver is synchronous underneath), so the loop never yields to the event
  // loop by itself: it yields every 50 calls, inside the timing, so that the garbage collector's deferred work (and any
  // timer a call queued) is paid by the loop that caused it, as it is between requests in the server.
  async function loop(fn: (i: number) => Promise<void>): Promise<{ n: number; usEach: number; t: Tally }> {
    let i = 0
    for (const end = performance.now() + 1000; performance.now() < end; ) {
      await fn(i++)
      if (i % 50 === 0) await Bun.sleep(0)
    }
    Bun.gc(true)
    await Bun.sleep(0)
    tally = fresh()
    const t0 = performance.now()
    let n = 0
    for (const end = t0 + SECONDS * 1000; performance.now() < end; ) {
      await fn(i++)
      if (++n % 50 === 0) await Bun.sleep(0)
    }
    const t = tally
    tally = fresh()
    return { n, usEach: us(performance.now() - t0) / n, t }
  }

  wrapWriter(writer)
  wrapReader(reader)
  // The hot reader (auth by key hash) is a plain object: wrap its calls too.
  if (deps.db.hot) {
    const hot = deps.db.hot as unknown as Record<string, (...a: unknown[]) => unknown>
    for (const m of ['get', 'all', 'rows']) {
      const f = hot[m]!
      hot[m] = (...a: unknown[]) => {
        const t0 = performance.now()
        try {
          return f(...a)
        } finally {
          const spent = us(performance.now() - t0)
          tally.hot += spent
          tally.nHot++
          tally.hotMax = Math.max(tally.hotMax, spent)
          if (spent > 1000) {
            tally.hotSlow++
            tally.hotSlowUs += spent
          }
        }
      }
    }
  }
  // Split recordPayment at db.write: before it the reads are 'pre', inside 'tx', after it 'post'.
  const write = deps.db.write
  ;(deps.db as { write: typeof write }).write = async (fn) => {
    phase = 'tx'
    try {
      return await write(async (tx) => {
        const t0 = performance.now()
        try {
          return await fn(tx)
        } finally {
          tally.body += us(performance.now() - t0)
        }
      })
    } finally {
      phase = 'post'
    }
  }

  const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
  const rows: string[] = []
  for (const sync of ['OFF', 'FULL']) {
    await writer.execute(`PRAGMA synchronous = ${sync}`)
    const direct = await loop((i) => directTransaction(writer, ctx, docs[i % DOCS]!))
    const directTally = direct.t
    const service = await loop(async (i) => {
      phase = 'pre'
      await recordPayment(deps, credential, docs[i % DOCS]!, BODY)
    })
    const s = service.t
    let requests = 0
    let flushUs = 0
    const http = await loop(async (i) => {
      phase = 'pre'
      await call('POST', `/v1/documents/${docs[i % DOCS]!}/payments`, BODY)
      // The server flushes the request log every second; here every FLUSH_EVERY requests, timed apart.
      if (++requests % FLUSH_EVERY === 0) {
        const t0 = performance.now()
        await app.requestLog.flush()
        flushUs += us(performance.now() - t0)
      }
    })
    const h = http.t
    await app.requestLog.flush()

    // 32 requests in flight at once, as wrk keeps them (no sockets): the server's timers run beside them, the
    // request-log flush every second, and in the second run the webhook dispatcher every second too.
    async function concurrent(
      withDispatch: boolean,
    ): Promise<{ n: number; usEach: number; t: Tally; dispatchUs: number }> {
      let stop = false
      let n = 0
      let dispatchUs = 0
      const delivery = deliveryContext(deps)
      const timers = [setInterval(() => void app.requestLog.flush(), 1000)]
      if (withDispatch) {
        timers.push(
          setInterval(() => {
            const t0 = performance.now()
            void dispatchOutbox(delivery).then(() => (dispatchUs += us(performance.now() - t0)))
          }, 1000),
        )
      }
      const worker = async (w: number) => {
        while (!stop) {
          await call('POST', `/v1/documents/${docs[w % DOCS]!}/payments`, BODY)
          n++
          // A request arrives through the socket, i.e. from the event loop: yield to it as the server does.
          await new Promise((resolve) => setImmediate(resolve))
        }
      }
      const workers = Array.from({ length: 32 }, (_, w) => worker(w))
      await Bun.sleep(1000)
      tally = fresh()
      n = 0
      dispatchUs = 0
      const t0 = performance.now()
      await Bun.sleep(SECONDS * 1000)
      const ms = performance.now() - t0
      const t = tally
      const done = n
      const spentDispatch = dispatchUs
      stop = true
      await Promise.all(workers)
      for (const timer of timers) clearInterval(timer)
      tally = fresh()
      return { n: done, usEach: us(ms) / done, t, dispatchUs: spentDispatch }
    }
    const c32 = await concurrent(false)
    const c32d = await concurrent(true)

    const per = (x: number) => x / service.n
    const stmtSum = (t: Tally, prefix: string) =>
      [...t.statements].filter(([k]) => k.startsWith(prefix)).reduce((a, [, v]) => a + v.us, 0)
    const stmtCount = (t: Tally, prefix: string) =>
      [...t.statements].filter(([k]) => k.startsWith(prefix)).reduce((a, [, v]) => a + v.n, 0)
    rows.push(`\n=== synchronous=${sync} (${SECONDS} s each, one at a time, in-process) ===`)
    rows.push(
      `direct transaction (hand-written SQL):  ${f0(direct.usEach).padStart(6)} µs each  (${f0(1e6 / direct.usEach)}/s)   BEGIN ${f0(directTally.begin / direct.n)}, 8 statements ${f0(stmtSum(directTally, 'tx') / direct.n)}, COMMIT ${f0(directTally.commit / direct.n)} µs`,
    )
    rows.push(
      `recordPayment() (service, no HTTP):     ${f0(service.usEach).padStart(6)} µs each  (${f0(1e6 / service.usEach)}/s)`,
    )
    rows.push(
      `  reads before the transaction (reader): ${f0(per(s.reads.pre))} µs in ${(s.reads.nPre / service.n).toFixed(1)} statements`,
    )
    rows.push(`  BEGIN IMMEDIATE:                       ${f0(per(s.begin))} µs`)
    rows.push(
      `  inside the transaction:                ${f0(per(s.body))} µs = ${f0(per(stmtSum(s, 'tx')))} µs in ${(stmtCount(s, 'tx') / service.n).toFixed(1)} statements + ${f0(per(s.body - stmtSum(s, 'tx')))} µs JavaScript between them`,
    )
    rows.push(`  COMMIT:                                ${f0(per(s.commit))} µs`)
    rows.push(
      `  reads after the transaction (view):    ${f0(per(s.reads.post))} µs in ${(s.reads.nPost / service.n).toFixed(1)} statements`,
    )
    rows.push(
      `  rest (validation, mutex, JS outside):  ${f0(service.usEach - per(s.reads.pre + s.begin + s.body + s.commit + s.reads.post))} µs`,
    )
    rows.push(
      `whole request via app.fetch():          ${f0(http.usEach).padStart(6)} µs each  (${f0(1e6 / http.usEach)}/s): HTTP pipeline + Elysia ≈ ${f0(http.usEach - service.usEach)} µs over recordPayment (auth hot reads ${f0(h.hot / http.n)} µs in ${(h.nHot / http.n).toFixed(1)}), request-log flush ${f0(flushUs / http.n)} µs per request`,
    )
    for (const [label, c] of [
      ['32 in flight, request-log flush each second:      ', c32],
      ['32 in flight, + webhook dispatcher each second:  ', c32d],
    ] as const) {
      rows.push(
        `${label}${f0(c.usEach).padStart(6)} µs each  (${f0(1e6 / c.usEach)}/s); COMMIT ${f0(c.t.commit / c.n)} µs (slowest ${f0(c.t.commitMax)}), ` +
          `auth hot reads ${f0(c.t.hot / c.n)} µs (${c.t.hotSlow} calls over 1 ms: ${f0(c.t.hotSlowUs / 1000)} ms, slowest ${f0(c.t.hotMax)} µs)` +
          (c.dispatchUs ? `, dispatcher ${f0(c.dispatchUs / c.n)} µs per Payment` : ''),
      )
    }
    rows.push('  statements of recordPayment (µs per Payment, count per Payment):')
    for (const [k, v] of [...s.statements].sort((a, b) => b[1].us - a[1].us))
      rows.push(`    ${f0(v.us / service.n).padStart(5)} µs  ×${(v.n / service.n).toFixed(1)}  ${k}`)
    console.log(rows.join('\n'))
    rows.length = 0
  }
  // The webhook dispatcher runs every second in the server and reads/writes for each outbox row it takes (100 at most).
  const pending = await reader.execute('SELECT count(*) FROM outbox WHERE dispatched_at IS NULL')
  const t0 = performance.now()
  const taken = await dispatchOutbox(deliveryContext(deps))
  const spent = us(performance.now() - t0)
  console.log(
    `\nwebhook-dispatch job (every second in serve): ${taken} of ${pending.rows[0]![0]} pending outbox rows in ${f0(spent)} µs ` +
      `(${f0(spent / Math.max(1, taken))} µs per row), with no webhook configured; it takes at most 100 rows a second`,
  )
  deps.db.close()
} finally {
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true })
  else console.log(`kept ${dir}`)
}
