// What a door learned about a request (id, Actor, raw body), shared with its handlers and with the access log of
// `serve` (which names who asked): platform, so the CLI reads it without reaching into a door.
import type { Actor } from './actor'

/** Why a body was not read as JSON: past its size or time, not JSON by its type, or not parsable. */
export type ParseFailure = 'too_large' | 'timeout' | 'not_json' | 'malformed'

export interface RequestContext {
  requestId: string
  ip: string | null
  /** Who the request acts as, once its credential was resolved. */
  actor: Actor | null
  /** The body exactly as received, for idempotency hashing. */
  rawBody?: string
  parseFailure?: ParseFailure
  /** The route takes a file rather than JSON (an import's CSV): its media type and size limit. */
  upload?: { mediaType: string; maxBytes: number; limitWords: string }
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
