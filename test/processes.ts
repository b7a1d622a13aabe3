// Real processes of the service, run from source, for the tests of what holds across processes and restarts.
import { resolve } from 'node:path'

export const ROOT = resolve(import.meta.dir, '..')
const MAIN = resolve(ROOT, 'src/main.ts')

export interface Server {
  port: number
  url: string
  proc: ReturnType<typeof Bun.spawn>
  /** Everything it wrote on stderr so far. */
  log(): string
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>
}

/** The environment a test process runs with: nothing of the developer's own settings. */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    ...extra,
  }
}

/** Runs one CLI command to its end. */
export function cli(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
): { code: number; out: string; err: string } {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd: ROOT,
    env: testEnv(opts.env),
    stdin: opts.stdin === undefined ? 'ignore' : new TextEncoder().encode(opts.stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() }
}

/** Starts `invoicing serve --port PORT --db FILE` (PORT 0: a free one) and waits until it says where it listens (or exits). */
export async function startServer(db: string, env: Record<string, string> = {}, port = 0): Promise<Server> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', String(port), '--db', db], {
    cwd: ROOT,
    env: testEnv(env),
    stdout: 'ignore',
    stderr: 'pipe',
  })
  let text = ''
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  // Keeps reading stderr for the whole life of the process, so a full pipe never blocks it.
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      text += decoder.decode(value)
    }
  })()
  const deadline = Date.now() + 20_000
  port = 0
  while (Date.now() < deadline) {
    const m = /"msg":"listening","port":(\d+)/.exec(text)
    if (m) {
      port = Number(m[1])
      break
    }
    if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}: ${text}`)
    await Bun.sleep(10)
  }
  if (!port) {
    proc.kill('SIGKILL')
    throw new Error('server did not start within 20 s: ' + text)
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    proc,
    log: () => text,
    async stop(signal = 'SIGTERM') {
      proc.kill(signal)
      const code = await proc.exited
      await pump
      return code
    },
  }
}

/** Migrates a new database and makes a pro Business with an Admin key through the CLI. */
export function seed(db: string, env: Record<string, string> = {}): { businessId: number; key: string } {
  const b = cli(
    [
      'business',
      'create',
      '--name',
      'Process GmbH',
      '--country',
      'DE',
      '--currency',
      'EUR',
      '--plan',
      'pro',
      '--db',
      db,
      '--json',
    ],
    { env },
  )
  if (b.code !== 0) throw new Error('business create: ' + b.err)
  const businessId = JSON.parse(b.out).id as number
  return { businessId, key: newKey(db, businessId, env) }
}

export function newKey(db: string, businessId: number, env: Record<string, string> = {}): string {
  const k = cli(
    ['key', 'create', String(businessId), '--role', 'admin', '--name', `k${Math.random()}`, '--db', db, '--json'],
    { env },
  )
  if (k.code !== 0) throw new Error('key create: ' + k.err)
  return JSON.parse(k.out).key as string
}

/** An API call to a test server with a key; the answer's status and parsed JSON body. */
export async function call(s: Server, key: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: r.status, body: (await r.json()) as any }
}

/** A webhook receiver on loopback that keeps every body and its headers, answering 200. */
export function startReceiver() {
  const received: Array<{ body: string; headers: Record<string, string> }> = []
  const receiver = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      received.push({ body: await req.text(), headers: Object.fromEntries(req.headers) })
      return new Response('ok')
    },
  })
  return { receiver, received }
}
