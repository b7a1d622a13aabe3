// Recurring invoices (extensions §13) at scale: 10,000 schedules falling due at once with `action: issue`, made and
// issued by the background task of a real server, against the same number of Invoices made through its API
// (`POST /v1/documents` then `POST /v1/documents/{id}/issue`, by concurrent clients) on the same machine, in the same
// run; then what 10,000 schedules that are not due cost an idle server: write transactions per minute.
//
//   bun bench/recurring.ts [--count 10000] [--connections 16] [--idle-seconds 65] [--json FILE] [--keep]
//
// Targets (issue #27): the task's Invoices/s >= 0.8 x the API's; 0 write transactions per minute when nothing is due.
// The servers run from source (`bun src/main.ts serve`), as the process tests run them; see bench/README.md.
import { createClient, type Client } from '@libsql/client'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { argNumber, argValue } from './args'
import { children, freePort, HOST, memoryOf, stop, stopAll } from './processes'
import { createDeps } from '../src/deps'
import { loadConfig } from '../src/config'
import { silentLogger } from '../src/shared/logger'
import { FixedClock } from '../src/shared/clock'
import { runRecurringInvoices } from '../src/modules/recurring'

const ROOT = resolve(import.meta.dir, '..')
const MAIN = join(ROOT, 'src/main.ts')
const TARGET_RATIO = 0.8
/** The servers' peak RSS, as the soak's (issue #33): the task's run must not hold memory per Invoice made. */
const TARGET_PEAK_MB = 200
const ENV = { INVOICING_RATE_LIMIT: '1000000000' }
const LINE = { description: 'Retainer {{month}} {{year}}', quantity: '1', unit_price: '1000.00', vat_rate: '19' }

const opts = {
  count: argNumber('count', 10_000),
  connections: argNumber('connections', 16),
  idleSeconds: argNumber('idle-seconds', 65),
  json: argValue('json'),
  keep: process.argv.includes('--keep'),
}

const dir = mkdtempSync(join(tmpdir(), 'invoicing-bench-recurring-'))
const today = new Date().toISOString().slice(0, 10)

function cli(args: string[]): string {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { cwd: dir, env: { ...process.env, ...ENV } })
  if (p.exitCode !== 0) throw new Error(`${args.join(' ')}: ${p.stderr.toString()}`)
  return p.stdout.toString()
}

/** A database with a pro Business (numbers wide enough for the run), an Admin key and a Client. */
async function database(name: string): Promise<{ db: string; key: string; businessId: number }> {
  const db = join(dir, name)
  const b = JSON.parse(
    cli([
      'business',
      'create',
      '--name',
      'Bench GmbH',
      '--country',
      'DE',
      '--currency',
      'EUR',
      '--plan',
      'pro',
      '--db',
      db,
      '--json',
    ]),
  )
  cli(['numbering', 'set', String(b.id), '--kind', 'invoice', '--pattern', 'INV-{YYYY}-{NNNNNNNN}', '--db', db])
  const k = JSON.parse(cli(['key', 'create', String(b.id), '--role', 'admin', '--name', 'bench', '--db', db, '--json']))
  return { db, key: k.key, businessId: b.id }
}

interface Server {
  url: string
  proc: Subprocess
  listeningAt: number
}

async function serve(db: string): Promise<Server> {
  const port = await freePort()
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', String(port), '--db', db], {
    cwd: dir,
    env: { ...process.env, ...ENV },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  children.add(proc)
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader()
  let text = ''
  const deadline = Date.now() + 30_000
  while (!text.includes('"msg":"listening"')) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`server did not start: ${text}`)
    const { value, done } = await reader.read()
    if (done) throw new Error(`server exited: ${text}`)
    text += new TextDecoder().decode(value)
  }
  const listeningAt = performance.now()
  // Keeps draining stderr so a full pipe never blocks the server.
  void (async () => {
    for (;;) if ((await reader.read()).done) return
  })()
  return { url: `http://${HOST}:${port}`, proc, listeningAt }
}

async function api(s: Server, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(s.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await r.json()
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`)
  return json
}

async function count(q: Client, where: string): Promise<number> {
  return Number((await q.execute(`SELECT count(*) AS n FROM documents WHERE ${where}`)).rows[0]!.n)
}

// ---------------------------------------------------------------- the API: create + issue, N times

async function throughTheApi(): Promise<{ seconds: number; perSecond: number; peakMb: number }> {
  const { db, key } = await database('api.db')
  const s = await serve(db)
  try {
    const client = await api(s, key, 'POST', '/v1/clients', {
      name: 'Retainer Ltd',
      email: 'ap@retainer.example',
      country: 'DE',
    })
    const body = { type: 'invoice', client_id: client.id, delivery_date: today, lines: [LINE] }
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: opts.connections }, async () => {
        while (next < opts.count) {
          next++
          const d = await api(s, key, 'POST', '/v1/documents', body)
          await api(s, key, 'POST', `/v1/documents/${d.id}/issue`, {})
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const peakMb = memoryOf(s.proc.pid).hwm
    const q = createClient({ url: `file:${db}` })
    const issued = await count(q, `status = 'issued'`)
    q.close()
    if (issued !== opts.count) throw new Error(`the API issued ${issued} Invoices, not ${opts.count}`)
    return { seconds, perSecond: opts.count / seconds, peakMb }
  } finally {
    await stop(s.proc)
  }
}

// ---------------------------------------------------------------- the task: N schedules due at once

/** N schedules due today: one made through the API (due tomorrow, so no run makes it early), copied in SQL. */
async function dueSchedules(): Promise<{ db: string; key: string }> {
  const { db, key } = await database('task.db')
  const s = await serve(db)
  try {
    const client = await api(s, key, 'POST', '/v1/clients', {
      name: 'Retainer Ltd',
      email: 'ap@retainer.example',
      country: 'DE',
    })
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    await api(s, key, 'POST', '/v1/recurring-invoices', {
      client_id: client.id,
      frequency: 'month',
      start_date: tomorrow,
      action: 'issue',
      lines: [LINE],
    })
  } finally {
    await stop(s.proc)
  }
  const q = createClient({ url: `file:${db}` })
  const cols = (await q.execute('SELECT * FROM recurring_invoices LIMIT 1')).columns.filter((c) => c !== 'id')
  await q.execute(`UPDATE recurring_invoices SET start_date = '${today}', next_date = '${today}'`)
  await q.execute(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${opts.count - 1})
     INSERT INTO recurring_invoices (${cols.join(', ')}) SELECT ${cols.join(', ')} FROM recurring_invoices, seq`,
  )
  q.close()
  return { db, key }
}

async function byTheTask(db: string): Promise<{ seconds: number; perSecond: number; peakMb: number; server: Server }> {
  const s = await serve(db)
  const q = createClient({ url: `file:${db}` })
  const deadline = Date.now() + 30 * 60_000
  for (;;) {
    const issued = await count(q, `status = 'issued' AND recurring_invoice_id IS NOT NULL`)
    if (issued >= opts.count) break
    if (Date.now() > deadline) throw new Error(`the task issued ${issued} of ${opts.count} in 30 minutes`)
    await Bun.sleep(100)
  }
  // From the moment the server listens (the task runs at start) to the last Invoice issued.
  const seconds = (performance.now() - s.listeningAt) / 1000
  const peakMb = memoryOf(s.proc.pid).hwm
  const drafts = await count(q, `status = 'draft' AND recurring_invoice_id IS NOT NULL`)
  q.close()
  if (drafts !== 0) throw new Error(`${drafts} Drafts left behind`)
  return { seconds, perSecond: opts.count / seconds, peakMb, server: s }
}

// ---------------------------------------------------------------- idle: nothing due

/** Commits by the server seen from another connection: PRAGMA data_version moves with each, polled every 50 ms. */
async function idleCommits(db: string): Promise<{ seconds: number; commits: number }> {
  const q = createClient({ url: `file:${db}` })
  const version = async () => Number((await q.execute('PRAGMA data_version')).rows[0]![0])
  let last = await version()
  // First the work the making left is done: every document.issued event of the outbox dispatched (the webhook job's
  // writes, not the schedules'), then no commit for 3 s.
  const undispatched = async () =>
    Number((await q.execute('SELECT count(*) AS n FROM outbox WHERE dispatched_at IS NULL')).rows[0]!.n)
  let quietSince = performance.now()
  const settleBy = performance.now() + 900_000
  while ((performance.now() - quietSince < 3000 || (await undispatched()) > 0) && performance.now() < settleBy) {
    await Bun.sleep(50)
    const v = await version()
    if (v !== last) quietSince = performance.now()
    last = v
  }
  let commits = 0
  const end = performance.now() + opts.idleSeconds * 1000
  while (performance.now() < end) {
    await Bun.sleep(50)
    const v = await version()
    if (v !== last) commits++
    last = v
  }
  q.close()
  return { seconds: opts.idleSeconds, commits }
}

/** The task itself over the same 10,000 schedules not due, one run per minute of an hour: writes counted exactly. */
async function idleRunsInProcess(db: string): Promise<{ runs: number; writes: number; msPerRun: number }> {
  const clock = new FixedClock(new Date())
  const deps = await createDeps(loadConfig({}, { dbPath: db }), { clock, logger: silentLogger })
  let writes = 0
  const write = deps.db.write.bind(deps.db)
  deps.db.write = (fn) => (writes++, write(fn))
  const runs = 60
  const started = performance.now()
  for (let i = 0; i < runs; i++) {
    clock.advance(60_000)
    await runRecurringInvoices(deps)
  }
  const msPerRun = (performance.now() - started) / runs
  deps.db.close()
  return { runs, writes, msPerRun }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  console.log(
    `recurring invoices: ${opts.count} Invoices, ${opts.connections} API clients; loadavg ${(await Bun.file('/proc/loadavg').text()).trim()}`,
  )
  const viaApi = await throughTheApi()
  console.log(
    `API  create + issue  ${viaApi.perSecond.toFixed(1)} Invoices/s  (${viaApi.seconds.toFixed(1)} s)  peak RSS ${viaApi.peakMb.toFixed(0)} MB`,
  )
  const { db } = await dueSchedules()
  const task = await byTheTask(db)
  console.log(
    `task (background)   ${task.perSecond.toFixed(1)} Invoices/s  (${task.seconds.toFixed(1)} s)  peak RSS ${task.peakMb.toFixed(0)} MB  target < ${TARGET_PEAK_MB}  ${task.peakMb < TARGET_PEAK_MB ? 'PASS' : 'FAIL'}`,
  )
  const ratio = task.perSecond / viaApi.perSecond
  console.log(
    `ratio task/API      ${ratio.toFixed(2)}  target >= ${TARGET_RATIO}  ${ratio >= TARGET_RATIO ? 'PASS' : 'FAIL'}`,
  )
  // The 10,000 schedules are now next due in a month: nothing is due.
  const idle = await idleCommits(db)
  await stop(task.server.proc)
  const perMinute = (idle.commits * 60) / idle.seconds
  console.log(
    `idle server, ${opts.count} schedules not due: ${idle.commits} commits in ${idle.seconds} s (${perMinute.toFixed(1)}/min)  target 0  ${idle.commits === 0 ? 'PASS' : 'FAIL'}`,
  )
  const inProcess = await idleRunsInProcess(db)
  console.log(
    `idle task in process: ${inProcess.writes} write transactions in ${inProcess.runs} minute runs, ${inProcess.msPerRun.toFixed(2)} ms a run  ${inProcess.writes === 0 ? 'PASS' : 'FAIL'}`,
  )
  if (opts.json)
    writeFileSync(
      opts.json,
      JSON.stringify(
        {
          count: opts.count,
          api: viaApi,
          task: { seconds: task.seconds, perSecond: task.perSecond, peakMb: task.peakMb },
          ratio,
          idle,
          inProcess,
        },
        null,
        2,
      ),
    )
}

try {
  await main()
} finally {
  await stopAll()
  if (!opts.keep) rmSync(dir, { recursive: true, force: true })
  else console.log(`kept ${dir}`)
}
