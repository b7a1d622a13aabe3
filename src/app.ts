// buildApp(deps): the service's doors behind one fetch handler, and what they share (the door runner, credentials,
// the request log, the rate count); never listens. Each door is its own module; this file is the list of them.
import type { Elysia } from 'elysia'
import type { Deps } from './deps'
import { serviceSecret } from './db/meta'
import { Idempotency } from './platform/idempotency'
import { Cursors } from './platform/cursors'
import { PageCache } from './platform/page-cache'
import { DoorRunner } from './platform/door-runner'
import { clientAddress, trustedProxies } from './platform/client-address'
import { RequestLogWriter } from './platform/request-log'
import { openRateCount, type RateCount } from './platform/rate-count'
import { bearerLookup } from './platform/credentials'
import type { OperationContext } from './platform/operation'
import { contextOf } from './platform/request-context'
import { operations } from './operations'
import { publicBaseUrl } from './config'
import { setRemedyBase } from './modules/documents'
import { apiKeyResolver } from './modules/business'
import { AddressLimit } from './doors/oauth/address-limit'
import { accessTokenLookup, ConnectionUsage, isAccessToken, issuerOf, resourcesOf } from './modules/oauth'
import { apiDoor, type ApiDoor } from './doors/api/door'
import { healthy } from './doors/api/health'
import { pathOf, type Fetch } from './doors/api/pipeline'
import type { HttpServices } from './doors/api/route-helpers'
import { mcpGate } from './doors/mcp/gate'
import type { McpDoor } from './doors/mcp/server'
import { isAppPath } from './doors/app/paths'
import type { AppDoor } from './doors/app'
import { isOAuthPath } from './doors/oauth/paths'
import { publicPageRoutes } from './doors/public/document-page'

export interface App {
  /** The whole service as a fetch handler: pipeline first, then the routes. */
  fetch: Fetch
  elysia: Elysia<any, any, any, any, any, any, any>
  requestLog: RequestLogWriter
  /** The per-key rate count, shared by every process on the database; closed with the app. */
  rateLimiter: RateCount
  http: HttpServices
  /** Counts, judges, runs and logs each operation's call for the API and MCP doors; a page calls operations through it. */
  runner: DoorRunner
  /**
   * The MCP door (extensions §11): /mcp over HTTP, and the server `invoicing mcp` serves over stdio. Built on first
   * use: the MCP SDK costs about 18 MB of memory that a server nobody's assistant calls never needs.
   */
  mcp: () => Promise<McpDoor>
  /** Connected apps' last use, written in the background; flushed on shutdown. */
  connectionUsage: ConnectionUsage
  /** What the doors keep only to answer a burst faster (cached pages, the MCP door's spare servers): let go when idle. */
  releaseIdle: () => void
}

/** Whether the URL's path is /mcp (the `/mcp` found at `at` starts the path and ends it, before any query). */
function isMcpPath(url: string, at: number): boolean {
  if (url.indexOf('/', url.indexOf('//') + 2) !== at) return false
  const next = url[at + 4]
  return next === undefined || next === '?' || (next === '/' && (url[at + 5] === undefined || url[at + 5] === '?'))
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
  // What the doors share: one request log, one rate count and one idempotency key space per credential, and the runner.
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
  const runner = new DoorRunner({
    operations,
    context,
    rateCount: rateLimiter,
    idempotency: http.idempotency,
    requestLog,
    clock: deps.clock,
  })
  setRemedyBase(publicBaseUrl(deps.config))

  // Credentials: API keys and Connected apps' access tokens, each token acting only on the door it was issued for
  // (RFC 8707).
  const issuer = issuerOf(deps.config)
  const usage = new ConnectionUsage(deps.db, deps.clock, (e) =>
    deps.logger.error('connection use not recorded', { name: (e as Error)?.name }),
  )
  const resources = resourcesOf(issuer)
  const tokensFor = {
    api: accessTokenLookup(deps.db.read, deps.db.hot, deps.clock, usage, resources.api),
    mcp: accessTokenLookup(deps.db.read, deps.db.hot, deps.clock, usage, resources.mcp),
  }
  const lookup = bearerLookup([
    { accepts: isAccessToken, resolve: (token, resource) => tokensFor[resource](token) },
    apiKeyResolver(deps.db.read, deps.db.hot),
  ])
  // Client ID Metadata Documents are fetched by the authorization endpoint and by the consent page: one count per
  // address for both, so the page is no way around the limit.
  const documentFetches = new AddressLimit(deps.clock)

  // The doors, each built with its first request: a server that only answers the API never loads the MCP SDK (about
  // 18 MB), the OAuth grant library (about 18 MB), or the pages and htmx; and building the API door (its router, the
  // OpenAPI document, the pipeline) is 10-15 ms a server's start need not wait for (GET /health is answered without it).
  let built: ApiDoor | null = null
  const api = (): ApiDoor =>
    (built ??= apiDoor({
      deps,
      operations,
      runner,
      lookup: (credential) => lookup(credential, 'api'),
      rateCount: rateLimiter,
      publicPages: publicPageRoutes(deps),
    }))
  // What /mcp refuses (origin, credential, method, body size) is answered before the SDK is loaded.
  const mcpGated = mcpGate(deps, lookup)
  let mcpBuilt: McpDoor | null = null
  const mcp = lazily(() =>
    import('./doors/mcp/server').then((m) => (mcpBuilt = m.mcpDoor({ deps, operations, lookup, runner }))),
  )
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
  const appDoor = lazily(() => import('./doors/app').then((m) => m.appDoor(deps, { context, documentFetches })))
  const application: AppDoor = async (req) => (await appDoor())(req)

  const trusted = trustedProxies(deps.config.trustedProxies)
  const fetch: Fetch = (req, server) => {
    const ip = clientAddress(server?.requestIP(req)?.address ?? null, req.headers.get('x-forwarded-for'), trusted)
    const at = req.url.indexOf('/mcp', req.url.indexOf('//') + 2)
    if (at > 0 && isMcpPath(req.url, at))
      return mcpGated(req).then((gated) =>
        gated instanceof Response ? gated : mcp().then((door) => door.handle(req, gated, ip)),
      )
    const path = pathOf(req.url)
    if (path === '/health' && req.method === 'GET') return Promise.resolve(healthy())
    if (isAppPath(path)) {
      // The consent page counts the documents it fetches against this address.
      contextOf(req).ip = ip
      return application(req)
    }
    if (isOAuthPath(path)) return oauthDoor().then((door) => door(req, ip))
    return api().handle(req, ip)
  }
  return {
    fetch,
    connectionUsage: usage,
    get elysia() {
      return api().elysia
    },
    requestLog,
    rateLimiter,
    http,
    runner,
    mcp,
    releaseIdle() {
      http.pages?.clear()
      mcpBuilt?.releaseIdle()
    },
  }
}
