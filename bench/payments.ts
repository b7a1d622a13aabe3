// Payments recorded per second through the API (each with its Receipt and outbox row) against the same transaction
// written by hand on @libsql/client (bench/payments-direct.ts), in the same run, over loopback, with wrk.
//
//   bun bench/payments.ts [--no-build] [--bin BINARY] [--duration 10] [--warmup 2] [--threads 2] [--connections 32] [--rounds 2]
//                         [--json FILE] [--keep]
//
// Target (issue #5): API payments/s >= 50% of the direct transactions/s. See bench/README.md.
import type { Subprocess } from 'bun'
import { argNumber, argValue } from './args'
import { children, freePort, HOST, mustRun, run, stop, stopAll } from './processes'
import { createClient } from '@libsql/client'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
/** `--bin` measures another build (bench/journal-payments.ts: the binary from before the journal); never rebuilt. */
const BIN = argValue('bin') ? resolve(argValue('bin')!) : join(ROOT, 'dist/invoicing')
const REPO_BUN = join(ROOT, 'node_modules/.bin/bun')
const BUN = existsSync(REPO_BUN) ? REPO_BUN : process.execPath
const LUA = join(import.meta.dir, 'payments.lua')
const DIRECT = join(import.meta.dir, 'payments-direct.ts')
/** Lifts the binary's 120 requests/minute per key (INVOICING_RATE_LIMIT, read by src/config.ts). */
const RATE_LIMIT_ENV = { INVOICING_RATE_LIMIT: '1000000000' }
/** Nine digits: the default RCT-{YYYY}-{NNNNN} holds 99,999 Receipts a year, fewer than a fast run records. */
const RECEIPT_PATTERN = 'RCT-{YYYY}-{NNNNNNNNN}'
const RECEIPT_WIDTH = 9
const PAYMENT_BODY = JSON.stringify({ amount: '0.01', payment_date: '2026-01-15', payment_method: 'cash' })
/** 10^9 EUR per Invoice: at 0.01 per Payment no run comes near paying one in full. */
const UNIT_PRICE = '1000000000.00'
const TARGET_RATIO = 0.5

// ---------------------------------------------------------------- options

const opts = {
  build: !process.argv.includes('--no-build') && argValue('bin') === undefined,
  duration: argNumber('duration', 10),
  warmup: argNumber('warmup', 2),
  threads: argNumber('threads', 2),
  connections: argNumber('connections', 32),
  /** Rounds of (API under wrk, direct loop), alternating: both wait on fsync, and the disk drifts. */
  rounds: argNumber('rounds', 2),
  json: argValue('json'),
  keep: process.argv.includes('--keep'),
}

// ---------------------------------------------------------------- processes (all bounded in time, all cleaned up)

let work: string | null = null
function removeWork(): void {
  if (work && !opts.keep) rmSync(work, { recursive: true, force: true })
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void stopAll().then(() => {
      removeWork()
      process.exit(130)
    })
  })
}

/** Runs a command to its end, killing it after timeoutMs. */
async function untilHealthy(p: Subprocess, base: string, log: string, timeoutMs = 10_000): Promise<void> {
  const since = performance.now()
  for (;;) {
    try {
      const res = await fetch(`${base}/health`)
      await res.arrayBuffer()
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    if (p.exitCode !== null || p.signalCode !== null) {
      const err = existsSync(`${log}.err`)
        ? readFileSync(`${log}.err`, 'utf8').trim().split('\n').slice(-5).join('\n')
        : ''
      throw new Error(`server exited (${p.exitCode ?? p.signalCode}) before answering /health\n${err}`)
    }
    if (performance.now() - since > timeoutMs) throw new Error(`no answer from ${base}/health within ${timeoutMs} ms`)
    await Bun.sleep(5)
  }
}

// ---------------------------------------------------------------- wrk

interface WrkResult {
  name: string
  rps: number
  p50: number
  p90: number
  p99: number
  max: number
  requests: number
  non2xx: number
  socketErrors: number
}

function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim())
  if (!m) return NaN
  return (
    Number(m[1]) *
    ({ us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[m[2] as 'us' | 'ms' | 's' | 'm' | 'h']
  )
}

function parseWrk(name: string, out: string): WrkResult {
  const pct = (p: number) => toMs(new RegExp(`^\\s*${p}(?:\\.0+)?%\\s+(\\S+)\\s*$`, 'm').exec(out)?.[1] ?? '')
  const stats = /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(out)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  return {
    name,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: stats ? toMs(stats[3]!) : NaN,
    requests: Number(/(\d+) requests in /.exec(out)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
  }
}

// ---------------------------------------------------------------- formatting

const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

async function expectStatus(label: string, res: Response, status: number): Promise<any> {
  const text = await res.text()
  if (res.status !== status) throw new Error(`${label}: expected ${status}, got ${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

// ---------------------------------------------------------------- the database, read from the bench process

/** One short-lived reader on a database file (WAL: it never blocks the server's writer). */
async function withDb<T>(
  file: string,
  fn: (q: (sql: string, args?: unknown[]) => Promise<unknown[][]>) => Promise<T>,
): Promise<T> {
  const c = createClient({ url: `file:${file}`, intMode: 'number' })
  try {
    return await fn(async (sql, args = []) =>
      (await c.execute({ sql, args: args as any[] })).rows.map((r) => Array.from({ length: r.length }, (_, i) => r[i])),
    )
  } finally {
    c.close()
  }
}

async function countPayments(file: string, businessId: number): Promise<number> {
  return withDb(file, async (q) =>
    Number((await q('SELECT count(*) FROM payments WHERE business_id = ?', [businessId]))[0]![0]),
  )
}

interface Integrity {
  payments: number
  receipts: number
  paymentsWithoutReceipt: number
  receiptsConsecutive: boolean
  firstReceipt: string | null
  lastReceipt: string | null
  counterHighest: number
  outboxPaymentRecorded: number
  outboxDocumentPaid: number
  documentsPaidMismatch: number
  paidMinorSum: string
  problems: string[]
}

/** Every Payment has its Receipt and its outbox row, Receipt numbers run 1..N in Payment order, documents add up. */
async function integrity(file: string, businessId: number): Promise<Integrity> {
  return withDb(file, async (q) => {
    const one = async (sql: string) => (await q(sql, [businessId]))[0]![0]
    const payments = Number(await one('SELECT count(*) FROM payments WHERE business_id = ?'))
    const receipts = Number(await one('SELECT count(*) FROM receipts WHERE business_id = ?'))
    const paymentsWithoutReceipt = Number(
      await one(
        'SELECT count(*) FROM payments p LEFT JOIN receipts r ON r.payment_id = p.id WHERE p.business_id = ? AND r.id IS NULL',
      ),
    )
    // Receipts in Payment order must carry the counters 1, 2, 3, ... with no gap and no repeat.
    const numbers = (
      await q('SELECT r.receipt_number FROM receipts r WHERE r.business_id = ? ORDER BY r.payment_id', [businessId])
    ).map((r) => String(r[0]))
    let receiptsConsecutive = true
    for (let i = 0; i < numbers.length; i++) {
      if (Number(numbers[i]!.slice(-RECEIPT_WIDTH)) !== i + 1) {
        receiptsConsecutive = false
        break
      }
    }
    const counterHighest = Number(
      (await one("SELECT coalesce(max(highest), 0) FROM number_counters WHERE business_id = ? AND kind = 'receipt'")) ??
        0,
    )
    const outboxPaymentRecorded = Number(
      await one("SELECT count(*) FROM outbox WHERE business_id = ? AND type = 'payment.recorded'"),
    )
    const outboxDocumentPaid = Number(
      await one("SELECT count(*) FROM outbox WHERE business_id = ? AND type = 'document.paid'"),
    )
    const documentsPaidMismatch = Number(
      await one(`SELECT count(*) FROM documents d WHERE d.business_id = ? AND d.paid_minor !=
        coalesce((SELECT sum(p.amount_minor) FROM payments p WHERE p.document_id = d.id AND p.status = 'completed'), 0)`),
    )
    const paidMinorSum = String(
      await one('SELECT CAST(coalesce(sum(paid_minor), 0) AS TEXT) FROM documents WHERE business_id = ?'),
    )
    const problems: string[] = []
    if (receipts !== payments) problems.push(`${receipts} Receipts for ${payments} Payments`)
    if (paymentsWithoutReceipt) problems.push(`${paymentsWithoutReceipt} Payments without a Receipt`)
    if (!receiptsConsecutive) problems.push('Receipt numbers are not 1..N in Payment order')
    if (counterHighest !== payments) problems.push(`receipt counter at ${counterHighest}, ${payments} Payments`)
    if (outboxPaymentRecorded !== payments)
      problems.push(`${outboxPaymentRecorded} payment.recorded outbox rows for ${payments} Payments`)
    if (outboxDocumentPaid)
      problems.push(`${outboxDocumentPaid} document.paid outbox rows (no Invoice should be paid in full)`)
    if (documentsPaidMismatch)
      problems.push(`${documentsPaidMismatch} documents whose paid_minor is not the sum of their Payments`)
    if (paidMinorSum !== String(payments))
      problems.push(`documents' paid_minor sums to ${paidMinorSum}, expected ${payments} (0.01 each)`)
    return {
      payments,
      receipts,
      paymentsWithoutReceipt,
      receiptsConsecutive,
      firstReceipt: numbers[0] ?? null,
      lastReceipt: numbers[numbers.length - 1] ?? null,
      counterHighest,
      outboxPaymentRecorded,
      outboxDocumentPaid,
      documentsPaidMismatch,
      paidMinorSum,
      problems,
    }
  })
}

// ---------------------------------------------------------------- the bench

interface ApiRound {
  result: WrkResult
  /** 2xx answers wrk counted in the warm-up and the recorded run. */
  answered: number
  /** Payments the server committed after wrk hung up on their requests (at most one per connection per wrk run). */
  afterHangUp: number
}

interface DirectRound {
  tps: number
  transactions: number
  seconds: number
  p50: number
  p99: number
  max: number
  warmupTransactions: number
  paymentsAdded: number
}

async function main(): Promise<void> {
  const started = performance.now()
  const cores = availableParallelism()
  if ((await run(['sh', '-c', 'command -v wrk'], { timeoutMs: 5000 })).code !== 0)
    throw new Error('wrk is not installed: apt-get update && apt-get install -y wrk')
  const c = opts.connections
  const t = Math.min(opts.threads, c)

  console.log(
    'payments bench: POST /v1/documents/{id}/payments on the compiled binary vs. the same transaction by hand on @libsql/client',
  )
  console.log(
    `  wrk -t${t} -c${c} -d${opts.duration}s --latency (+${opts.warmup}s unrecorded warm-up); direct loop ${opts.duration}s (+${opts.warmup}s); ${opts.rounds} alternating rounds; ${cores} CPU core(s), loopback only`,
  )

  if (opts.build) {
    const t0 = performance.now()
    process.stdout.write('building dist/invoicing ... ')
    await mustRun([BUN, 'scripts/build.ts'], { cwd: ROOT, timeoutMs: 180_000 })
    console.log(`${Math.round(performance.now() - t0)} ms`)
  }
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run bun scripts/build.ts (or drop --no-build)`)
  console.log(`binary: ${BIN} (${(statSync(BIN).size / 1e6).toFixed(1)} MB)`)

  // A temp folder with no node_modules above it, so the binary uses its embedded libsql addon.
  work = mkdtempSync(join(tmpdir(), 'invoicing-payments-bench-'))
  const dir = work
  const cli = async (args: string[]) =>
    JSON.parse(await mustRun([BIN, ...args, '--json'], { cwd: dir, timeoutMs: 30_000 }))

  // 1. The database: a Business, a wide Receipt numbering, an Admin key.
  const db = join(dir, 'api.db')
  await cli(['migrate', '--db', db])
  const business = (await cli([
    'business',
    'create',
    '--name',
    'Bench Business',
    '--country',
    'DE',
    '--currency',
    'EUR',
    '--db',
    db,
  ])) as { id: number }
  await cli(['numbering', 'set', String(business.id), '--kind', 'receipt', '--pattern', RECEIPT_PATTERN, '--db', db])
  const key = (
    (await cli(['key', 'create', String(business.id), '--role', 'admin', '--name', 'bench', '--db', db])) as {
      key: string
    }
  ).key

  // 2. The server, and one issued Invoice of 10^9 EUR per connection, all through the API.
  const port = await freePort()
  const api = `http://${HOST}:${port}`
  const log = join(dir, 'serve')
  const server = Bun.spawn({
    cmd: [BIN, 'serve', '--port', String(port), '--db', db],
    cwd: dir,
    env: { ...process.env, ...RATE_LIMIT_ENV },
    stdout: Bun.file(`${log}.out`),
    stderr: Bun.file(`${log}.err`),
  })
  children.add(server)
  await untilHealthy(server, api, log)
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const post = (path: string, body?: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const client = await expectStatus(
    'POST /v1/clients',
    await post('/v1/clients', { name: 'Bench Client', email: 'bench@example.com', country: 'DE' }),
    201,
  )
  const docs: number[] = []
  for (let i = 0; i < c; i++) {
    const d = await expectStatus(
      'POST /v1/documents',
      await post('/v1/documents', {
        type: 'invoice',
        client_id: client.id,
        lines: [{ description: `Bench ${i + 1}`, quantity: '1', unit_price: UNIT_PRICE, vat_rate: '0' }],
      }),
      201,
    )
    const issued = await expectStatus(
      `POST /v1/documents/${d.id}/issue`,
      await post(`/v1/documents/${d.id}/issue`),
      200,
    )
    if (issued.status !== 'issued') throw new Error(`document ${d.id} is ${issued.status} after issue`)
    docs.push(d.id)
  }
  // One Payment by hand: the route answers 201 with its Receipt before any load.
  const probe = await expectStatus(
    'POST /v1/documents/{id}/payments',
    await post(`/v1/documents/${docs[0]}/payments`, JSON.parse(PAYMENT_BODY)),
    201,
  )
  if (!probe.receipt?.receipt_number)
    throw new Error(`the first Payment answered no Receipt: ${JSON.stringify(probe).slice(0, 300)}`)
  console.log(
    `\nAPI on ${api} (pid ${server.pid}): ${docs.length} issued Invoices of ${UNIT_PRICE} EUR (ids ${docs[0]}..${docs[docs.length - 1]}), first Receipt ${probe.receipt.receipt_number}`,
  )

  // 3. The direct database: a consistent copy of the same file, taken now (VACUUM INTO reads one snapshot).
  const directDb = join(dir, 'direct.db')
  await withDb(db, (q) => q('VACUUM INTO ?', [directDb]))
  const directBase = await countPayments(directDb, business.id)

  // 4. Alternating rounds: the API under wrk, then the direct loop, each alone on the machine.
  const wrkEnv = { BENCH_KEY: key, BENCH_BODY: PAYMENT_BODY, BENCH_DOCS: docs.join(','), BENCH_THREADS: String(t) }
  const wrkArgs = (secs: number) => [
    'wrk',
    `-t${t}`,
    `-c${c}`,
    `-d${secs}s`,
    '--timeout',
    '5s',
    '--latency',
    '-s',
    LUA,
    `${api}/v1/documents/_/payments`,
  ]
  /** One wrk run; returns its figures and the Payments committed after it hung up (counted in the database). */
  async function wrkRun(name: string, secs: number): Promise<{ r: WrkResult; afterHangUp: number }> {
    const before = await countPayments(db, business.id)
    const out = await mustRun(wrkArgs(secs), { env: wrkEnv, timeoutMs: (secs + 20) * 1000 })
    const r = parseWrk(name, out)
    if (!Number.isFinite(r.rps) || !Number.isFinite(r.p99))
      throw new Error(`cannot read wrk's output for ${name}:\n${out}`)
    await Bun.sleep(300) // requests wrk hung up on still finish in the server
    const after = await countPayments(db, business.id)
    return { r, afterHangUp: after - before - (r.requests - r.non2xx) }
  }

  const apiRounds: ApiRound[] = []
  const directRounds: DirectRound[] = []
  console.log('')
  for (let i = 1; i <= opts.rounds; i++) {
    const warm = await wrkRun(`API warm-up #${i}`, opts.warmup)
    const { r, afterHangUp } = await wrkRun(`API    POST /v1/documents/{id}/payments #${i}`, opts.duration)
    apiRounds.push({
      result: r,
      answered: warm.r.requests - warm.r.non2xx + r.requests - r.non2xx,
      afterHangUp: warm.afterHangUp + afterHangUp,
    })
    const bad = warm.r.non2xx + warm.r.socketErrors + r.non2xx + r.socketErrors
    console.log(
      `  ${r.name.padEnd(44)} ${f0(r.rps).padStart(7)} payments/s   p50 ${f2(r.p50).padStart(6)} ms   p99 ${f2(r.p99).padStart(6)} ms   max ${f2(r.max).padStart(7)} ms   ` +
        `(${f0(r.requests)} requests; non-2xx ${r.non2xx + warm.r.non2xx}, socket errors ${r.socketErrors + warm.r.socketErrors}${bad ? '  !!' : ''})`,
    )
    const out = await mustRun(
      [
        BUN,
        DIRECT,
        '--db',
        directDb,
        '--business',
        String(business.id),
        '--documents',
        docs.join(','),
        '--duration',
        String(opts.duration),
        '--warmup',
        String(opts.warmup),
      ],
      { cwd: ROOT, timeoutMs: (opts.duration + opts.warmup + 30) * 1000 },
    )
    const d = JSON.parse(out.trim().split('\n').pop()!) as DirectRound
    directRounds.push(d)
    console.log(
      `  ${`DIRECT same transaction on @libsql/client #${i}`.padEnd(44)} ${f0(d.tps).padStart(7)} tx/s         p50 ${f2(d.p50).padStart(6)} ms   p99 ${f2(d.p99).padStart(6)} ms   max ${f2(d.max).padStart(7)} ms   (${f0(d.transactions)} transactions, one at a time)`,
    )
  }

  // 5. Sanity: through the API, then in both files once the server is stopped.
  const lastPaymentId = Number(
    await withDb(
      db,
      async (q) => (await q('SELECT max(id) FROM payments WHERE business_id = ?', [business.id]))[0]![0],
    ),
  )
  const last = await expectStatus(
    `GET /v1/payments/${lastPaymentId}`,
    await fetch(`${api}/v1/payments/${lastPaymentId}`, { headers: auth }),
    200,
  )
  const doc0 = await expectStatus(
    `GET /v1/documents/${docs[0]}`,
    await fetch(`${api}/v1/documents/${docs[0]}`, { headers: auth }),
    200,
  )
  await stop(server)
  const apiCheck = await integrity(db, business.id)
  const directCheck = await integrity(directDb, business.id)

  const answered = 1 + apiRounds.reduce((a, r) => a + r.answered, 0) // the probe, and every 2xx wrk counted
  const afterHangUp = apiRounds.reduce((a, r) => a + r.afterHangUp, 0)
  const wrkRuns = opts.rounds * 2
  const apiProblems = [...apiCheck.problems]
  if (afterHangUp < 0 || afterHangUp > c * wrkRuns)
    apiProblems.push(
      `${afterHangUp} Payments beyond the 201s wrk counted (expected 0..${c * wrkRuns}, one per connection per wrk run at most)`,
    )
  if (apiCheck.payments !== answered + afterHangUp)
    apiProblems.push(`${apiCheck.payments} Payments, ${answered} answered 201 + ${afterHangUp} after hang-up`)
  if (last.receipt?.receipt_number !== apiCheck.lastReceipt)
    apiProblems.push(
      `GET /v1/payments/${lastPaymentId} shows Receipt ${last.receipt?.receipt_number}, the file ${apiCheck.lastReceipt}`,
    )
  const doc0Paid = await withDb(db, async (q) =>
    String((await q('SELECT amount_paid FROM documents WHERE id = ?', [docs[0]]))[0]![0]),
  )
  if (doc0.amount_paid !== doc0Paid)
    apiProblems.push(`GET /v1/documents/${docs[0]} shows amount_paid ${doc0.amount_paid}, the file ${doc0Paid}`)
  const directAdded = directRounds.reduce((a, d) => a + d.transactions + d.warmupTransactions, 0)
  const directProblems = [...directCheck.problems]
  if (directCheck.payments - directBase !== directAdded)
    directProblems.push(`${directCheck.payments - directBase} Payments added, ${directAdded} transactions counted`)
  const non2xx = apiRounds.reduce((a, r) => a + r.result.non2xx, 0)
  const socketErrors = apiRounds.reduce((a, r) => a + r.result.socketErrors, 0)

  // 6. Summary.
  const apiRps = mean(apiRounds.map((r) => r.result.rps))
  const directTps = mean(directRounds.map((d) => d.tps))
  const ratio = apiRps / directTps
  console.log('\nsanity:')
  console.log(
    `  API file:    ${f0(apiCheck.payments)} Payments = ${f0(answered)} answered 201 + ${afterHangUp} committed after wrk hung up; ${f0(apiCheck.receipts)} Receipts ` +
      `${apiCheck.firstReceipt}..${apiCheck.lastReceipt}${apiCheck.receiptsConsecutive ? ' consecutive' : ' NOT consecutive'}; ` +
      `${f0(apiCheck.outboxPaymentRecorded)} payment.recorded outbox rows; paid_minor total ${apiCheck.paidMinorSum} → ${apiProblems.length ? `PROBLEMS: ${apiProblems.join('; ')}` : 'ok'}`,
  )
  console.log(
    `  direct file: ${f0(directCheck.payments)} Payments (${f0(directAdded)} by the loop); ${f0(directCheck.receipts)} Receipts ${directCheck.firstReceipt}..${directCheck.lastReceipt}` +
      `${directCheck.receiptsConsecutive ? ' consecutive' : ' NOT consecutive'}; ${f0(directCheck.outboxPaymentRecorded)} payment.recorded outbox rows → ${directProblems.length ? `PROBLEMS: ${directProblems.join('; ')}` : 'ok'}`,
  )
  const apiP50 = mean(apiRounds.map((r) => r.result.p50))
  const apiP99 = Math.max(...apiRounds.map((r) => r.result.p99))
  console.log('\nsummary')
  const row = (name: string, value: string, rest = '') =>
    console.log(`  ${name.padEnd(40)} ${value.padStart(7)}   ${rest}`)
  row(
    `API payments/s (mean of ${opts.rounds})`,
    f0(apiRps),
    `(${apiRounds.map((r) => f0(r.result.rps)).join(', ')}; p50 ${f2(apiP50)} ms, p99 ${f2(apiP99)} ms at c=${c})`,
  )
  row(
    `direct transactions/s (mean of ${opts.rounds})`,
    f0(directTps),
    `(${directRounds.map((d) => f0(d.tps)).join(', ')}; p50 ${f2(mean(directRounds.map((d) => d.p50)))} ms, p99 ${f2(Math.max(...directRounds.map((d) => d.p99)))} ms per transaction)`,
  )
  row('non-2xx answers / socket errors', `${non2xx} / ${socketErrors}`)
  const verdict = ratio >= TARGET_RATIO && non2xx === 0 ? 'PASS' : 'FAIL'
  row('ratio API / direct', f2(ratio), `target >= ${TARGET_RATIO}   ${verdict}${non2xx ? ' (non-2xx answers)' : ''}`)
  const totalS = (performance.now() - started) / 1000
  console.log(`\n${cores} cores shared by wrk and the server; bench took ${totalS.toFixed(1)} s`)

  if (opts.json) {
    writeFileSync(
      opts.json,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          cores,
          options: opts,
          apiRounds,
          directRounds,
          apiRps,
          directTps,
          ratio,
          verdict,
          non2xx,
          socketErrors,
          apiCheck,
          directCheck,
          apiProblems,
          directProblems,
        },
        null,
        2,
      ) + '\n',
    )
    console.log(`results written to ${opts.json}`)
  }
  if (apiProblems.length || directProblems.length) throw new Error('the sanity checks failed (see above)')
}

if (import.meta.main) {
  try {
    await main()
  } catch (e) {
    console.error(`bench failed: ${(e as Error)?.message ?? e}`)
    process.exitCode = 1
  } finally {
    await stopAll()
    if (work && opts.keep) console.log(`work folder kept: ${work}`)
    removeWork()
  }
}
