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
import { Cursors } from './http/pagination'
import { PageCache } from './http/page-cache'
import { createPipeline, isJsonType, MAX_BODY_BYTES, pathOf, type Fetch } from './http/pipeline'
import { appDoor, isAppPath } from './doors/app'
import { RequestLogWriter } from './http/request-log'
import { requestLogRoutes } from './http/request-log.routes'
import { openRateCount, type RateCount } from './platform/rate-count'
import type { HttpServices } from './http/route-helpers'
import { credentialLookup } from './modules/business'
import { businessRoutes } from './modules/business/business.routes'
import { clientsRoutes } from './modules/clients/clients.routes'
import { productsRoutes } from './modules/products/products.routes'
import { documentsRoutes } from './modules/documents/documents.routes'
import { publicPageRoutes } from './modules/documents/public-page'
import { paymentsRoutes } from './modules/payments/payments.routes'
import { mailRoutes } from './modules/mail/mail.routes'
import { einvoiceRoutes } from './modules/einvoice/einvoice.routes'
import { reportsRoutes } from './modules/reports/reports.routes'
import { webhooksRoutes } from './modules/webhooks/webhooks.routes'
import { isOAuthPath, oauthDoor } from './doors/oauth/server'
import { connectedAppsRoutes } from './modules/oauth/connected-apps.routes'
import { accessTokenLookup, ConnectionUsage, isAccessToken, issuerOf, resourcesOf } from './modules/oauth'

export interface App {
  /** The whole service as a fetch handler: pipeline first, then the routes. */
  fetch: Fetch
  elysia: Elysia<any, any, any, any, any, any, any>
  requestLog: RequestLogWriter
  /** The per-key rate count, shared by every process on the database; closed with the app. */
  rateLimiter: RateCount
  http: HttpServices
  /** Connected apps' last use, written in the background; flushed on shutdown. */
  connectionUsage: ConnectionUsage
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

export async function buildApp(deps: Deps): Promise<App> {
  const http: HttpServices = {
    idempotency: new Idempotency(deps.db, deps.clock),
    cursors: new Cursors(await serviceSecret(deps.db, 'cursor_secret')),
    pages: deps.db.hot ? new PageCache(deps.db.hot.dataVersion) : null,
  }
  const requestLog = new RequestLogWriter(deps.db, deps.logger)
  const rateLimiter = openRateCount(deps.db, deps.config.rateLimit)

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
    .use(businessRoutes(deps, http))
    .use(clientsRoutes(deps, http))
    .use(productsRoutes(deps, http))
    .use(documentsRoutes(deps, http))
    .use(mailRoutes(deps, http))
    .use(einvoiceRoutes(deps, http))
    .use(publicPageRoutes(deps))
    .use(paymentsRoutes(deps, http))
    .use(reportsRoutes(deps, http))
    .use(webhooksRoutes({ db: deps.db, clock: deps.clock, resolve: deps.resolve, allowPrivate: deps.config.webhookAllowPrivate }, http))
    .use(connectedAppsRoutes({ db: deps.db, clock: deps.clock }, http))
    .use(requestLogRoutes({ db: deps.db, clock: deps.clock, flush: () => requestLog.flush() }, http))

  const apiKeys = credentialLookup(deps.db.read, deps.db.hot)
  const issuer = issuerOf(deps.config)
  const usage = new ConnectionUsage(deps.db, deps.clock, (e) => deps.logger.error('connection use not recorded', { name: (e as Error)?.name }))
  // A Connected app's token acts on the API only when issued for the API's resource (RFC 8707).
  const tokens = accessTokenLookup(deps.db.read, deps.db.hot, deps.clock, usage, resourcesOf(issuer).api)
  const appTokens = async (t: string) => tokens(t)
  const pipeline = createPipeline({
    handle: (req) => elysia.handle(req),
    routes: elysia.routes,
    lookup: (presented) => (isAccessToken(presented) ? appTokens(presented) : apiKeys(presented)),
    rateLimiter,
    requestLog,
    clock: deps.clock,
    logger: deps.logger,
  })
  // The authorization server's endpoints speak OAuth (form bodies, RFC 6749 errors), so they sit beside the API's pipeline.
  const oauth = oauthDoor({ ...deps, allowPrivate: deps.config.webhookAllowPrivate, issuer })
  // The application's pages have their own door (sessions, CSRF, HTML answers); the API pipeline never sees them.
  const application = await appDoor(deps)
  const fetch: Fetch = (req, server) => {
    const path = pathOf(req.url)
    return isAppPath(path) ? application(req) : isOAuthPath(path) ? oauth(req) : pipeline(req, server)
  }
  return { fetch, connectionUsage: usage, elysia, requestLog, rateLimiter, http }
}
