// `invoicing serve`: migrate, build the app, listen, run the scheduler, shut down cleanly.
import { buildApp } from '../app'
import type { Deps } from '../deps'
import { serviceJobs } from '../jobs'
import { startScheduler } from '../jobs/scheduler'
import { MAX_BODY_BYTES } from '../http/pipeline'
import { handBackMemory } from '../shared/memory'
import { errorFacts } from '../shared/logger'

/** How long a shutdown waits for requests under way before it cuts their connections. */
const STOP_GRACE_MS = 10_000

export async function serve(deps: Deps, port: number): Promise<{ stop: () => Promise<void>; port: number }> {
  const app = await buildApp(deps)
  let lastRequest = Date.now()
  let collected = true
  const server = Bun.serve({
    port,
    // Above our own 1 MiB rule so that our check answers, in the contract's shape.
    maxRequestBodySize: MAX_BODY_BYTES * 2,
    fetch: (req, srv) => {
      lastRequest = Date.now()
      collected = false
      return app.fetch(req, srv)
    },
    error: () => new Response(JSON.stringify({ error: { type: 'server_error', message: 'The service failed to answer; the fault is ours.' } }), { status: 500, headers: { 'content-type': 'application/json' } }),
  })
  // Once the server falls idle, the memory a burst of load took goes back to the system (kept pages, SQLite caches, heap).
  const idleGc = {
    name: 'idle-gc',
    pattern: '*/2 * * * * *',
    run: async () => {
      if (!collected && Date.now() - lastRequest > 2000) {
        collected = true
        app.http.pages?.clear()
        await deps.db.shrinkMemory()
        handBackMemory()
      }
    },
  }
  const scheduler = startScheduler([...serviceJobs(deps, app), idleGc], deps.logger)
  deps.logger.info('listening', { port: server.port, db: deps.config.dbPath })
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
    app.rateLimiter.close()
    await deps.db.checkpoint()
    deps.db.close()
  }
  return { stop, port: server.port ?? port }
}

/** Serves until SIGINT/SIGTERM, then stops cleanly (see stop) and exits 0; gives the port it listens on. */
export async function serveForever(deps: Deps, port: number): Promise<number> {
  const s = await serve(deps, port)
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      s.stop().then(
        () => process.exit(0),
        (e) => {
          deps.logger.error('shutdown failed', errorFacts(e))
          process.exit(1)
        },
      )
    })
  }
  return s.port
}
