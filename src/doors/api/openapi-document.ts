// GET /openapi.json: the OpenAPI document built from the route schemas by @elysiajs/openapi's generator, then put
// right where the generator does not say what the contract says (see completeDocument).
import { toOpenAPISchema } from '@elysiajs/openapi'
import { Elysia, type AnyElysia } from 'elysia'

type Parameter = { name: string; in: string; schema?: unknown; [k: string]: unknown }
type Operation = {
  requestBody?: { content?: Record<string, unknown>; required?: boolean; description?: string }
  parameters?: Parameter[]
  responses?: Record<
    string,
    { description?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }
  >
}
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } }

/** The TypeBox Optional marker: a body that may be left out (actions such as Reverse). */
const OPTIONAL = Symbol.for('TypeBox.Optional')

/** The detail key by which a route says its body is a file of this media type (an import's text/csv), not JSON. */
export const BODY_MEDIA_TYPE = 'x-body-media-type'

/** Answers that are files, by the last segment of their path: declared with their own media type, not as JSON. */
const FILE_ANSWERS: Record<string, string> = { pdf: 'application/pdf', xml: 'application/xml' }

const header = (description: string, type: 'string' | 'integer' = 'string') => ({ description, schema: { type } })
/** Headers every answer of an authenticated path carries (401 answers carry only the request id). */
const REQUEST_ID = { 'X-Request-Id': header('identifies this request, in the request log too') }
const RATE = {
  'X-RateLimit-Limit': header('requests a key may make per minute', 'integer'),
  'X-RateLimit-Remaining': header('left in this minute, this request counted', 'integer'),
  'X-RateLimit-Reset': header('Unix seconds (UTC) when the minute ends', 'integer'),
}

/** Declares the headers the contract names on each answer of a /v1 operation. */
function declareHeaders(op: Operation, idempotent: boolean, file: boolean): void {
  for (const [status, answer] of Object.entries(op.responses ?? {})) {
    const h: Record<string, unknown> = { ...REQUEST_ID }
    if (status !== '401') Object.assign(h, RATE)
    if (status === '429') h['Retry-After'] = header('seconds to wait before the next request', 'integer')
    if (idempotent && status.startsWith('2'))
      h['Idempotent-Replayed'] = header('"true" on an answer replayed under the same Idempotency-Key')
    if (file && status === '200')
      h['Content-Disposition'] = header('attachment; filename="…" (named after the document or Receipt)')
    answer.headers = { ...answer.headers, ...h }
  }
}

/** Removes `additionalProperties: false` everywhere below a schema: the contract closes no answer object. */
function open(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(open)
  if (!schema || typeof schema !== 'object') return
  const o = schema as Record<string, unknown>
  if (o.additionalProperties === false) delete o.additionalProperties
  for (const v of Object.values(o)) open(v)
}

/**
 * What the generator gets wrong for this contract, put right, in one pass over the routes:
 * - request bodies: it writes a body's content only for named parsers, and this app parses every body with one
 *   global onParse function (JSON only, raw text kept for idempotency), so each write would publish `content: {}`;
 *   the route's own TypeBox body is put back as `application/json` (required unless the route declares it optional);
 * - answers are open objects ("the OpenAPI contract closes no object"); request bodies stay closed, since a field an
 *   endpoint does not take is refused;
 * - path ids are integers (read as strings and refused as 404 when not whole numbers);
 * - a route's declared header parameters (Idempotency-Key) are kept where the path's own parameters replaced them;
 * - file answers carry their media type, and every answer declares the headers the contract names.
 */
function completeDocument(doc: Document, routes: AnyElysia['routes']): Document {
  for (const route of routes) {
    const op = doc.paths[route.path.replace(/:([^/]+)/g, '{$1}')]?.[route.method.toLowerCase()]
    if (!op) continue
    const hooks = route.hooks as
      | { body?: Record<string | symbol, unknown>; detail?: { parameters?: Parameter[] } }
      | undefined
    const body = hooks?.body
    if (body && typeof body === 'object' && Object.keys(op.requestBody?.content ?? {}).length === 0) {
      // JSON round trip: a plain JSON Schema copy, without TypeBox's symbol markers.
      op.requestBody = {
        ...op.requestBody,
        required: body[OPTIONAL] !== 'Optional',
        content: { 'application/json': { schema: JSON.parse(JSON.stringify(body)) } },
      }
    }
    const bodyMedia = (op as Record<string, unknown>)[BODY_MEDIA_TYPE]
    if (typeof bodyMedia === 'string' && op.requestBody?.content) {
      const [schema] = Object.values(op.requestBody.content)
      op.requestBody.content = { [bodyMedia]: schema }
      delete (op as Record<string, unknown>)[BODY_MEDIA_TYPE]
    }
    if (!route.path.startsWith('/v1/')) continue
    // A 204 has no content at all (the generator writes its Void schema as a media type).
    if (op.responses?.['204']) delete op.responses['204'].content
    for (const answer of Object.values(op.responses ?? {})) open(answer.content)
    op.parameters ??= []
    for (const p of hooks?.detail?.parameters ?? [])
      if (!op.parameters.some((q) => q.name === p.name && q.in === p.in)) op.parameters.push(p)
    for (const p of op.parameters) if (p.in === 'path') p.schema = { type: 'integer', minimum: 1 }
    const media = FILE_ANSWERS[route.path.split('/').pop() ?? '']
    const ok = op.responses?.['200']
    if (media && ok) ok.content = { [media]: { schema: { type: 'string', format: 'binary' } } }
    declareHeaders(
      op,
      op.parameters.some((p) => p.name === 'Idempotency-Key'),
      media !== undefined,
    )
  }
  return doc
}

/** The document's route; it is built on first request, once every route of `app()` is registered, and kept. */
export function openApiDocumentRoutes(
  app: () => AnyElysia,
  documentation: Record<string, unknown> & { components?: Record<string, unknown> },
) {
  let kept: { routes: number; doc: Document } | null = null
  return new Elysia({ name: 'openapi-document' }).get(
    '/openapi.json',
    () => {
      const a = app()
      if (kept?.routes !== a.routes.length) {
        // A copy: the generated schemas may be the routes' own TypeBox objects, which the edits below must not touch
        // (opening a response schema shared with a request body would let unknown fields through).
        const generated = JSON.parse(
          JSON.stringify(toOpenAPISchema(a, undefined, undefined, undefined, '3.1.2')),
        ) as Document
        const doc = {
          openapi: '3.1.2',
          ...documentation,
          paths: generated.paths,
          components: { ...documentation.components, schemas: { ...generated.components?.schemas } },
        } as Document
        kept = { routes: a.routes.length, doc: completeDocument(doc, a.routes) }
      }
      return kept.doc
    },
    { detail: { hide: true } },
  )
}
