// `invoicing serve`: migrate, build the app, listen, run the scheduler, shut down cleanly.
import { buildApp, type App } from '../app'
import { reachableUrl } from '../config'
import type { Deps } from '../deps'
import { serviceJobs } from '../jobs'
import { startScheduler } from '../jobs/scheduler'
import { handBackMemory, idleHandBack } from '../shared/memory'
import { releasePdfMemory } from '../modules/pdf'
import { errorFacts } from '../shared/logger'
import { VERSION } from './help'
import { requestFields } from './access-log'
import { SERVED_BODY_CAP } from '../platform/request-body'

/** How long a shutdown waits for requests under way before it cuts their connections. */
const STOP_GRACE_MS = 10_000
/** The background jobs start this long after the server listens, off the path of its first answers (jobs/scheduler.ts). */
const JOBS_AFTER_MS = 250
/** Seconds a connection may sit with nothing under way (no request being handled) before it is closed. */
const IDLE_TIMEOUT_S = 10

/** Sets the idle timeout of the request's connection; one already closed has none to set. */
function holdOpen(srv: { timeout(req: Request, seconds: number): void }, req: Request, seconds: number): void {
  try {
    srv.timeout(req, seconds)
  } catch {
    // The client went away: nothing is left to time out.
  }
}

export async function serve(
  deps: Deps,
  port: number,
  host = '127.0.0.1',
): Promise<{ stop: () => Promise<void>; port: number }> {
  // The server listens before the app is built: the port it bound (`--port 0` takes a free one) and the host go into the
  // config first, so that every link the doors write (OAuth issuer, metadata, remedy_url, public_url) names the address
  // printed at start (extensions §8). A request arriving meanwhile waits for the app.
  let built: (app: App) => void = () => {}
  const ready = new Promise<App>((resolve) => (built = resolve))
  let served: App | undefined
  // Once the server falls idle, the memory a burst of load took goes back to the system (kept pages, SQLite caches,
  // heap); while it stays idle, the heap again now and then.
  const idle = idleHandBack({
    afterMs: 2000,
    againMs: 10_000,
    first: async () => {
      served?.releaseIdle()
      releasePdfMemory()
      await deps.db.shrinkMemory()
    },
    again: handBackMemory,
  })
  const server = Bun.serve({
    port,
    hostname: host,
    // Every door reads its body through src/platform/request-body.ts, which stops at the door's limit (1 MiB at most) and answers
    // 413 in the door's words; this cap, far above those limits, is Bun's own, so that no body a client declares
    // larger is ever taken in, whatever a door's code does with it (Bun answers such a declaration a bare 413).
    maxRequestBodySize: SERVED_BODY_CAP,
    // A connection with nothing under way is closed after this many seconds; a request whose body stalls is ended
    // by the body reader first.
    idleTimeout: IDLE_TIMEOUT_S,
    fetch: async (req, srv) => {
      const app = served ?? (await ready)
      idle.seen()
      // Bun's idle timeout also runs while a request is being handled: a Send to a slow mail server (its timeouts are
      // 10 to 20 s a step) was cut with no answer, and a client's retry could email twice. The connection is not idle
      // while we work on its request; the timeout comes back for the answer and whatever follows on the connection.
      holdOpen(srv, req, 0)
      try {
        if (!deps.config.logRequests) return await app.fetch(req, srv)
        const started = performance.now()
        const res = await app.fetch(req, srv)
        deps.logger.info('request', requestFields(req, res, started, performance.now()))
        return res
      } finally {
        holdOpen(srv, req, IDLE_TIMEOUT_S)
      }
    },
    error: () =>
      new Response(
        JSON.stringify({
          error: { type: 'server_error', message: 'The service failed to answer; the fault is ours.' },
        }),
        { status: 500, headers: { 'content-type': 'application/json' } },
      ),
  })
  deps.config.port = server.port ?? port
  deps.config.host = host
  let app: App
  try {
    app = await buildApp(deps)
  } catch (e) {
    server.stop(true)
    throw e
  }
  served = app
  built(app)
  const idleGc = { name: 'idle-gc', pattern: '*/2 * * * * *', run: async () => void (await idle.tick()) }
  const scheduler = startScheduler([...serviceJobs(deps, app), idleGc], deps.logger, JOBS_AFTER_MS)
  // driver: whether the libSQL driver's local fast paths are in use, or every path goes through @libsql/client (a libSQL server).
  deps.logger.info('listening', {
    port: server.port,
    host,
    db: deps.config.dbPath,
    driver: deps.db.nativeFile ? 'native' : 'client',
  })
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

export { reachableUrl }

export interface ServeForeverOptions {
  /** Print on stdout where the server listens and how to stop it (a person started it). */
  announce?: boolean
  /** Runs after the server stopped and the database closed, before the process exits (the sandbox removes its folder). */
  afterStop?: () => void
}

/** Serves until SIGINT/SIGTERM, then stops cleanly (see stop) and exits 0 (1 if the stop failed); gives the port it listens on. */
export async function serveForever(
  deps: Deps,
  port: number,
  host = '127.0.0.1',
  opts: ServeForeverOptions = {},
): Promise<number> {
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
