// A tool call against the same API call: `clients_get` over POST /mcp vs GET /v1/clients/{id}, on one server from
// source (so both doors run the same code and database), with wrk, rounds alternating.
//
//   bun bench/mcp.ts [--duration 5] [--rounds 2] [--threads 2] [--connections 16]
//
// Issue 13 asks the tool call to reach at least 0.8 of the API call's requests per second.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argNumber } from './args'
import { children, freePort, HOST, mustRun, stop, stopAll, waitForHealth } from './processes'

const ROOT = resolve(import.meta.dir, '..')
const MAIN = join(ROOT, 'src/main.ts')
const LUA = join(import.meta.dir, 'request.lua')
const opts = {
  duration: argNumber('duration', 5),
  rounds: argNumber('rounds', 2),
  threads: argNumber('threads', 2),
  connections: argNumber('connections', 16),
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)))

const dir = mkdtempSync(join(tmpdir(), 'invoicing-bench-mcp-'))
const db = join(dir, 'bench.db')
const cli = async (...args: string[]) =>
  JSON.parse(await mustRun([process.execPath, MAIN, ...args, '--db', db, '--json'], { cwd: ROOT, timeoutMs: 60_000 }))

try {
  const business = await cli(
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
  )
  const { key } = await cli('key', 'create', String(business.id), '--role', 'admin', '--name', 'bench')
  const port = await freePort()
  const server = Bun.spawn({
    cmd: [process.execPath, MAIN, 'serve', '--port', String(port), '--db', db],
    cwd: ROOT,
    env: { ...process.env, INVOICING_RATE_LIMIT: '1000000000', INVOICING_LOG_LEVEL: 'error' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  children.add(server)
  const base = `http://${HOST}:${port}`
  await waitForHealth(base)
  const created = (await (
    await fetch(`${base}/v1/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Client', email: 'bench@example.com', country: 'DE' }),
    })
  ).json()) as { id: number }
  const toolCall = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'clients_get', arguments: { id: created.id } },
  })
  // The answer of each, once, so a broken door is not measured as a fast one.
  const probe = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: toolCall,
  })
  const probed = (await probe.json()) as any
  if (probed.result?.structuredContent?.id !== created.id)
    throw new Error('the tool call did not answer the Client: ' + JSON.stringify(probed))

  const wrk = async (name: string, url: string, env: Record<string, string>) => {
    const r = await mustRun(
      ['wrk', `-t${opts.threads}`, `-c${opts.connections}`, `-d${opts.duration}s`, '--latency', '-s', LUA, url],
      { env: { BENCH_KEY: key, ...env }, timeoutMs: (opts.duration + 30) * 1000 },
    )
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r)?.[1] ?? 0)
    const p99 = /99%\s+(\S+)/.exec(r)?.[1] ?? '?'
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(r)?.[1] ?? '0'
    console.log(`${name.padEnd(28)} ${rps.toFixed(0).padStart(8)} req/s   p99 ${p99.padStart(8)}   non-2xx ${errors}`)
    return rps
  }
  const api: number[] = []
  const mcp: number[] = []
  await wrk('warm-up (API)', `${base}/v1/clients/${created.id}`, {})
  for (let round = 1; round <= opts.rounds; round++) {
    api.push(await wrk(`GET /v1/clients/{id} #${round}`, `${base}/v1/clients/${created.id}`, {}))
    mcp.push(
      await wrk(`MCP clients_get #${round}`, `${base}/mcp`, {
        BENCH_METHOD: 'POST',
        BENCH_BODY: toolCall,
        BENCH_ACCEPT: 'application/json, text/event-stream',
      }),
    )
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  console.log(
    `ratio MCP / API: ${(mean(mcp) / mean(api)).toFixed(2)} (mean of ${opts.rounds} rounds; issue 13 asks >= 0.8)`,
  )
  await stop(server)
} finally {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
}
