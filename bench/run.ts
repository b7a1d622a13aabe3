// The load and scale benchmark: the compiled binary against a minimal Bun + libSQL baseline, over loopback, with wrk.
//
//   bun bench/run.ts [--no-build] [--duration 10] [--warmup 2] [--threads 2] [--connections 32]
//                    [--light-duration 5] [--write-rounds 2] [--clients 100000] [--starts 5] [--json FILE] [--keep]
//
// See bench/README.md for what it measures and how to read it.
import type { Subprocess } from 'bun'
import { argNumber, argValue } from './args'
import { children, freePort, HOST, memoryOf, mustRun, run, stop, stopAll } from './processes'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { seedClients } from './seed'

const ROOT = resolve(import.meta.dir, '..')
const BIN = join(ROOT, 'dist/invoicing')
const REPO_BUN = join(ROOT, 'node_modules/.bin/bun')
const BUN = existsSync(REPO_BUN) ? REPO_BUN : process.execPath
const LUA = join(import.meta.dir, 'request.lua')
const WALK_LUA = join(import.meta.dir, 'walk.lua')
/** Lifts the binary's 120 requests/minute per key for the load runs (INVOICING_RATE_LIMIT, read by src/config.ts). */
const RATE_LIMIT_ENV = { INVOICING_RATE_LIMIT: '1000000000' }
const CREATE_BODY = JSON.stringify({ name: 'Bench Client', email: 'bench@example.com', country: 'DE' })

// ---------------------------------------------------------------- options

const opts = {
  build: !process.argv.includes('--no-build'),
  duration: argNumber('duration', 10),
  warmup: argNumber('warmup', 2),
  threads: argNumber('threads', 2),
  connections: argNumber('connections', 32),
  /** The two API reads are also run with one connection: service time without queueing behind 31 others. */
  lightDuration: argNumber('light-duration', 5),
  /** Rounds of (API POST, baseline POST), alternating. */
  writeRounds: argNumber('write-rounds', 2),
  clients: argNumber('clients', 100_000),
  starts: argNumber('starts', 5),
  json: argValue('json'),
  keep: process.argv.includes('--keep'),
}

// ---------------------------------------------------------------- processes (all bounded in time, all cleaned up)

process.on('SIGINT', () => {
  void stopAll().then(() => process.exit(130))
})

/** Runs a command to its end, killing it after timeoutMs. */
/** A long-running process whose output goes to a log file (never to an unread pipe). */
function spawnServer(cmd: string[], cwd: string, log: string, env: Record<string, string> = {}): Subprocess {
  const p = Bun.spawn({
    cmd,
    cwd,
    env: { ...process.env, ...env },
    stdout: Bun.file(`${log}.out`),
    stderr: Bun.file(`${log}.err`),
  })
  children.add(p)
  return p
}

/** Polls GET /health until it answers 200; returns the ms from `since`. */
async function untilHealthy(
  p: Subprocess,
  base: string,
  since: number,
  log: string,
  timeoutMs = 10_000,
): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${base}/health`)
      if (res.status === 200) {
        const t = performance.now() - since
        await res.arrayBuffer()
        return t
      }
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
    await Bun.sleep(1)
  }
}

// ---------------------------------------------------------------- wrk

interface WrkResult {
  name: string
  rps: number
  p50: number
  p75: number
  p90: number
  p99: number
  max: number
  requests: number
  non2xx: number
  socketErrors: number
}

/** "1.23ms" → 1.23; wrk prints us, ms, s, m, h. */
function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim())
  if (!m) return NaN
  const n = Number(m[1])
  return n * ({ us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[m[2] as 'us' | 'ms' | 's' | 'm' | 'h']
}

export function parseWrk(name: string, out: string): WrkResult {
  const pct = (p: number) => toMs(new RegExp(`^\\s*${p}(?:\\.0+)?%\\s+(\\S+)\\s*$`, 'm').exec(out)?.[1] ?? '')
  const stats = /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(out)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  return {
    name,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: pct(50),
    p75: pct(75),
    p90: pct(90),
    p99: pct(99),
    max: stats ? toMs(stats[3]!) : NaN,
    requests: Number(/(\d+) requests in /.exec(out)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
  }
}

async function wrk(
  name: string,
  url: string,
  env: { BENCH_METHOD?: string; BENCH_BODY?: string; BENCH_KEY?: string; BENCH_PATHS?: string },
  load = { threads: opts.threads, connections: opts.connections, duration: opts.duration, warmup: opts.warmup },
  script = LUA,
): Promise<WrkResult> {
  const args = (secs: number) => [
    'wrk',
    `-t${Math.min(load.threads, load.connections)}`,
    `-c${load.connections}`,
    `-d${secs}s`,
    '--timeout',
    '5s',
    '--latency',
    '-s',
    script,
    url,
  ]
  const o = { env: { BENCH_METHOD: '', BENCH_BODY: '', BENCH_KEY: '', BENCH_PATHS: '', ...env }, timeoutMs: 0 }
  // Warm-up (JIT, page cache, connection setup), not recorded.
  if (load.warmup > 0) await mustRun(args(load.warmup), { ...o, timeoutMs: (load.warmup + 15) * 1000 })
  const out = await mustRun(args(load.duration), { ...o, timeoutMs: (load.duration + 15) * 1000 })
  const r = parseWrk(name, out)
  if (!Number.isFinite(r.rps) || !Number.isFinite(r.p99))
    throw new Error(`cannot read wrk's output for ${name}:\n${out}`)
  console.log(`  ${line(r)}`)
  return r
}

// ---------------------------------------------------------------- formatting

const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
const pad = (s: string, n: number) => s.padEnd(n)
const lpad = (s: string, n: number) => s.padStart(n)
function line(r: WrkResult): string {
  const warn = r.non2xx > 0 || r.socketErrors > 0 ? `  !! ${r.non2xx} non-2xx, ${r.socketErrors} socket errors` : ''
  return `${pad(r.name, 38)} ${lpad(f0(r.rps), 8)} req/s   p50 ${lpad(f2(r.p50), 6)} ms   p99 ${lpad(f2(r.p99), 6)} ms   max ${lpad(f2(r.max), 7)} ms   (${f0(r.requests)} requests)${warn}`
}
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

async function expectStatus(label: string, res: Response, status: number): Promise<string> {
  const text = await res.text()
  if (res.status !== status) throw new Error(`${label}: expected ${status}, got ${res.status}: ${text.slice(0, 300)}`)
  return text
}

// ---------------------------------------------------------------- the bench

async function main(): Promise<void> {
  const started = performance.now()
  const cores = availableParallelism()
  const wrkCheck = await run(['sh', '-c', 'command -v wrk'], { timeoutMs: 5000 })
  if (wrkCheck.code !== 0) throw new Error('wrk is not installed: apt-get update && apt-get install -y wrk')

  console.log('invoicing bench: compiled binary vs. minimal Bun.serve + @libsql/client baseline, loopback only')
  console.log(
    `  wrk -t${opts.threads} -c${opts.connections} -d${opts.duration}s --latency (+${opts.warmup}s unrecorded warm-up per scenario); ` +
      `${cores} CPU core(s): wrk and the server share them, so absolute figures are lower than on separate machines; compare ratios.`,
  )

  if (opts.build) {
    const t = performance.now()
    process.stdout.write('building dist/invoicing ... ')
    await mustRun([BUN, 'scripts/build.ts'], { cwd: ROOT, timeoutMs: 180_000 })
    console.log(`${Math.round(performance.now() - t)} ms`)
  }
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run bun scripts/build.ts (or drop --no-build)`)
  console.log(`binary: ${BIN} (${(statSync(BIN).size / 1e6).toFixed(1)} MB)`)

  // A temp folder with no node_modules above it, so the binary uses its embedded libsql addon.
  const work = mkdtempSync(join(tmpdir(), 'invoicing-bench-'))
  const cli = async (args: string[]) =>
    JSON.parse(await mustRun([BIN, ...args, '--json'], { cwd: work, timeoutMs: 30_000 }))

  try {
    // 1. Start to first answer, on fresh migrated databases.
    console.log(`\nstart to first answer (spawn → GET /health 200), ${opts.starts} runs:`)
    const starts: number[] = []
    for (let i = 0; i < opts.starts; i++) {
      const dir = join(work, `start-${i}`)
      mkdirSync(dir)
      const db = join(dir, 'start.db')
      await cli(['migrate', '--db', db])
      const port = await freePort()
      const log = join(dir, 'serve')
      const t0 = performance.now()
      const p = spawnServer([BIN, 'serve', '--port', String(port), '--db', db], dir, log, RATE_LIMIT_ENV)
      try {
        starts.push(await untilHealthy(p, `http://${HOST}:${port}`, t0, log))
      } finally {
        await stop(p)
      }
    }
    const startMs = median(starts)
    console.log(`  ${starts.map((s) => s.toFixed(1)).join(', ')} ms → median ${startMs.toFixed(1)} ms`)

    // 2. The database: one Business with `clients` Clients, an Admin key; a copy of it for the baseline.
    const db = join(work, 'bench.db')
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
    ])) as { id: number; business_id: string }
    // The default pattern C{NNNNN} holds 99,999 codes; the seeded Clients and the creates need more.
    await cli(['numbering', 'set', String(business.id), '--kind', 'client', '--pattern', 'C{NNNNNNN}', '--db', db])
    const key = (
      (await cli(['key', 'create', String(business.id), '--role', 'admin', '--name', 'bench', '--db', db])) as {
        key: string
      }
    ).key
    const seeded = await seedClients(db, {
      businessId: business.id,
      count: opts.clients,
      codePrefix: 'C',
      codeWidth: 7,
      pattern: 'C{NNNNNNN}',
    })
    console.log(
      `\nseeded ${f0(opts.clients)} Clients in ${Math.round(seeded.ms)} ms (ids ${seeded.firstId}..${seeded.lastId}), db ${(statSync(db).size / 1e6).toFixed(1)} MB`,
    )
    const baselineDb = join(work, 'baseline.db')
    copyFileSync(db, baselineDb)
    const readId = seeded.firstId + Math.floor((seeded.lastId - seeded.firstId) / 2)

    // 3. Both servers, each on its own copy of the database; each is idle while the other is loaded.
    const apiPort = await freePort()
    const api = `http://${HOST}:${apiPort}`
    const apiLog = join(work, 'serve')
    const server = spawnServer([BIN, 'serve', '--port', String(apiPort), '--db', db], work, apiLog, RATE_LIMIT_ENV)
    await untilHealthy(server, api, performance.now(), apiLog)
    await Bun.sleep(1000)
    const rssStart = memoryOf(server.pid).rss
    console.log(`\nbinary serving on ${api} (pid ${server.pid}); idle RSS after start ${rssStart.toFixed(1)} MB`)

    const auth = { authorization: `Bearer ${key}` }
    const probe = await fetch(`${api}/v1/clients/${readId}`, { headers: auth })
    await expectStatus(`GET /v1/clients/${readId}`, probe, 200)
    const limit = Number(probe.headers.get('x-ratelimit-limit'))
    if (!(limit >= 1_000_000)) {
      console.log(
        `  !! the binary answers X-RateLimit-Limit: ${probe.headers.get('x-ratelimit-limit')}: INVOICING_RATE_LIMIT is not honoured, ` +
          'so most load requests will be 429 and the figures below are not meaningful.',
      )
    }
    const list = JSON.parse(
      await expectStatus(
        'GET /v1/clients?limit=100',
        await fetch(`${api}/v1/clients?limit=100`, { headers: auth }),
        200,
      ),
    ) as { data: unknown[]; next_cursor: string | null }
    if (list.data.length !== 100 || !list.next_cursor)
      throw new Error('GET /v1/clients?limit=100 did not answer a full page with a next cursor')
    // The walk: every page of the list, cursors included, for the scenario the page cache cannot answer.
    const walk: string[] = []
    for (let path: string | null = '/v1/clients?limit=100'; path; ) {
      walk.push(path)
      const page = JSON.parse(
        await expectStatus(`GET ${path}`, await fetch(`${api}${path}`, { headers: auth }), 200),
      ) as { next_cursor: string | null }
      path = page.next_cursor ? `/v1/clients?limit=100&cursor=${encodeURIComponent(page.next_cursor)}` : null
    }
    const walkFile = join(work, 'walk.txt')
    writeFileSync(walkFile, walk.join('\n') + '\n')
    await expectStatus(
      'POST /v1/clients',
      await fetch(`${api}/v1/clients`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: CREATE_BODY,
      }),
      201,
    )

    const basePort = await freePort()
    const baseUrl = `http://${HOST}:${basePort}`
    const baseLog = join(work, 'baseline')
    const baseline = spawnServer(
      [BUN, join(import.meta.dir, 'baseline.ts'), '--db', baselineDb, '--port', String(basePort)],
      work,
      baseLog,
    )
    await untilHealthy(baseline, baseUrl, performance.now(), baseLog)
    await expectStatus('baseline GET /clients/:id', await fetch(`${baseUrl}/clients/${readId}`), 200)
    await expectStatus(
      'baseline POST /clients',
      await fetch(`${baseUrl}/clients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: CREATE_BODY,
      }),
      201,
    )
    console.log(`baseline serving on ${baseUrl} (pid ${baseline.pid})`)

    const light = { threads: 1, connections: 1, duration: opts.lightDuration, warmup: Math.min(1, opts.warmup) }
    const post = { BENCH_METHOD: 'POST', BENCH_BODY: CREATE_BODY }
    console.log('\nreads:')
    const apiRead = await wrk('API   GET /v1/clients/{id}', `${api}/v1/clients/${readId}`, { BENCH_KEY: key })
    const baseRead = await wrk('BASE  GET /clients/{id}', `${baseUrl}/clients/${readId}`, {})
    const apiList = await wrk('API   GET /v1/clients?limit=100', `${api}/v1/clients?limit=100`, { BENCH_KEY: key })
    const apiWalk = await wrk(
      `API   list walk, ${walk.length} pages`,
      api,
      { BENCH_KEY: key, BENCH_PATHS: walkFile },
      undefined,
      WALK_LUA,
    )
    const apiReadLight = await wrk(
      'API   GET /v1/clients/{id}      c=1',
      `${api}/v1/clients/${readId}`,
      { BENCH_KEY: key },
      light,
    )
    const baseReadLight = await wrk('BASE  GET /clients/{id}         c=1', `${baseUrl}/clients/${readId}`, {}, light)
    const apiListLight = await wrk(
      'API   GET /v1/clients?limit=100 c=1',
      `${api}/v1/clients?limit=100`,
      { BENCH_KEY: key },
      light,
    )
    // Writes wait on fsync (synchronous=FULL), whose speed drifts on a shared disk: alternate the two, and compare means.
    console.log(`writes (${opts.writeRounds} alternating rounds):`)
    const apiCreates: WrkResult[] = []
    const baseInserts: WrkResult[] = []
    for (let i = 1; i <= opts.writeRounds; i++) {
      apiCreates.push(await wrk(`API   POST /v1/clients #${i}`, `${api}/v1/clients`, { BENCH_KEY: key, ...post }))
      baseInserts.push(await wrk(`BASE  POST /clients (1-row tx) #${i}`, `${baseUrl}/clients`, post))
    }
    await stop(baseline)
    const results = [
      apiRead,
      baseRead,
      apiList,
      apiWalk,
      apiReadLight,
      baseReadLight,
      apiListLight,
      ...apiCreates,
      ...baseInserts,
    ]

    await Bun.sleep(2000) // the request log flushes every second; let it settle
    const rssLoad = memoryOf(server.pid)
    await Bun.sleep(8000) // the heap shrinks back over some seconds after a load
    const rssSettled = memoryOf(server.pid).rss
    console.log(
      `\nbinary RSS after load: ${rssLoad.rss.toFixed(1)} MB at +2 s, ${rssSettled.toFixed(1)} MB at +10 s idle (peak ${rssLoad.hwm.toFixed(1)} MB)`,
    )
    await stop(server)

    // 4. Summary.
    const mean = (rs: WrkResult[]) => rs.reduce((a, r) => a + r.rps, 0) / rs.length
    const apiCreateRps = mean(apiCreates)
    const baseInsertRps = mean(baseInserts)
    // Little's law: with C connections always busy, mean latency = C / throughput; p99 < 10 ms at C = 32 needs > 3,200 req/s.
    const rows: Array<[string, string, string, boolean | null]> = [
      [
        'read rps ratio (API GET id / baseline read)',
        `${f2(apiRead.rps / baseRead.rps)}  (${f0(apiRead.rps)} / ${f0(baseRead.rps)})`,
        '>= 2',
        apiRead.rps / baseRead.rps >= 2,
      ],
      [
        'create rps ratio (API POST / baseline insert)',
        `${f2(apiCreateRps / baseInsertRps)}  (${f0(apiCreateRps)} / ${f0(baseInsertRps)})`,
        '>= 0.6',
        apiCreateRps / baseInsertRps >= 0.6,
      ],
      [`p99 GET /v1/clients/{id} (c=${opts.connections})`, `${f2(apiRead.p99)} ms`, '< 10 ms', apiRead.p99 < 10],
      [
        `p99 GET /v1/clients?limit=100 (c=${opts.connections}, ${f0(opts.clients)} Clients)`,
        `${f2(apiList.p99)} ms`,
        '< 10 ms',
        apiList.p99 < 10,
      ],
      [
        `  p99 of the list walk (pages not kept; c=${opts.connections})`,
        `${f2(apiWalk.p99)} ms (${f0(apiWalk.rps)} req/s)`,
        'info',
        null,
      ],
      [
        '  c=1: p99 GET /v1/clients/{id} (baseline)',
        `${f2(apiReadLight.p99)} ms (${f2(baseReadLight.p99)})`,
        'info',
        null,
      ],
      ['  c=1: p99 GET /v1/clients?limit=100', `${f2(apiListLight.p99)} ms`, 'info', null],
      ['start to first answer (median)', `${startMs.toFixed(1)} ms`, '< 300 ms', startMs < 300],
      ['idle RSS after start', `${rssStart.toFixed(1)} MB`, '< 100 MB', rssStart < 100],
      ['idle RSS after load (+2 s)', `${rssLoad.rss.toFixed(1)} MB`, '< 100 MB', rssLoad.rss < 100],
      ['idle RSS after load (+10 s)', `${rssSettled.toFixed(1)} MB`, '< 100 MB', rssSettled < 100],
    ]
    console.log(
      '\nscenario                                req/s       p50       p75       p90       p99       max   non-2xx',
    )
    for (const r of results) {
      console.log(
        `${pad(r.name, 38)} ${lpad(f0(r.rps), 7)} ${[r.p50, r.p75, r.p90, r.p99, r.max].map((v) => lpad(`${f2(v)}ms`, 9)).join(' ')} ${lpad(String(r.non2xx + r.socketErrors), 9)}`,
      )
    }
    console.log(
      '\nsummary                                                    value                      target     verdict',
    )
    for (const [name, value, target, ok] of rows)
      console.log(`${pad(name, 58)} ${pad(value, 26)} ${pad(target, 10)} ${ok === null ? '' : ok ? 'PASS' : 'FAIL'}`)
    console.log(
      `(with ${opts.connections} busy connections latency is bound by Little's law: mean latency = connections / throughput)`,
    )
    const dirty = results.filter((r) => r.non2xx > 0 || r.socketErrors > 0)
    if (dirty.length)
      console.log(
        `\n!! non-2xx answers or socket errors in: ${dirty.map((r) => r.name.trim()).join('; ')} (figures include them)`,
      )
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
            startMs: starts,
            rssStart,
            rssLoad,
            rssSettled,
            results,
            summary: rows.map(([name, value, target, ok]) => ({ name, value, target, ok })),
          },
          null,
          2,
        ) + '\n',
      )
      console.log(`results written to ${opts.json}`)
    }
  } finally {
    await stopAll()
    if (opts.keep) console.log(`work folder kept: ${work}`)
    else rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  main().catch(async (e) => {
    await stopAll()
    console.error(`bench failed: ${(e as Error)?.message ?? e}`)
    process.exit(1)
  })
}
