// The request pipeline in front of the Elysia app: request id, the credential, then the door runner's count and judges
// (plan, rate, Role: platform/door-runner.ts), the body's type and size, the routes, and the runner's log entry.
import { credentialKey, type Actor } from '../../platform/actor'
import { bearerOf } from '../../platform/credentials'
import type { DoorRunner } from '../../platform/door-runner'
import { apiPlanRefusal, type Access } from '../../platform/policy'
import { BadRequest, Unauthenticated, type ApiError } from '../../shared/errors'
import type { Clock } from '../../shared/clock'
import type { Logger } from '../../shared/logger'
import { setContext, type RequestContext } from '../../platform/request-context'
import { bodyReadError, errorResponse } from './errors'
import { MAX_BODY_BYTES } from '../../platform/request-body'
import type { RateCount, RateDecision } from '../../platform/rate-count'

export { MAX_BODY_BYTES }

/** Bodies are JSON only; the pipeline (by header) and the body parser (for bodies it did not see announced) ask this. */
export function isJsonType(contentType: string | null): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '')
}

/** Whether a Content-Type header names `media` (parameters such as charset aside). */
export function isMediaType(contentType: string | null, media: string): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === media
}

/** A route as the pipeline sees it: its method and path, and the access its operation needs (none: a public page). */
export interface KnownRoute {
  method: string
  path: string
  access?: Access
  /** The route takes a file rather than JSON (an import's CSV): its media type and size limit. */
  upload?: RequestContext['upload']
}

interface RoutePattern {
  re: RegExp
  /** Each method the path answers, with the access its operation needs. */
  methods: Map<string, Access | undefined>
  /** No operation lives here: the document, /docs, /health, a document's public page. */
  public: boolean
  /** The methods whose body is a file, with its media type and size limit. */
  uploads: Map<string, NonNullable<RequestContext['upload']>>
}

/** Builds the table of known paths (Elysia's `:param` syntax), the methods each answers and what each needs. */
function routeTable(routes: ReadonlyArray<KnownRoute>): RoutePattern[] {
  const byPath = new Map<string, Map<string, Access | undefined>>()
  const uploads = new Map<string, Map<string, NonNullable<RequestContext['upload']>>>()
  for (const r of routes) {
    const methods = byPath.get(r.path) ?? new Map<string, Access | undefined>()
    methods.set(r.method.toUpperCase(), r.access)
    byPath.set(r.path, methods)
    if (r.upload) uploads.set(r.path, (uploads.get(r.path) ?? new Map()).set(r.method.toUpperCase(), r.upload))
  }
  return [...byPath].map(([path, methods]) => {
    const re = new RegExp(
      '^' +
        path
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\/:[^/]+/g, '/[^/]+')
          .replace(/\*$/, '.*') +
        '/?$',
    )
    // A /v1 route outside the table of operations fails closed: Admin keys only.
    if (path.startsWith('/v1/')) for (const [m, a] of methods) if (a === undefined) methods.set(m, 'admin')
    return {
      re,
      methods,
      public: [...methods.values()].every((a) => a === undefined),
      uploads: uploads.get(path) ?? new Map(),
    }
  })
}

export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const q = url.indexOf('?', start)
  return q < 0 ? url.slice(start) : url.slice(start, q)
}

/**
 * The path as Elysia's router reads it: from the first "/" at or after the URL's 12th character, which takes
 * `http://` and a host of at least four characters for granted. With `Host: x` it read `/v1/v1/business` as
 * `/v1/business` and reached a handler the pipeline had taken for an unknown path (no credential, no count, no log).
 */
function routerPathOf(url: string): string {
  const s = url.indexOf('/', 11)
  const q = url.indexOf('?', s + 1)
  return q === -1 ? url.substring(s) : url.substring(s, q)
}

/** The request as the app must see it: the same path the pipeline read, whatever the Host was. */
function sameReading(req: Request, path: string, ctx: RequestContext): Request {
  if (routerPathOf(req.url) === path) return req
  const start = req.url.indexOf('/', req.url.indexOf('//') + 2)
  const rebased = new Request(`http://localhost${start < 0 ? '/' : req.url.slice(start)}`, req)
  setContext(rebased, ctx)
  return rebased
}

function setHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v)
    return res
  } catch {
    // Some responses carry immutable headers; copy them into a fresh one.
    const copy = new Response(res.body, res)
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v)
    return copy
  }
}

export interface PipelineDeps {
  handle: (req: Request) => Promise<Response>
  routes: ReadonlyArray<KnownRoute>
  lookup: (key: string) => Promise<Actor | null>
  /** Counts, judges and logs each call of a live credential. */
  runner: DoorRunner
  /** Peeked for the rate headers of an answer that is not counted (an unknown path). */
  rateLimiter: RateCount
  clock: Clock
  logger: Logger
}

export type Fetch = (
  req: Request,
  server?: { requestIP(req: Request): { address: string } | null },
) => Promise<Response>

/** The API pipeline: a request and the client's address (src/platform/client-address.ts). */
export function createPipeline(p: PipelineDeps): (req: Request, ip: string | null) => Promise<Response> {
  const table = routeTable(p.routes)

  return async function pipeline(req, ip) {
    const requestId = crypto.randomUUID()
    const ctx: RequestContext = { requestId, ip, actor: null }
    setContext(req, ctx)
    // The path is read once, here, and the app is handed a request it reads the same way.
    const path = pathOf(req.url)
    const appReq = sameReading(req, path, ctx)
    const method = req.method.toUpperCase()
    // No answer of the API is kept by a cache on the way or read as another type than it says.
    const base: Record<string, string> = { 'X-Request-Id': requestId, 'X-Content-Type-Options': 'nosniff' }

    const route = table.find((r) => r.re.test(path))
    // Unknown paths answer 404 and are not counted; a live key still gets its rate headers, as on every answer.
    if (!route) {
      const key = bearerOf(req)
      const credential = key ? await p.lookup(key) : null
      return setHeaders(
        await p.handle(appReq),
        credential
          ? { ...base, ...rateHeaders(await p.rateLimiter.peek(credentialKey(credential), p.clock.now().getTime())) }
          : base,
      )
    }
    const notAllowed = route.methods.has(method) ? null : methodNotAllowed(method, route)
    if (route.public) return notAllowed ? errorResponse(notAllowed, base) : setHeaders(await p.handle(appReq), base)

    const key = bearerOf(req)
    const credential = key ? await p.lookup(key) : null
    if (!credential) return errorResponse(new Unauthenticated(), { ...base, 'Cache-Control': 'no-store' })
    ctx.actor = credential
    ctx.upload = route.uploads.get(method)

    // A known path with a method it lacks is still a request of a live key: counted, gated and logged like any other.
    const access: Access = route.methods.get(method) ?? 'read'
    const { rate, refused } = await p.runner.admit(credential, access, apiPlanRefusal(credential), notAllowed)
    const headers = { ...base, 'Cache-Control': 'no-store', ...rateHeaders(rate) }
    let res: Response
    const refusal = refused ?? bodyRefusal(req, access, ctx.upload)
    if (refusal) res = errorResponse(refusal, headers)
    else {
      try {
        res = setHeaders(await p.handle(appReq), headers)
      } catch (e) {
        p.logger.error('request failed outside the app', { name: (e as Error)?.name })
        res = errorResponse(new BadRequest(400, 'The request cannot be read.'), headers)
      }
    }
    p.runner.log(credential, { requestId, method, path, status: res.status, ip })
    return res
  }
}

function rateHeaders(rate: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.reset),
  }
}

/** 405 names the methods the path does answer, so the caller can correct the request. */
function methodNotAllowed(method: string, route: RoutePattern): ApiError {
  const allow = [...route.methods.keys()].sort().join(', ')
  return new BadRequest(405, `${method} is not allowed here; this path answers ${allow}.`, { Allow: allow })
}

/**
 * A changing request's body, judged by its headers before a byte of it is read: JSON of no more than 1 MiB, or the
 * file a route takes (an import's text/csv, at most its own limit).
 */
function bodyRefusal(req: Request, access: Access, upload?: RequestContext['upload']): ApiError | null {
  if (access === 'read') return null
  const len = req.headers.get('content-length')
  const hasBody = (len !== null && len !== '0') || req.headers.has('transfer-encoding')
  if (!hasBody) return null
  const type = req.headers.get('content-type') ?? ''
  if (upload ? !isMediaType(type, upload.mediaType) : !isJsonType(type))
    return new BadRequest(415, `Send the body as ${upload?.mediaType ?? 'application/json'}.`)
  // Refused before a byte of it is read (Bun drops the rest as it comes, up to its served cap).
  if (len !== null && Number(len) > (upload?.maxBytes ?? MAX_BODY_BYTES))
    return bodyReadError('too_large', upload?.limitWords)
  return null
}
