// GET /openapi.json: the OpenAPI document built from the route schemas by @elysiajs/openapi's generator, completed
// with the request bodies it leaves out.
//
// The generator writes a request body's content only for named body parsers; this app parses every body with one
// global onParse function (JSON only, raw text kept for idempotency), so it would publish `content: {}` for every
// write and integrators would see no request field, required list, limit or enum. Each route's own TypeBox body
// schema is put back here as `application/json`.
import { toOpenAPISchema } from '@elysiajs/openapi'
import { Elysia, type AnyElysia } from 'elysia'

type Operation = { requestBody?: { content?: Record<string, unknown>; required?: boolean; description?: string } }
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } }

/** The TypeBox Optional marker: a body that may be left out (actions such as Reverse). */
const OPTIONAL = Symbol.for('TypeBox.Optional')

/** Fills in each write's request body from the route's schema; a body the route declares optional is not required. */
export function withRequestBodies(doc: Document, routes: AnyElysia['routes']): Document {
  for (const route of routes) {
    const body = (route.hooks as { body?: Record<string | symbol, unknown> } | undefined)?.body
    if (!body || typeof body !== 'object') continue
    const op = doc.paths[route.path.replace(/:([^/]+)/g, '{$1}')]?.[route.method.toLowerCase()]
    if (!op) continue
    const content = op.requestBody?.content
    if (content && Object.keys(content).length > 0) continue
    // JSON round trip: a plain JSON Schema copy, without TypeBox's symbol markers.
    const schema = JSON.parse(JSON.stringify(body)) as unknown
    op.requestBody = { ...op.requestBody, required: body[OPTIONAL] !== 'Optional', content: { 'application/json': { schema } } }
  }
  return doc
}

/** The document's route; it is built on first request, once every route of `app()` is registered, and kept. */
export function openApiDocumentRoutes(app: () => AnyElysia, documentation: Record<string, unknown> & { components?: Record<string, unknown> }) {
  let kept: { routes: number; doc: Document } | null = null
  return new Elysia({ name: 'openapi-document' }).get(
    '/openapi.json',
    () => {
      const a = app()
      if (kept?.routes !== a.routes.length) {
        const generated = toOpenAPISchema(a, undefined, undefined, undefined, '3.1.2') as unknown as Document
        const doc = {
          openapi: '3.1.2',
          ...documentation,
          paths: generated.paths,
          components: { ...documentation.components, schemas: { ...generated.components?.schemas } },
        } as Document
        kept = { routes: a.routes.length, doc: withRequestBodies(doc, a.routes) }
      }
      return kept.doc
    },
    { detail: { hide: true } },
  )
}
