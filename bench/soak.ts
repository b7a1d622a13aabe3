// The soak: the compiled binary under a mixed load for minutes, its memory sampled every second.
//
//   bun bench/soak.ts [--no-build] [--minutes 9] [--workers 8] [--idle 30] [--keep] [--smaps] [--server-env K=V,...]
//
// Eight workers, each in a loop: create a Client now and then, a Draft of 1 to 8 Lines, issue it, record a Payment
// on it (a Receipt is made), ask its PDF, its XML and its Receipt's PDF, walk a page of the document list and of
// the Client list, and ask the income and overdue reports. Beside them, once a minute (from 30 s in), a 100 MB body
// streamed to /mcp with the key, as a hostile client would: each must be answered 413 (counted apart, an error if
// not), and the memory figures hold with them in the mix. What it prints: requests and errors, counts checked
// against what the workers made, p50/p99 latency per minute (flat = no slow leak), and the server's RSS: sampled
// every second under load (peak), and after the load once it has been idle (`--idle` seconds).
// Targets: 0 errors, counts exact, peak RSS under 200 MB, idle RSS under 100 MB. See bench/README.md.
import type { Subprocess } from 'bun'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argNumber, argValue } from './args'
import { children, freePort, HOST, largestMappings, memoryOf, mustRun, stop, stopAll, waitForHealth } from './processes'
import { sendBigBody } from '../test/big-body'

const ROOT = resolve(import.meta.dir, '..')
const BIN = join(ROOT, 'dist/invoicing')
const REPO_BUN = join(ROOT, 'node_modules/.bin/bun')
const BUN = existsSync(REPO_BUN) ? REPO_BUN : process.execPath

const opts = {
  build: !process.argv.includes('--no-build'),
  minutes: argNumber('minutes', 9),
  workers: argNumber('workers', 8),
  idle: argNumber('idle', 30),
  keep: process.argv.includes('--keep'),
  // --smaps: after the idle figure, the mappings that hold most of it (anonymous heaps, the binary's pages).
  smaps: process.argv.includes('--smaps'),
  // --server-env K=V[,K=V]: settings for the server alone, e.g. BUN_JSC_heapGrowthMaxIncrease=0.4 to try another growth.
  serverEnv: Object.fromEntries(
    (argValue('server-env') ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  ),
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)))

const mb = (n: number) => `${n.toFixed(0)} MB`

async function main(): Promise<void> {
  if (opts.build) await mustRun([BUN, 'run', 'build'], { cwd: ROOT, timeoutMs: 300_000 })
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run without --no-build`)
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-soak-'))
  const db = join(dir, 'soak.db')
  const cli = (...args: string[]) => mustRun([BIN, ...args, '--db', db], { cwd: dir, timeoutMs: 60_000 })
  try {
    await cli('migrate')
    const business = JSON.parse(
      await cli(
        'business',
        'create',
        '--name',
        'Soak GmbH',
        '--country',
        'DE',
        '--currency',
        'EUR',
        '--vat-number',
        'DE123456789',
        '--json',
      ),
    )
    const key = JSON.parse(
      await cli('key', 'create', String(business.id), '--role', 'admin', '--name', 'soak', '--json'),
    ).key as string
    // The default patterns count 9,999 Invoices and 99,999 Receipts a year: a soak at 200 requests/s issues that many
    // Invoices in under 7 minutes, and then every issue is rightly refused numbering_at_its_end.
    await cli('numbering', 'set', String(business.id), '--kind', 'invoice', '--pattern', 'INV-{YYYY}-{NNNNNNN}')
    await cli('numbering', 'set', String(business.id), '--kind', 'receipt', '--pattern', 'RCT-{YYYY}-{NNNNNNN}')
    const port = await freePort()
    const server: Subprocess = Bun.spawn({
      cmd: [BIN, 'serve', '--db', db, '--port', String(port)],
      cwd: dir,
      env: { ...process.env, INVOICING_RATE_LIMIT: '1000000000', ...opts.serverEnv },
      stdout: Bun.file(join(dir, 'server.out')),
      stderr: Bun.file(join(dir, 'server.err')),
    })
    children.add(server)
    const base = `http://${HOST}:${port}`
    await waitForHealth(base)
    const startRss = memoryOf(server.pid!).rss

    // ------------------------------------------------------------ the load
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    let requests = 0
    const errors: string[] = []
    const latencies: number[][] = []
    const started = performance.now()
    const until = started + opts.minutes * 60_000
    const made = { clients: 0, documents: 0, payments: 0 }

    async function call(method: string, path: string, body?: unknown, expect = [200, 201]): Promise<any> {
      const t = performance.now()
      const res = await fetch(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const type = res.headers.get('content-type') ?? ''
      const answer = type.includes('json') ? await res.json() : await res.arrayBuffer()
      const minute = Math.floor((t - started) / 60_000)
      ;(latencies[minute] ??= []).push(performance.now() - t)
      requests++
      if (!expect.includes(res.status)) {
        errors.push(`${method} ${path} ${res.status} ${JSON.stringify(answer).slice(0, 200)}`)
        return null
      }
      return answer
    }

    const clientIds: number[] = []
    async function worker(w: number): Promise<void> {
      let round = 0
      while (performance.now() < until) {
        round++
        if (clientIds.length < 20 || round % 10 === 0) {
          const c = await call('POST', '/v1/clients', {
            name: `Soak Client ${w}-${round}`,
            email: `c${w}x${round}@soak.example`,
            country: 'DE',
            address: 'Hauptstraße 1, 10115 Berlin',
          })
          if (c) {
            clientIds.push(c.id)
            made.clients++
          }
        }
        const clientId = clientIds[(w * 7919 + round) % clientIds.length]!
        const lines = Array.from({ length: 1 + ((w + round) % 8) }, (_, i) => ({
          description: `Consulting, part ${i + 1} of the work done in week ${round}`,
          quantity: String(1 + i),
          unit_price: '120.50',
          vat_rate: '19.00',
        }))
        const draft = await call('POST', '/v1/documents', {
          type: 'invoice',
          client_id: clientId,
          lines,
          notes: 'Payable within 30 days. Thank you.',
        })
        if (!draft) continue
        made.documents++
        const issued = await call('POST', `/v1/documents/${draft.id}/issue`)
        if (!issued) continue
        const payment = await call('POST', `/v1/documents/${draft.id}/payments`, {
          amount: issued.total,
          payment_date: issued.issue_date,
          payment_method: 'cash',
        })
        if (payment) made.payments++
        await call('GET', `/v1/documents/${draft.id}/pdf`)
        await call('GET', `/v1/documents/${draft.id}/xml`)
        if (payment?.receipt_id) await call('GET', `/v1/receipts/${payment.receipt_id}/pdf`)
        const page = await call('GET', '/v1/documents?limit=100')
        if (page?.next_cursor)
          await call('GET', `/v1/documents?limit=100&cursor=${encodeURIComponent(page.next_cursor)}`)
        await call('GET', '/v1/clients?limit=100')
        if (round % 4 === 0) {
          await call('GET', '/v1/reports/income?from=2026-01-01&to=2026-12-31')
          await call('GET', '/v1/reports/overdue')
        }
      }
    }

    // Once a minute a 100 MB body to /mcp: refused 413 by the bounded reader, never held (issue 33).
    const big = { sent: 0, refused: 0 }
    async function bigBodies(): Promise<void> {
      for (let at = 30_000; started + at < until; at += 60_000) {
        await Bun.sleep(Math.max(0, started + at - performance.now()))
        const a = await sendBigBody(`${base}/mcp`, {
          bytes: 100e6,
          framing: 'chunked',
          headers: { ...headers, accept: 'application/json, text/event-stream' },
        })
        big.sent++
        if (a.status === 413) big.refused++
        else errors.push(`POST /mcp with a 100 MB body: ${a.status} ${a.body.slice(0, 200)}`)
      }
    }

    // RSS every second while the load runs.
    const samples: number[] = []
    const sampler = setInterval(() => samples.push(memoryOf(server.pid!).rss), 1000)
    await Promise.all([...Array.from({ length: opts.workers }, (_, w) => worker(w)), bigBodies()])
    clearInterval(sampler)
    const seconds = (performance.now() - started) / 1000
    const afterLoad = memoryOf(server.pid!)

    // ------------------------------------------------------------ counts exact
    async function countAll(path: string): Promise<number> {
      let n = 0
      let cursor: string | null = null
      do {
        const page: any = await call('GET', `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        n += page.data.length
        cursor = page.next_cursor
      } while (cursor)
      return n
    }
    const counted = {
      clients: await countAll('/v1/clients'),
      documents: await countAll('/v1/documents'),
      payments: await countAll('/v1/payments'),
    }

    await Bun.sleep(opts.idle * 1000)
    const idle = memoryOf(server.pid!)
    const idleMappings = opts.smaps ? largestMappings(server.pid!) : []
    await stop(server)

    // ------------------------------------------------------------ figures
    const pct = (xs: number[], q: number) => {
      const s = [...xs].sort((a, b) => a - b)
      return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? 0
    }
    console.log(
      `soak: ${opts.workers} workers, ${seconds.toFixed(0)} s, ${requests} requests (${(requests / seconds).toFixed(0)}/s), ${errors.length} errors`,
    )
    for (const e of errors.slice(0, 5)) console.log(`  error: ${e}`)
    console.log(`100 MB bodies to /mcp: ${big.sent} sent, ${big.refused} answered 413 (expected, not errors)`)
    console.log(
      `made ${JSON.stringify(made)}; counted ${JSON.stringify(counted)}: ${JSON.stringify(made) === JSON.stringify(counted) ? 'exact' : 'MISMATCH'}`,
    )
    console.log('latency per minute (p50 / p99 ms):')
    latencies.forEach((xs, m) =>
      console.log(
        `  minute ${m + 1}: ${pct(xs, 0.5).toFixed(1)} / ${pct(xs, 0.99).toFixed(1)} (${xs.length} requests)`,
      ),
    )
    const peak = Math.max(afterLoad.hwm, ...samples)
    console.log(
      `RSS: ${mb(startRss)} at start; under load min ${mb(Math.min(...samples))}, max ${mb(Math.max(...samples))}, peak (VmHWM) ${mb(peak)}; ${mb(afterLoad.rss)} at the end of the load; ${mb(idle.rss)} after ${opts.idle} s idle (${mb(idle.anon)} anonymous, ${mb(idle.file)} file pages)`,
    )
    for (const m of idleMappings) console.log(`  ${m}`)
    const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
    console.log(`${pass(errors.length === 0)} no errors`)
    console.log(`${pass(JSON.stringify(made) === JSON.stringify(counted))} counts exact`)
    console.log(`${pass(peak < 200)} peak RSS under 200 MB (${mb(peak)})`)
    console.log(`${pass(idle.rss < 100)} idle RSS under 100 MB (${mb(idle.rss)})`)
  } finally {
    await stopAll()
    if (opts.keep) console.log(`kept ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

await main()
