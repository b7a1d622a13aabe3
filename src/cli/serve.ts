// `invoicing serve`: migrate, build the app, listen, run the scheduler, shut down cleanly.
import { buildApp } from '../app'
import type { Deps } from '../deps'
import { serviceJobs } from '../jobs'
import { startScheduler } from '../jobs/scheduler'
import { handBackMemory, idleHandBack } from '../shared/memory'
import { releasePdfMemory } from '../modules/pdf'
import { errorFacts } from '../shared/logger'
import { VERSION } from './help'
import { requestFields } from './access-log'

/** How long a shutdown waits for requests under way before it cuts their connections. */
const STOP_GRACE_MS = 10_000
/** The background jobs start this long after the server listens, off the path of its first answers (jobs/scheduler.ts). */
const JOBS_AFTER_MS = 250

export async function serve(deps: Deps, port: number, host = '127.0.0.1'): Promise<{ stop: () => Promise<void>; port: number }> {
  const app = await buildApp(deps)
  // Once the server falls idle, the memory a burst of load took goes back to the system (kept pages, SQLite caches,
  // heap); while it stays idle, the heap again now and then.
  const idle = idleHandBack({
    afterMs: 2000,
    againMs: 10_000,
    first: async () => {
      app.http.pages?.clear()
      releasePdfMemory()
      await deps.db.shrinkMemory()
    },
    again: handBackMemory,
  })
  const server = Bun.serve({
    port,
    hostname: host,
    // Bun's own limit would answer an empty 413 (or reset the connection) for a larger body; ours answers every size
    // in the contract's shape, reading no more than 1 MiB of it (src/http/body.ts).
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // A connection with nothing under way is closed after this many seconds; a request whose body stalls is ended
    // by the body reader first.
    idleTimeout: 10,
    fetch: async (req, srv) => {
      idle.seen()
      if (!deps.config.logRequests) return app.fetch(req, srv)
      const started = performance.now()
      const res = await app.fetch(req, srv)
      deps.logger.info('request', requestFields(req, res, started, performance.now()))
      return res
    },
    error: () => new Response(JSON.stringify({ error: { type: 'server_error', message: 'The service failed to answer; the fault is ours.' } }), { status: 500, headers: { 'content-type': 'application/json' } }),
  })
  const idleGc = { name: 'idle-gc', pattern: '*/2 * * * * *', run: async () => void (await idle.tick()) }
  const scheduler = startScheduler([...serviceJobs(deps, app), idleGc], deps.logger, JOBS_AFTER_MS)
  // driver: whether the libSQL driver's local fast paths are in use, or every path goes through @libsql/client (a libSQL server).
  deps.logger.info('listening', { port: server.port, host, db: deps.config.dbPath, driver: deps.db.nativeFile ? 'native' : 'client' })
  let stopped = false
  // Stops taking connections, answers the requests under way, lets running jobs end, then moves the whole WAL into
  // the main file (TRUNCATE): after a clean stop the .db file alone holds every answered record.
  const stop = async () => {
    if (stopped) return
    stopped = true
    // A client that never finishes its request cannot hold the shutdown: after the grace its connection is cut.
    await Promise.race([server.stop(), Bun.sleep(STOP_GRACE_MS).then(() => server.stop(true))])
    await scheduler.stop()
    await app.requestLog.flush()
    await app.connectionUsage.flush()
    app.rateLimiter.close()
    await deps.db.checkpoint()
    deps.db.close()
  }
  return { stop, port: server.port ?? port }
}

/** The address a person opens: a wildcard listen address is reached through localhost. */
export function reachableUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${shown}:${port}`
}

export interface ServeForeverOptions {
  /** Print on stdout where the server listens and how to stop it (a person started it). */
  announce?: boolean
  /** Runs after the server stopped and the database closed, before the process exits (the sandbox removes its folder). */
  afterStop?: () => void
}

/** Serves until SIGINT/SIGTERM, then stops cleanly (see stop) and exits 0 (1 if the stop failed); gives the port it listens on. */
export async function serveForever(deps: Deps, port: number, host = '127.0.0.1', opts: ServeForeverOptions = {}): Promise<number> {
  // The handlers go in before the server says it listens: a SIGTERM sent as soon as "listening" is read (a supervisor,
  // a test) must stop it cleanly, not find the default action (exit 143). One arriving during the start is kept.
  let s: Awaited<ReturnType<typeof serve>> | null = null
  let asked: 'SIGINT' | 'SIGTERM' | null = null
  const stopOn = (sig: 'SIGINT' | 'SIGTERM', server: NonNullable<typeof s>) =>
    server.stop().then(
      () => {
        opts.afterStop?.()
        deps.logger.info('stopped', { signal: sig })
        process.exit(0)
      },
      (e) => {
        deps.logger.error('shutdown failed', errorFacts(e))
        process.exit(1)
      },
    )
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => (s ? void stopOn(sig, s) : (asked ??= sig)))
  s = await serve(deps, port, host)
  if (asked) void stopOn(asked, s)
  if (opts.announce) {
    const url = reachableUrl(host, s.port)
    process.stdout.write(
      `invoicing ${VERSION} listening on ${url} (API ${url}/v1, reference ${url}/docs), database ${deps.config.dbPath}
` +
        `Stop with Ctrl+C.${host === '127.0.0.1' || host === 'localhost' ? ' Only this machine can reach it; --host 0.0.0.0 opens it to the network.' : ''}
`,
    )
  }
  return s.port
}
