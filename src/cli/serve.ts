// `invoicing serve`: migrate, build the app, listen, run the scheduler, shut down cleanly.
import { buildApp } from '../app'
import type { Deps } from '../deps'
import { serviceJobs } from '../jobs'
import { startScheduler } from '../jobs/scheduler'
import { MAX_BODY_BYTES } from '../http/pipeline'
import { handBackMemory } from '../shared/memory'

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
  const stop = async () => {
    if (stopped) return
    stopped = true
    scheduler.stop()
    await server.stop()
    await app.requestLog.flush()
    app.rateLimiter.close()
    deps.db.close()
  }
  return { stop, port: server.port ?? port }
}

/** Serves until SIGINT/SIGTERM, then flushes the request log and closes the database; gives the port it listens on. */
export async function serveForever(deps: Deps, port: number): Promise<number> {
  const s = await serve(deps, port)
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      void s.stop().then(() => process.exit(0))
    })
  }
  return s.port
}
