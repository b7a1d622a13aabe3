// Start-up of the compiled binary: `serve` from spawn to its first answer (GET /health 200), against `--version` from
// spawn to exit, interleaved in one run on one machine, so that the ratio holds whatever the machine's load.
//
//   bun bench/start.ts [--no-build] [--runs 15] [--against OTHER_BINARY]
//
// The target (issue 34): the median start to first answer is at most 1.5 times the median `--version`. With
// --against, another build (an earlier commit's dist/invoicing) is measured in the same rounds, for a before/after.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { argNumber, argValue } from './args'
import { children, freePort, HOST, mustRun, stop, stopAll } from './processes'

const ROOT = resolve(import.meta.dir, '..')
const BIN = join(ROOT, 'dist/invoicing')
const REPO_BUN = join(ROOT, 'node_modules/.bin/bun')
const BUN = existsSync(REPO_BUN) ? REPO_BUN : process.execPath
const runs = argNumber('runs', 15)
const against = argValue('against')
const TARGET = 1.5

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)))

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** A start's figures: wall time, and the CPU time its process used (which other work on the machine does not inflate). */
interface Start {
  ms: number
  cpuMs: number
  /** serve only: the first API request's answer (GET /v1/business with a key), asked once /health answered, in ms. */
  apiMs?: number
}

/** CPU time used so far by every thread of a running process, in ms (/proc/PID/task/N/schedstat, in ns). */
function cpuOf(pid: number): number {
  let ns = 0
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6
}

/** Spawn to exit of `invoicing --version`. */
async function version(bin: string, cwd: string): Promise<Start> {
  const t0 = performance.now()
  const p = Bun.spawn({ cmd: [bin, '--version'], cwd, stdout: 'ignore', stderr: 'ignore' })
  const code = await p.exited
  const ms = performance.now() - t0
  if (code !== 0) throw new Error(`--version exited ${code}`)
  const cpu = p.resourceUsage()!.cpuTime
  return { ms, cpuMs: Number(cpu.user + cpu.system) / 1000 }
}

/** Spawn to the first 200 of GET /health of `invoicing serve` on a migrated database. */
async function firstAnswer(bin: string, cwd: string, db: string, key: string): Promise<Start> {
  const port = await freePort()
  const t0 = performance.now()
  const p: Subprocess = Bun.spawn({
    cmd: [bin, 'serve', '--port', String(port), '--db', db],
    cwd,
    stdout: 'ignore',
    stderr: 'pipe',
  })
  children.add(p)
  try {
    for (;;) {
      try {
        const res = await fetch(`http://${HOST}:${port}/health`)
        if (res.status === 200) {
          const ms = performance.now() - t0
          const cpuMs = cpuOf(p.pid)
          await res.arrayBuffer()
          // What the first request of the API itself then costs (its door is built with its first request).
          const a0 = performance.now()
          const api = await fetch(`http://${HOST}:${port}/v1/business`, { headers: { authorization: `Bearer ${key}` } })
          await api.arrayBuffer()
          if (api.status !== 200) throw new Error(`GET /v1/business answered ${api.status}`)
          return { ms, cpuMs, apiMs: performance.now() - a0 }
        }
      } catch {
        // not listening yet
      }
      if (p.exitCode !== null || p.signalCode !== null)
        throw new Error(
          `serve exited (${p.exitCode ?? p.signalCode}): ${await new Response(p.stderr as ReadableStream).text()}`,
        )
      if (performance.now() - t0 > 10_000) throw new Error('no answer within 10 s')
      await Bun.sleep(1)
    }
  } finally {
    await stop(p)
  }
}

if (!process.argv.includes('--no-build')) await mustRun([BUN, 'scripts/build.ts'], { cwd: ROOT, timeoutMs: 180_000 })
// A temp folder with no node_modules above it, so the binary uses its embedded libsql addon.
const work = mkdtempSync(join(tmpdir(), 'invoicing-start-'))
try {
  const db = join(work, 'start.db')
  await mustRun([BIN, 'migrate', '--db', db], { cwd: work, timeoutMs: 30_000 })
  const cli = async (args: string[]) =>
    JSON.parse(await mustRun([BIN, ...args, '--db', db, '--json'], { cwd: work, timeoutMs: 30_000 }))
  const business = (await cli([
    'business',
    'create',
    '--name',
    'Start GmbH',
    '--country',
    'DE',
    '--currency',
    'EUR',
  ])) as { id: number }
  const key = (
    (await cli(['key', 'create', String(business.id), '--role', 'admin', '--name', 'start'])) as { key: string }
  ).key
  const bins = [{ name: 'this build', bin: BIN }, ...(against ? [{ name: against, bin: resolve(against) }] : [])]
  const figures = bins.map(() => ({ v: [] as Start[], s: [] as Start[] }))
  // One of each unrecorded: the binaries' pages come into the page cache.
  for (const b of bins) {
    await version(b.bin, work)
    await firstAnswer(b.bin, work, db, key)
  }
  // Interleaved, so that whatever else the machine does weighs on each figure alike.
  for (let i = 0; i < runs; i++) {
    for (const [k, b] of bins.entries()) {
      figures[k]!.v.push(await version(b.bin, work))
      figures[k]!.s.push(await firstAnswer(b.bin, work, db, key))
    }
  }
  const fmt = (xs: number[]) => `${xs.map((x) => x.toFixed(0)).join(' ')} ms → median ${median(xs).toFixed(1)} ms`
  for (const [k, b] of bins.entries()) {
    const { v, s } = figures[k]!
    const ratio = median(s.map((x) => x.ms)) / median(v.map((x) => x.ms))
    const cpuRatio = median(s.map((x) => x.cpuMs)) / median(v.map((x) => x.cpuMs))
    console.log(`${b.name}:`)
    console.log(`  --version, spawn → exit:            ${fmt(v.map((x) => x.ms))}`)
    console.log(`  serve, spawn → GET /health 200:     ${fmt(s.map((x) => x.ms))}`)
    console.log(`  --version, CPU time of the process: ${fmt(v.map((x) => x.cpuMs))}`)
    console.log(`  serve, CPU time to the answer:      ${fmt(s.map((x) => x.cpuMs))}`)
    console.log(`  then the first API request:         ${fmt(s.map((x) => x.apiMs!))}`)
    console.log(
      `  start to first answer / --version: ${ratio.toFixed(2)} (target ≤ ${TARGET}) ${ratio <= TARGET ? 'ok' : 'MISSED'}; in CPU time ${cpuRatio.toFixed(2)}`,
    )
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${availableParallelism()} cores)`,
  )
} finally {
  await stopAll()
  rmSync(work, { recursive: true, force: true })
}
