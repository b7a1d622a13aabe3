// The published OpenAPI document and the browsable reference: public, complete, and served without any CDN.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { operations } from '../../operations'

let h: Harness
let doc: any

beforeAll(async () => {
  h = await makeHarness()
  const r = await h.request('GET', '/openapi.json')
  doc = r.body
})
afterAll(() => h.close())

/** Every /v1 route the app serves, as OpenAPI path and lower-case method. */
function v1Routes(): Array<{ path: string; method: string }> {
  return h.app.elysia.routes
    .filter((r: { path: string }) => r.path.startsWith('/v1/'))
    .map((r: { path: string; method: string }) => ({
      path: r.path.replace(/:([^/]+)/g, '{$1}'),
      method: r.method.toLowerCase(),
    }))
}

describe('GET /openapi.json', () => {
  test('answers the OpenAPI document as JSON without any credential', async () => {
    const r = await h.request('GET', '/openapi.json')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toContain('application/json')
    expect(r.body.openapi).toMatch(/^3\.\d+\.\d+$/)
    expect(r.body.info.version).toBeString()
    expect(r.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  test('needs no key: a key sent with it, even an unknown one, is ignored', async () => {
    const r = await h.request('GET', '/openapi.json', { key: 'inv_nonsense' })
    expect(r.status).toBe(200)
  })

  test('lists every /v1 route the service answers, with its method', () => {
    const routes = v1Routes()
    expect(routes.length).toBeGreaterThanOrEqual(7)
    for (const { path, method } of routes) {
      expect(doc.paths[path], `${path} missing`).toBeDefined()
      expect(doc.paths[path][method], `${method.toUpperCase()} ${path} missing`).toBeDefined()
    }
  })

  test('every /v1 operation declares its 401, 403 and 429 answers with the error shape', () => {
    for (const { path, method } of v1Routes()) {
      const op = doc.paths[path][method]
      for (const status of ['401', '403', '429']) {
        const answer = op.responses?.[status]
        expect(answer, `${method.toUpperCase()} ${path} does not declare ${status}`).toBeDefined()
        const schema = answer.content['application/json'].schema
        expect(schema.properties.error.required).toEqual(expect.arrayContaining(['type', 'message']))
      }
    }
  })

  test("every operation that takes a body publishes it as application/json with the route's own fields and rules", () => {
    // An import's body is its CSV file (extensions §19), published as text/csv below; every other body is JSON.
    const files = new Set(operations.filter((op) => op.upload).map((op) => `${op.http.method} ${op.http.path}`))
    const writes = h.app.elysia.routes.filter(
      (r: { path: string; method: string; hooks?: { body?: unknown } }) =>
        r.path.startsWith('/v1/') && r.hooks?.body && !files.has(`${r.method} ${r.path}`),
    )
    expect(writes.length).toBeGreaterThanOrEqual(10)
    for (const route of files) {
      const [method, path] = route.split(' ')
      const op = doc.paths[path!][method!.toLowerCase()]
      expect(Object.keys(op.requestBody.content)).toEqual(['text/csv'])
      expect(op.requestBody.content['text/csv'].schema.type).toBe('string')
    }
    for (const r of writes as Array<{ path: string; method: string }>) {
      const op = doc.paths[r.path.replace(/:([^/]+)/g, '{$1}')][r.method.toLowerCase()]
      const schema = op.requestBody?.content?.['application/json']?.schema
      expect(schema, `${r.method} ${r.path} publishes no JSON body`).toBeDefined()
      expect(schema.type).toBe('object')
    }
    const create = doc.paths['/v1/clients'].post.requestBody
    expect(create.required).toBe(true)
    expect(create.content['application/json'].schema.required).toEqual(expect.arrayContaining(['email', 'country']))
    expect(create.content['application/json'].schema.properties.email.maxLength).toBe(255)
    // Values sent in requests keep their enums (Versioning).
    const type = doc.paths['/v1/products'].post.requestBody.content['application/json'].schema.properties.type
    expect(type.anyOf.map((s: { const: string }) => s.const).sort()).toEqual(['product', 'service'])
  })

  test('no answer object is closed (the contract closes none), while request bodies stay closed', () => {
    const closed: string[] = []
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`))
      if (!node || typeof node !== 'object') return
      const o = node as Record<string, unknown>
      if (o.additionalProperties === false) closed.push(where)
      for (const [k, v] of Object.entries(o)) walk(v, `${where}/${k}`)
    }
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) walk(op.responses, `${method} ${path}`)
    }
    expect(closed).toEqual([])
    expect(doc.paths['/v1/clients'].post.requestBody.content['application/json'].schema.additionalProperties).toBe(
      false,
    )
  })

  test('path ids are integers; Reverse and Convert declare Idempotency-Key; PDFs and XML are declared as files', () => {
    const reverse = doc.paths['/v1/payments/{id}/reverse'].post
    expect(reverse.parameters.find((p: any) => p.in === 'path').schema).toEqual({ type: 'integer', minimum: 1 })
    for (const op of [reverse, doc.paths['/v1/documents/{id}/convert'].post]) {
      expect(op.parameters.map((p: any) => p.name)).toContain('Idempotency-Key')
    }
    expect(Object.keys(doc.paths['/v1/documents/{id}/pdf'].get.responses['200'].content)).toEqual(['application/pdf'])
    expect(Object.keys(doc.paths['/v1/receipts/{id}/pdf'].get.responses['200'].content)).toEqual(['application/pdf'])
    expect(Object.keys(doc.paths['/v1/documents/{id}/xml'].get.responses['200'].content)).toEqual(['application/xml'])
  })

  test('answers declare the headers the contract names: request id and rate limit everywhere, Retry-After on 429, Idempotent-Replayed on creates, Content-Disposition on files', () => {
    const create = doc.paths['/v1/clients'].post.responses
    expect(Object.keys(create['201'].headers)).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Idempotent-Replayed',
      ]),
    )
    expect(Object.keys(create['429'].headers)).toContain('Retry-After')
    expect(Object.keys(create['401'].headers)).toEqual(['X-Request-Id'])
    expect(Object.keys(doc.paths['/v1/clients/{client}'].get.responses['200'].headers)).not.toContain(
      'Idempotent-Replayed',
    )
    expect(Object.keys(doc.paths['/v1/receipts/{id}/pdf'].get.responses['200'].headers)).toContain(
      'Content-Disposition',
    )
  })

  test('the Client operations declare the answers the contract gives them', () => {
    expect(Object.keys(doc.paths['/v1/clients'].post.responses)).toEqual(expect.arrayContaining(['201', '422']))
    expect(Object.keys(doc.paths['/v1/clients/{client}'].get.responses)).toEqual(expect.arrayContaining(['200', '404']))
    expect(Object.keys(doc.paths['/v1/clients/{client}'].patch.responses)).toEqual(
      expect.arrayContaining(['200', '404', '422']),
    )
    expect(Object.keys(doc.paths['/v1/clients'].get.responses)).toEqual(expect.arrayContaining(['200', '422']))
    const params = doc.paths['/v1/clients'].post.parameters ?? []
    expect(params.map((p: { name: string }) => p.name)).toContain('Idempotency-Key')
  })

  test('a Client address is published as at most 1,000 characters and its notes as at most 10,000, on create and update', () => {
    for (const [path, method] of [
      ['/v1/clients', 'post'],
      ['/v1/clients/{client}', 'patch'],
    ] as const) {
      const props = doc.paths[path][method].requestBody.content['application/json'].schema.properties
      const max = (p: any) => p.maxLength ?? p.anyOf?.find((o: any) => o.type === 'string')?.maxLength
      expect(max(props.address)).toBe(1000)
      expect(max(props.notes)).toBe(10000)
    }
  })

  // Issue 13 asks for /health to be declared (monitors read it); the other public pages stay out.
  test('the public pages are not part of the /v1 document, but /health is declared, needing no credential', () => {
    expect(doc.paths['/health'].get.security).toEqual([])
    expect(doc.paths['/docs']).toBeUndefined()
  })
})

describe('GET /docs', () => {
  test('is an HTML page whose scripts all load from the service itself', async () => {
    const r = await h.request('GET', '/docs')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toContain('text/html')
    const srcs = [...r.text.matchAll(/<script[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!)
    expect(srcs.length).toBeGreaterThan(0)
    for (const src of srcs) {
      expect(src).not.toMatch(/^(https?:)?\/\//i)
      expect(src.startsWith('/')).toBe(true)
    }
    expect(r.text).not.toMatch(/<(script|link)[^>]+(src|href)\s*=\s*["'](https?:)?\/\//i)
    // The reference is started by a script of its own (no inline script under the CSP), reading /openapi.json.
    const start = await (await h.app.fetch(new Request('http://localhost/docs/assets/start.js'))).text()
    expect(start).toContain('/openapi.json')
    expect(start).toContain("proxyUrl: ''")
  })

  test('every script the page names is served: /docs/assets/scalar.js answers 200 JavaScript', async () => {
    const page = await h.request('GET', '/docs')
    const srcs = [...page.text.matchAll(/<script[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!)
    expect(srcs).toContain('/docs/assets/scalar.js')
    for (const src of srcs) {
      const res = await h.app.fetch(new Request(`http://localhost${src}`))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/)
      const js = await res.text()
      expect(js.length).toBeGreaterThan(src.endsWith('/scalar.js') ? 1000 : 10)
    }
  })

  test('the page carries a Content-Security-Policy that lets it load from and send to this service alone', async () => {
    const r = await h.request('GET', '/docs')
    const csp = r.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-eval')
    // No inline script: the CSP needs no hash or 'unsafe-inline' for scripts.
    expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i)
  })
})
