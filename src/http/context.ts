// What the pipeline learned about a request (id, credential, raw body), shared with route handlers.
import type { Credential } from '../modules/business'
import type { ParseFailure } from './errors'

export interface RequestContext {
  requestId: string
  ip: string | null
  credential: Credential | null
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
    ctx = { requestId: crypto.randomUUID(), ip: null, credential: null }
    contexts.set(req, ctx)
  }
  return ctx
}

/** The credential of an authenticated route; the pipeline guarantees it before any handler runs. */
export function credentialOf(req: Request): Credential {
  const c = contextOf(req).credential
  if (!c) throw new Error('route reached without a credential')
  return c
}
