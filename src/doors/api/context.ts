// What the pipeline learned about a request (id, Actor, raw body), shared with route handlers.
import type { Actor } from '../../platform/actor'
import type { ParseFailure } from './errors'

export interface RequestContext {
  requestId: string
  ip: string | null
  /** Who the request acts as, once its credential was resolved. */
  actor: Actor | null
  /** The body exactly as received, for idempotency hashing. */
  rawBody?: string
  parseFailure?: ParseFailure
}

const contexts = new WeakMap<Request, RequestContext>()

export function setContext(req: Request, ctx: RequestContext): void {
  contexts.set(req, ctx)
}

export function contextOf(req: Request): RequestContext {
  let ctx = contexts.get(req)
  if (!ctx) {
    // Requests handed straight to app.handle (tests of public routes) still get a context.
    ctx = { requestId: crypto.randomUUID(), ip: null, actor: null }
    contexts.set(req, ctx)
  }
  return ctx
}

/** The Actor of an authenticated route; the pipeline guarantees it before any handler runs. */
export function actorOf(req: Request): Actor {
  const a = contextOf(req).actor
  if (!a) throw new Error('route reached without an Actor')
  return a
}
