// buildApp(deps): the Elysia app (plugins, module routes, OpenAPI) behind the request pipeline; never listens.
import { Elysia, type AnyElysia } from 'elysia'
import type { Deps } from './deps'
import { InvalidRequest } from './shared/errors'
import { serviceSecret } from './db/meta'
import { contextOf } from './http/context'
import { docsRoutes } from './http/docs'
import { openApiDocumentRoutes } from './http/openapi-document'
import { openApiWebhooks } from './http/openapi-webhooks'
import { errorResponse, toApiError } from './http/errors'
import { Idempotency } from './http/idempotency'
import { Cursors } from './platform/cursors'
import { PageCache } from './platform/page-cache'
import { createPipeline, isJsonType, MAX_BODY_BYTES, type Fetch } from './http/pipeline'
import { RequestLogWriter } from './platform/request-log'
import { openRateCount, type RateCount } from './platform/rate-count'
import type { HttpServices } from './http/route-helpers'
import { operationRoutes } from './doors/api/routes'
import { operations } from './operations'
import type { OperationContext } from './platform/operation'
import { credentialLookup } from './modules/business'
import { publicPageRoutes } from './modules/documents/public-page'

export interface App {
  /** The whole service as a fetch handler: pipeline first, then the routes. */
  fetch: Fetch
  elysia: Elysia<any, any, any, any, any, any, any>
  requestLog: RequestLogWriter
  /** The per-key rate count, shared by every process on the database; closed with the app. */
  rateLimiter: RateCount
  http: HttpServices
}

export const API_VERSION = '1.0.0'

/** Deeper nesting than any body of this API has (a Line's fields sit three levels down) is refused, not walked. */
const MAX_BODY_DEPTH = 32

/**
 * The field path (`lines.0.description`) of the first string holding U+0000, `"body"` for a body nested deeper than
 * any this API takes, or null. Walked with its own stack: a 100 KB body of nested arrays must not exhaust the call
 * stack (that was a 500).
 */
function bodyFault(body: unknown): { at: string; message: string } | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }]
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { at: path || 'body', message: 'must not contain the NUL character' }
      continue
    }
    if (!value || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH) return { at: 'body', message: `is nested more than ${MAX_BODY_DEPTH} levels deep` }
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value)
    // Pushed in reverse so the first field is looked at first, as the request wrote them.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i]!
      stack.push({ value: v, path: path ? `${path}.${k}` : k, depth: depth + 1 })
    }
  }
  return null
}

/** Every route the app answers, each operation's with the access it needs (the others are public pages). */
function knownRoutes(routes: ReadonlyArray<{ method: string; path: string }>) {
  const access = new Map(operations.map((op) => [`${op.http.method} ${op.http.path}`, op.access]))
  return routes.map((r) => ({ method: r.method, path: r.path, access: access.get(`${r.method.toUpperCase()} ${r.path}`) }))
}

export async function buildApp(deps: Deps): Promise<App> {
  const http: HttpServices = {
    idempotency: new Idempotency(deps.db, deps.clock),
    cursors: new Cursors(await serviceSecret(deps.db, 'cursor_secret')),
    pages: deps.db.hot ? new PageCache(deps.db.hot.dataVersion) : null,
  }
  const requestLog = new RequestLogWriter(deps.db, deps.logger)
  const rateLimiter = openRateCount(deps.db, deps.config.rateLimit)
  const context: OperationContext = { deps, cursors: http.cursors, pages: http.pages, flushRequestLog: () => requestLog.flush() }

  const elysia = new Elysia({ normalize: false })
    // JSON only, read once: the raw text is kept for idempotency hashing; failures are told apart for the error mapper.
    .onParse(async ({ request }) => {
      const ctx = contextOf(request)
      const text = await request.text()
      if (text.length === 0) return undefined
      if (!isJsonType(request.headers.get('content-type'))) {
        ctx.parseFailure = 'not_json'
        throw new Error('not json')
      }
      if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
        ctx.parseFailure = 'too_large'
        throw new Error('too large')
      }
      ctx.rawBody = text
      try {
        return JSON.parse(text)
      } catch {
        ctx.parseFailure = 'malformed'
        throw new Error('malformed')
      }
    })
    // Every body of this API is a JSON object: a bare string, number, null or array is refused before any route reads
    // it (an optional body is otherwise not validated unless it is an object). A NUL character cuts text short in
    // SQLite's C strings; refuse it before any field is judged or stored.
    .onTransform({ as: 'global' }, ({ body, request }) => {
      if (contextOf(request).rawBody !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
        throw new InvalidRequest({ body: ['must be a JSON object'] })
      }
      const fault = bodyFault(body)
      if (fault !== null) throw new InvalidRequest({ [fault.at]: [fault.message] })
    })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      const err = toApiError(code, error, deps.logger, contextOf(request).parseFailure)
      return errorResponse(err)
    })
    .use(
      openApiDocumentRoutes((): AnyElysia => elysia, {
        info: {
          title: 'invoicing API',
          version: API_VERSION,
          description: 'Self-hosted multi-tenant invoicing: Clients, Products, documents, Payments and Receipts, reports, webhooks.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key' } },
        },
        security: [{ bearer: [] }],
        webhooks: openApiWebhooks,
      }),
    )
    .use(docsRoutes())
    .get('/health', () => ({ ok: true }), { detail: { hide: true } })
    .use(operationRoutes(operations, context, http))
    .use(publicPageRoutes(deps))

  const fetch = createPipeline({
    handle: (req) => elysia.handle(req),
    routes: knownRoutes(elysia.routes),
    lookup: credentialLookup(deps.db.read, deps.db.hot),
    rateLimiter,
    requestLog,
    clock: deps.clock,
    logger: deps.logger,
  })
  return { fetch, elysia, requestLog, rateLimiter, http }
}
