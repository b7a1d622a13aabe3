// The API door (/v1, the OpenAPI document, /docs, /health): the Elysia app built from the table of operations behind
// the request pipeline. Each operation's call is counted, judged, run and logged by the door runner.
import { Elysia, type AnyElysia } from 'elysia'
import type { Deps } from '../../deps'
import { InvalidRequest } from '../../shared/errors'
import { bodyFault } from '../../shared/body-fault'
import { contextOf } from '../../platform/request-context'
import type { Actor } from '../../platform/actor'
import type { DoorRunner } from '../../platform/door-runner'
import type { Operation } from '../../platform/operation'
import type { RateCount } from '../../platform/rate-count'
import { docsRoutes } from './docs'
import { openApiDocumentRoutes } from './openapi-document'
import { openApiWebhooks } from './openapi-webhooks'
import { API_DESCRIPTION } from './openapi-description'
import { errorResponse, toApiError } from './errors'
import { readBody } from '../../platform/request-body'
import { createPipeline, isJsonType, isMediaType } from './pipeline'
import { operationRoutes } from './routes'
import { HEALTH_ANSWER, healthy } from './health'

const API_VERSION = '1.0.0'

export interface ApiDoorDeps {
  deps: Deps
  operations: readonly Operation[]
  runner: DoorRunner
  /** The Actor an API credential stands for (none, unknown or ended: null). */
  lookup: (credential: string) => Promise<Actor | null>
  rateCount: RateCount
  /** Other routes served behind the same pipeline as public pages (a document's page for its Client). */
  publicPages: AnyElysia
}

export interface ApiDoor {
  elysia: Elysia<any, any, any, any, any, any, any>
  handle: (req: Request, ip: string | null) => Promise<Response>
}

/** Every route the app answers, each operation's with the access it needs (the others are public pages). */
function knownRoutes(operations: readonly Operation[], routes: ReadonlyArray<{ method: string; path: string }>) {
  const byRoute = new Map(operations.map((op) => [`${op.http.method} ${op.http.path}`, op]))
  return routes.map((r) => {
    const op = byRoute.get(`${r.method.toUpperCase()} ${r.path}`)
    return { method: r.method, path: r.path, access: op?.access, upload: op?.upload }
  })
}

export function apiDoor({ deps, operations, runner, lookup, rateCount, publicPages }: ApiDoorDeps): ApiDoor {
  const elysia = new Elysia({ normalize: false })
    // JSON only, read once: the raw text is kept for idempotency hashing; failures are told apart for the error mapper.
    .onParse(async ({ request }) => {
      const ctx = contextOf(request)
      const upload = ctx.upload
      // Read within bounds: past 1 MiB or past its time the rest is never read (413 or 408, connection closed).
      const read = await readBody(request, { ...deps.config.bodyLimits, maxBytes: upload?.maxBytes })
      if ('fault' in read) {
        ctx.parseFailure = read.fault
        throw new Error(read.fault)
      }
      const text = read.text
      // A route that takes a file (an import's CSV) gets its text as the body, empty included.
      if (upload) {
        if (!isMediaType(request.headers.get('content-type'), upload.mediaType)) {
          ctx.parseFailure = 'not_json'
          throw new Error('not the upload type')
        }
        ctx.rawBody = text
        return text
      }
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
        !contextOf(request).upload &&
        (body === null || typeof body !== 'object' || Array.isArray(body))
      ) {
        throw new InvalidRequest({ body: ['must be a JSON object'] })
      }
      // A file's text (an import's CSV) is judged row by row, each fault under its row and field.
      const fault = contextOf(request).upload ? null : bodyFault(body)
      if (fault !== null) throw new InvalidRequest({ [fault.at]: [fault.message] })
    })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      const ctx = contextOf(request)
      const err = toApiError(code, error, deps.logger, ctx.parseFailure, ctx.upload)
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
    // GET is answered by app.ts without building this door (the route declares it in the document, and answers 405
    // to other methods); its answer is declared for the document only, as a declared `response` has Elysia compile a
    // validator of it.
    .get('/health', healthy, {
      detail: {
        tags: ['Service'],
        summary: 'Liveness: the service answers',
        description: 'For load balancers and monitors. Needs no credential and is not counted.',
        operationId: 'health',
        security: [],
        responses: {
          200: { description: 'the service answers', content: { 'application/json': { schema: HEALTH_ANSWER } } },
        },
      },
    })
    .use(operationRoutes(operations, runner))
    .use(publicPages)

  const handle = createPipeline({
    handle: (req) => elysia.handle(req),
    routes: knownRoutes(operations, elysia.routes),
    lookup,
    runner,
    rateLimiter: rateCount,
    clock: deps.clock,
    logger: deps.logger,
  })
  return { elysia, handle }
}
