// Test harness: a real temp-file database per test file, a fixed clock, a fake VIES, and every JSON answer
// checked against the service's own OpenAPI document (an undeclared field fails the test).
import { afterAll, beforeAll, beforeEach, expect } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { buildApp, type App } from '../src/app'
import { loadConfig, type Config } from '../src/config'
import { createDeps, type Deps, type DepsOverrides } from '../src/deps'
import { FakeVies } from '../src/adapters/vies'
import { FixedClock } from '../src/shared/clock'
import { seedStandingRates } from './fx-rates'
import { silentLogger } from '../src/shared/logger'
import { createApiKey, createBusiness, addBankAccount, type BusinessInput, type KeyRole } from '../src/modules/business'

export interface TestResponse {
  status: number
  headers: Headers
  text: string
  body: any
}

export interface RequestOptions {
  key?: string | null
  body?: unknown
  /** Sent as is, for malformed-body tests. */
  raw?: string
  headers?: Record<string, string>
}

export interface Harness {
  deps: Deps
  app: App
  clock: FixedClock
  vies: FakeVies
  dir: string
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>
  /** A Business with an Admin key (default plan pro). */
  business(input?: Partial<BusinessInput>): Promise<{ id: number; publicId: string; key: string }>
  key(businessId: number, role: KeyRole, name?: string): Promise<string>
  bankAccount(businessId: number, name?: string): Promise<number>
  /** A Client created through the API with the given key (fails the test setup on any other answer than 201). */
  client(key: string, body?: Record<string, unknown>): Promise<number>
  close(): Promise<void>
}

/**
 * The harness of a test file: made before its first test and closed after its last, handed to `use` to keep in the
 * file's own variable. With `freshMinute`, each test first moves the fixed clock a minute on, so that it opens a fresh
 * rate-limit minute for its keys.
 */
export function harnessForFile(
  use: (h: Harness) => void,
  opts: Parameters<typeof makeHarness>[0] & { freshMinute?: boolean } = {},
): void {
  const { freshMinute, ...made } = opts
  let h: Harness | undefined
  beforeAll(async () => {
    h = await makeHarness(made)
    use(h)
  })
  afterAll(() => h?.close())
  if (freshMinute) beforeEach(() => h!.clock.advance(61_000))
}

/** A Business with a Client, made through the API: where the document tests start. */
export interface ClientSetup {
  bizId: number
  key: string
  clientId: number
}

/** Every item of a paged list of the API, page by page of 100 through next_cursor, each page answered 200. */
export async function allPages(
  h: Harness,
  path: string,
  key: string,
  params: Record<string, string> = {},
): Promise<any[]> {
  const out: any[] = []
  let cursor: string | null = null
  do {
    const q = new URLSearchParams({ limit: '100', ...params })
    if (cursor) q.set('cursor', cursor)
    const r = await h.request('GET', `${path}?${q}`, { key })
    expect(r.status).toBe(200)
    out.push(...r.body.data)
    cursor = r.body.next_cursor
  } while (cursor)
  return out
}

/** Expects a 422 invalid_request naming the given field with at least one reason (and answers the error). */
export function expectRefusedUnder(r: TestResponse, field: string): any {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  expect(Object.keys(r.body.error.errors)).toContain(field)
  expect(r.body.error.errors[field]).toBeArray()
  expect(r.body.error.errors[field].length).toBeGreaterThan(0)
  return r.body.error
}

/** A Draft made through the API for the set-up's Client: an Invoice unless the body says otherwise. */
export async function draftFor(h: Harness, s: ClientSetup, body: Record<string, unknown>): Promise<any> {
  const r = await h.request('POST', '/v1/documents', {
    key: s.key,
    body: { type: 'invoice', client_id: s.clientId, ...body },
  })
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

/** A document made and issued through the API for the set-up's Client. */
export async function issuedFor(h: Harness, s: ClientSetup, body: Record<string, unknown>): Promise<any> {
  const d = await draftFor(h, s, body)
  const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })
  if (r.status !== 200) throw new Error(`issue refused: ${r.status} ${r.text}`)
  return r.body
}

let businessCount = 0

export async function makeHarness(
  opts: {
    config?: Partial<Config>
    validVat?: string[] /** Passed through to createDeps, e.g. a webhook sender or resolver. */
    overrides?: Partial<DepsOverrides>
    /** false: the database holds no reference rates (the fx tests); else the standing test rates (test/fx-rates.ts). */
    referenceRates?: boolean
  } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-test-'))
  const clock = new FixedClock('2026-03-10T09:00:00.000Z')
  const vies = new FakeVies(new Set(opts.validVat ?? []))
  const config = loadConfig({}, { dbPath: join(dir, 'test.db'), ...opts.config })
  // Errors the service logs are shown: a test should never meet one it did not provoke.
  const logger = {
    ...silentLogger,
    error: (msg: string, f?: Record<string, unknown>) => console.error('[service error]', msg, JSON.stringify(f ?? {})),
  }
  // INVOICING_TEST_DB_DRIVER=client runs a test file through @libsql/client alone, the paths a libSQL server takes.
  const native = process.env.INVOICING_TEST_DB_DRIVER === 'client' ? false : undefined
  const deps = await createDeps(config, { clock, vies, logger, native, ...opts.overrides })
  if (opts.referenceRates !== false) await seedStandingRates(deps.db)
  const app = await buildApp(deps)
  const validator = await contractValidator(app)

  const h: Harness = {
    deps,
    app,
    clock,
    vies,
    dir,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers }
      if (o.key) headers.authorization = `Bearer ${o.key}`
      let body: string | undefined
      if (o.raw !== undefined) body = o.raw
      else if (o.body !== undefined) {
        body = JSON.stringify(o.body)
        headers['content-type'] ??= 'application/json'
      }
      const res = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body }))
      const text = await res.text()
      let parsed: any = undefined
      if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text)
      validator(method, path, res.status, res.headers, parsed)
      return { status: res.status, headers: res.headers, text, body: parsed }
    },
    async business(input = {}) {
      businessCount++
      const b = await createBusiness(deps.db, clock, {
        name: `Business ${businessCount}`,
        country: 'DE',
        currency: 'EUR',
        plan: 'pro',
        ...input,
      })
      const key = await h.key(b.id, 'admin')
      return { id: b.id, publicId: b.publicId, key }
    },
    async key(businessId, role, name = `${role} key`) {
      return (await createApiKey(deps.db, clock, businessId, { name, role })).key
    },
    async bankAccount(businessId, name = 'Main account') {
      return (await addBankAccount(deps.db, clock, businessId, { name, iban: 'DE89370400440532013000' })).id
    },
    async client(key, body = {}) {
      const r = await h.request('POST', '/v1/clients', {
        key,
        body: { name: 'Test Client', email: 'billing@client.example', country: 'DE', ...body },
      })
      if (r.status !== 201) throw new Error(`client setup: ${r.status} ${r.text}`)
      return r.body.id as number
    },
    async close() {
      await app.requestLog.flush()
      await app.connectionUsage.flush()
      app.rateLimiter.close()
      deps.db.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return h
}

type Validate = (method: string, path: string, status: number, headers: Headers, body: unknown) => void

/** Makes every object in the schema closed, so a field the contract does not declare fails validation. */
function closeObjects(schema: any): any {
  if (Array.isArray(schema)) return schema.map(closeObjects)
  if (!schema || typeof schema !== 'object') return schema
  const out: any = {}
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closeObjects(s)]))
        : closeObjects(v)
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false
  return out
}

/** Checks a real answer against the OpenAPI document the app serves: declared status, declared shape. */
export async function contractValidator(app: App): Promise<Validate> {
  const res = await app.elysia.handle(new Request('http://localhost/openapi.json'))
  const doc: any = await res.json()
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
  addFormats(ajv)
  const routes = Object.entries(doc.paths as Record<string, any>).map(([p, ops]) => ({
    re: new RegExp('^' + p.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
    ops,
  }))
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
  // Named shapes (`$ref: #/components/schemas/Client`) resolve inside each compiled answer schema, closed like it.
  const components = closeObjects(doc.components ?? {})
  return (method, fullPath, status, _headers, body) => {
    const path = fullPath.split('?')[0]!
    const route = routes.find((r) => r.re.test(path))
    // Unknown paths and public pages are not part of the v1 contract's schemas.
    if (!route || !path.startsWith('/v1/')) return
    const op = route.ops[method.toLowerCase()]
    if (!op) {
      // A wrong method is answered 405, after the credential's own answers (401, 403, 429) where they come first.
      if (![401, 403, 405, 429].includes(status))
        throw new Error(`${method} ${path}: answered ${status} on a method the contract does not declare`)
      return
    }
    const answer = op.responses?.[String(status)]
    if (!answer) throw new Error(`${method} ${path}: status ${status} is not declared in the OpenAPI document`)
    const schema = answer.content?.['application/json']?.schema
    if (!schema || body === undefined) return
    const id = `${method} ${route.re.source} ${status}`
    let validate = compiled.get(id)
    if (!validate) {
      validate = ajv.compile({ ...closeObjects(schema), components })
      compiled.set(id, validate)
    }
    if (!validate(body)) {
      throw new Error(
        `${method} ${path} ${status}: answer does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      )
    }
  }
}

/** A harness's app served on a port of 127.0.0.1, where the MCP SDK's client, `fetch` and raw sockets reach it. */
export function serveHarness(h: Harness): { base: string; port: number; stop(): void } {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req, srv) => h.app.fetch(req, srv) })
  return { base: `http://127.0.0.1:${server.port}`, port: server.port!, stop: () => server.stop(true) }
}

/**
 * harnessForFile with the app also served on a port of 127.0.0.1 (serveHarness): `use` gets the harness and the
 * base URL http://127.0.0.1:PORT; server and harness are closed after the file's last test.
 */
export function servedHarnessForFile(
  use: (t: { h: Harness; base: string }) => void,
  opts: Parameters<typeof makeHarness>[0] = {},
): void {
  let h: Harness | undefined
  let served: ReturnType<typeof serveHarness> | undefined
  beforeAll(async () => {
    h = await makeHarness(opts)
    served = serveHarness(h)
    use({ h, base: served.base })
  })
  afterAll(async () => {
    served?.stop()
    await h?.close()
  })
}

/** harnessForFile (made with `opts`) with a Business (an Admin key, plan pro) made before the first test. */
export function businessForFile(
  use: (t: { h: Harness; biz: { id: number; publicId: string; key: string } }) => void,
  opts: Parameters<typeof makeHarness>[0] = {},
): void {
  let h: Harness
  harnessForFile((made) => (h = made), opts)
  beforeAll(async () => use({ h, biz: await h.business() }))
}
