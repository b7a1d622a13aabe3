// buildApp(deps): the Elysia app (plugins, module routes, OpenAPI) behind the request pipeline; never listens.
import { Elysia, t, type AnyElysia } from 'elysia'
import type { Deps } from './deps'
import { InvalidRequest } from './shared/errors'
import { bodyFault } from './shared/body-fault'
import { serviceSecret } from './db/meta'
import { contextOf } from './http/context'
import { docsRoutes } from './http/docs'
import { openApiDocumentRoutes } from './http/openapi-document'
import { openApiWebhooks } from './http/openapi-webhooks'
import { API_DESCRIPTION } from './http/openapi-description'
import { errorResponse, toApiError } from './http/errors'
import { Idempotency } from './platform/idempotency'
import { Cursors } from './platform/cursors'
import { PageCache } from './platform/page-cache'
import { readBody } from './http/body'
import { createPipeline, isJsonType, pathOf, type Fetch } from './http/pipeline'
import { clientAddress, trustedProxies } from './platform/client-address'
import { isAppPath } from './doors/app/paths'
import type { AppDoor } from './doors/app'
import { publicBaseUrl } from './config'
import { setRemedyBase } from './modules/documents'
import { RequestLogWriter } from './platform/request-log'
import { openRateCount, type RateCount } from './platform/rate-count'
import type { HttpServices } from './http/route-helpers'
import { operationRoutes } from './doors/api/routes'
import { operations } from './operations'
import type { OperationContext } from './platform/operation'
import { apiKeyResolver } from './modules/business'
import { bearerLookup } from './platform/credentials'
import type { McpDoor } from './doors/mcp/server'
import { publicPageRoutes } from './doors/public/document-page'
import { isOAuthPath } from './doors/oauth/paths'
import { AddressLimit } from './doors/oauth/address-limit'
import { accessTokenLookup, ConnectionUsage, isAccessToken, issuerOf, resourcesOf } from './modules/oauth'

export interface App {
  /** The whole service as a fetch handler: pipeline first, then the routes. */
  fetch: Fetch
  elysia: Elysia<any, any, any, any, any, any, any>
  requestLog: RequestLogWriter
  /** The per-key rate count, shared by every process on the database; closed with the app. */
  rateLimiter: RateCount
  http: HttpServices
  /**
   * The MCP door (extensions §11): /mcp over HTTP, and the server `invoicing mcp` serves over stdio. Built on first
   * use: the MCP SDK costs about 18 MB of memory that a server nobody's assistant calls never needs.
   */
  mcp: () => Promise<McpDoor>
  /** Connected apps' last use, written in the background; flushed on shutdown. */
  connectionUsage: ConnectionUsage
}

const API_VERSION = '1.0.0'

/** Whether the URL's path is /mcp (the `/mcp` found at `at` starts the path and ends it, before any query). */
function isMcpPath(url: string, at: number): boolean {
  if (url.indexOf('/', url.indexOf('//') + 2) !== at) return false
  const next = url[at + 4]
  return next === undefined || next === '?' || (next === '/' && (url[at + 5] === undefined || url[at + 5] === '?'))
}

/** Every route the app answers, each operation's with the access it needs (the others are public pages). */
function knownRoutes(routes: ReadonlyArray<{ method: string; path: string }>) {
  const access = new Map(operations.map((op) => [`${op.http.method} ${op.http.path}`, op.access]))
  return routes.map((r) => ({
    method: r.method,
    path: r.path,
    access: access.get(`${r.method.toUpperCase()} ${r.path}`),
  }))
}

/** A door built on its first use and kept; one whose building failed (a busy database) is built again next time. */
function lazily<T>(build: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null
  return () =>
    (made ??= build().catch((e: unknown) => {
      made = null
      throw e
    }))
}

export async function buildApp(deps: Deps): Promise<App> {
  const http: HttpServices = {
    idempotency: new Idempotency(deps.db, deps.clock),
    cursors: new Cursors(await serviceSecret(deps.db, 'cursor_secret')),
    pages: deps.db.hot ? new PageCache(deps.db.hot.dataVersion) : null,
  }
  const requestLog = new RequestLogWriter(deps.db, deps.logger)
  const rateLimiter = openRateCount(deps.db, deps.config.rateLimit)
  const context: OperationContext = {
    deps,
    cursors: http.cursors,
    pages: http.pages,
    flushRequestLog: () => requestLog.flush(),
  }

  const elysia = new Elysia({ normalize: false })
    // JSON only, read once: the raw text is kept for idempotency hashing; failures are told apart for the error mapper.
    .onParse(async ({ request }) => {
      const ctx = contextOf(request)
      // Read within bounds: past 1 MiB or past its time the rest is never read (413 or 408, connection closed).
      const read = await readBody(request, deps.config.bodyLimits)
      if ('fault' in read) {
        ctx.parseFailure = read.fault
        throw new Error(read.fault)
      }
      const text = read.text
      if (text.length === 0) return undefined
      if (!isJsonType(request.headers.get('content-type'))) {
        ctx.parseFailure = 'not_json'
        throw new Error('not json')
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
      if (
        contextOf(request).rawBody !== undefined &&
        (body === null || typeof body !== 'object' || Array.isArray(body))
      ) {
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
          description: API_DESCRIPTION,
        },
        // Relative: the document describes the service that serves it, wherever it is reached.
        servers: [{ url: '/', description: 'this service' }],
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key' } },
        },
        security: [{ bearer: [] }],
        webhooks: openApiWebhooks,
      }),
    )
    .use(docsRoutes())
    .get('/health', () => ({ ok: true as const }), {
      response: { 200: t.Object({ ok: t.Literal(true) }, { description: 'the service answers' }) },
      detail: {
        tags: ['Service'],
        summary: 'Liveness: the service answers',
        description: 'For load balancers and monitors. Needs no credential and is not counted.',
        operationId: 'health',
        security: [],
      },
    })
    .use(operationRoutes(operations, context, http))
    .use(publicPageRoutes(deps))

  const apiKeys = apiKeyResolver(deps.db.read, deps.db.hot)
  const issuer = issuerOf(deps.config)
  const usage = new ConnectionUsage(deps.db, deps.clock, (e) =>
    deps.logger.error('connection use not recorded', { name: (e as Error)?.name }),
  )
  // A Connected app's token acts on a door only when issued for that door's resource (RFC 8707).
  const resources = resourcesOf(issuer)
  const tokensFor = {
    api: accessTokenLookup(deps.db.read, deps.db.hot, deps.clock, usage, resources.api),
    mcp: accessTokenLookup(deps.db.read, deps.db.hot, deps.clock, usage, resources.mcp),
  }
  const lookup = bearerLookup([
    { accepts: isAccessToken, resolve: (token, resource) => tokensFor[resource](token) },
    apiKeys,
  ])
  const api = createPipeline({
    handle: (req) => elysia.handle(req),
    routes: knownRoutes(elysia.routes),
    lookup: (credential) => lookup(credential, 'api'),
    rateLimiter,
    requestLog,
    clock: deps.clock,
    logger: deps.logger,
  })
  const mcp = lazily(() =>
    import('./doors/mcp/server').then((m) =>
      m.mcpDoor({
        deps,
        operations,
        context,
        lookup,
        rateCount: rateLimiter,
        idempotency: http.idempotency,
        requestLog,
      }),
    ),
  )
  // The authorization server's endpoints speak OAuth (form bodies, RFC 6749 errors), so they sit beside the API's
  // pipeline; built with the first OAuth request (its grant library is about 18 MB a server may never need).
  // Client ID Metadata Documents are fetched by the authorization endpoint and by the consent page: one count per
  // address for both, so the page is no way around the limit.
  const documentFetches = new AddressLimit(deps.clock)
  const oauthDoor = lazily(() =>
    import('./doors/oauth/server').then((m) =>
      m.oauthDoor({
        ...deps,
        allowPrivate: deps.config.webhookAllowPrivate,
        issuer,
        bodyLimits: deps.config.bodyLimits,
        documentFetches,
      }),
    ),
  )
  const oauth = async (req: Request, ip: string | null) => (await oauthDoor())(req, ip)
  setRemedyBase(publicBaseUrl(deps.config))
  // The application's pages have their own door (sessions, CSRF, HTML answers); the API pipeline never sees them.
  // Built with the first request for a page: an API-only server never loads the pages or htmx.
  const appDoor = lazily(() => import('./doors/app').then((m) => m.appDoor(deps, { context, documentFetches })))
  const application: AppDoor = async (req) => (await appDoor())(req)
  const trusted = trustedProxies(deps.config.trustedProxies)
  const fetch: Fetch = (req, server) => {
    const ip = clientAddress(server?.requestIP(req)?.address ?? null, req.headers.get('x-forwarded-for'), trusted)
    // The MCP door has its own protocol (JSON-RPC over POST); everything else but the application and OAuth goes
    // through the API pipeline.
    const at = req.url.indexOf('/mcp', req.url.indexOf('//') + 2)
    if (at > 0 && isMcpPath(req.url, at)) return mcp().then((door) => door.handle(req, ip))
    const path = pathOf(req.url)
    if (isAppPath(path)) {
      // The consent page counts the documents it fetches against this address.
      contextOf(req).ip = ip
      return application(req)
    }
    return isOAuthPath(path) ? oauth(req, ip) : api(req, ip)
  }
  return { fetch, connectionUsage: usage, elysia, requestLog, rateLimiter, http, mcp }
}
