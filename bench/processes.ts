// Child processes of the benchmarks: every one bounded in time and stopped at the end, also on failure or Ctrl-C.
import type { Subprocess } from 'bun'
import { readFileSync } from 'node:fs'

export const HOST = '127.0.0.1'

/** Every process a benchmark started and has not seen end; stopAll() ends them. */
export const children = new Set<Subprocess>()

export async function stop(p: Subprocess, graceMs = 5000): Promise<void> {
  if (p.exitCode === null && p.signalCode === null) {
    p.kill('SIGTERM')
    const timer = setTimeout(() => p.kill('SIGKILL'), graceMs)
    await p.exited
    clearTimeout(timer)
  }
  children.delete(p)
}

/** Waits until the server at `base` answers GET /health (it may not listen yet), polling every `everyMs`. */
export async function waitForHealth(base: string, timeoutMs = 20_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) return
    } catch {}
    if (Date.now() > deadline) throw new Error(`the server at ${base} did not start within ${timeoutMs} ms`)
    await Bun.sleep(everyMs)
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((p) => stop(p, 2000)))
}

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

export async function run(
  cmd: string[],
  o: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs: number },
): Promise<RunResult> {
  const p = Bun.spawn({ cmd, cwd: o.cwd, env: { ...process.env, ...o.env }, stdout: 'pipe', stderr: 'pipe' })
  children.add(p)
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    p.kill('SIGKILL')
  }, o.timeoutMs)
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ])
  clearTimeout(timer)
  children.delete(p)
  if (timedOut) throw new Error(`${cmd.join(' ')}: killed after ${o.timeoutMs} ms`)
  return { code, stdout, stderr }
}

export async function mustRun(
  cmd: string[],
  o: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs: number },
): Promise<string> {
  const r = await run(cmd, o)
  if (r.code !== 0) throw new Error(`${cmd.join(' ')} exited ${r.code}: ${r.stderr.trim() || r.stdout.trim()}`)
  return r.stdout
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ hostname: HOST, port: 0, fetch: () => new Response('') })
  const port = s.port!
  await s.stop(true)
  return port
}

/**
 * A process's RSS, its peak (VmHWM), and what it is made of: anonymous memory (heaps, caches) and file pages (the
 * binary's code, mapped); in MB (10^6 bytes).
 */
export function memoryOf(pid: number): { rss: number; hwm: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mbOf = (field: string) =>
    (Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024) / 1e6
  return { rss: mbOf('VmRSS'), hwm: mbOf('VmHWM'), anon: mbOf('RssAnon'), file: mbOf('RssFile') }
}

/** The mappings holding most of a process's RSS (from /proc/PID/smaps), largest first: where idle memory sits. */
export function largestMappings(pid: number, top = 12): string[] {
  const rows: { name: string; rss: number; anon: number }[] = []
  let current: { name: string; rss: number; anon: number } | null = null
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) rows.push((current = { name: `${head[1]} ${head[2] || '[anon]'}`, rss: 0, anon: 0 }))
    else if (current && line.startsWith('Rss:')) current.rss = Number(line.split(/\s+/)[1])
    else if (current && line.startsWith('Anonymous:')) current.anon = Number(line.split(/\s+/)[1])
  }
  const byName = new Map<string, { rss: number; anon: number }>()
  for (const r of rows) {
    const m = byName.get(r.name) ?? { rss: 0, anon: 0 }
    byName.set(r.name, { rss: m.rss + r.rss, anon: m.anon + r.anon })
  }
  return [...byName]
    .sort((a, b) => b[1].rss - a[1].rss)
    .slice(0, top)
    .map(([name, m]) => `${(m.rss / 1024).toFixed(1).padStart(7)} MB (anon ${(m.anon / 1024).toFixed(1)})  ${name}`)
}
