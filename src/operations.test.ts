// The table of operations is the one source of the API: every operation has its route and its OpenAPI operation
// (with access, refusal codes and a description), names follow extensions §11, and an operation answers only the
// refusal codes it declares.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../test/harness'
import { operations } from './operations'
import { runOperation, type Operation, type OperationContext } from './platform/operation'
import { systemActor } from './platform/actor'
import { CODES, Refusal } from './shared/errors'

let h: Harness
let doc: any

beforeAll(async () => {
  h = await makeHarness()
  doc = (await h.request('GET', '/openapi.json')).body
})
afterAll(() => h.close())

const MCP_RESOURCES = [
  'business',
  'bank_accounts',
  'clients',
  'products',
  'documents',
  'payments',
  'receipts',
  'reports',
  'bank_statements',
  'bank_statement_entries',
  // Extensions §14: a Business's payment reminder settings.
  'reminder_settings',
  // GET /v1/exchange-rates (extensions §16), an API operation like the others and so a tool.
  'exchange_rates',
  // §17: the journal's reads are tools too (§11: every API operation but webhooks, Connected apps, the request log).
  'journal',
  // extensions §13: tools recurring_invoices_*
  'recurring_invoices',
  'refunds',
]

describe('the table of operations', () => {
  test('operation names are unique', () => {
    const names = operations.map((op) => op.name)
    expect(new Set(names).size).toBe(names.length)
  })

  test('every operation has its API route', () => {
    const routes = new Set(h.app.elysia.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`))
    for (const op of operations) expect(routes.has(`${op.http.method} ${op.http.path}`)).toBe(true)
  })

  test('every operation is in the OpenAPI document under its name, with its access, refusal codes, summary and description', () => {
    for (const op of operations) {
      const path = op.http.path.replace(/:([^/]+)/g, '{$1}')
      const o = doc.paths[path]?.[op.http.method.toLowerCase()]
      expect(o).toBeDefined()
      expect(o.operationId).toBe(op.name)
      expect(o['x-access']).toBe(op.access)
      expect(o['x-refusal-codes']).toEqual([...op.refusals])
      expect(o.summary.length).toBeGreaterThan(0)
      expect(o.description).toContain(op.description)
      for (const code of op.refusals) expect(o.description).toContain(`\`${code}\``)
    }
  })

  test('every operation but webhook management and the request log is an MCP tool named <resource>_<operation>', () => {
    for (const op of operations) {
      const notTools =
        op.http.path.startsWith('/v1/webhook') ||
        op.http.path.startsWith('/v1/request-log') ||
        op.http.path.startsWith('/v1/connected-apps')
      expect(op.mcp).toBe(!notTools)
      if (!op.mcp) continue
      const resource = MCP_RESOURCES.find((r) => op.name.startsWith(`${r}_`))
      expect(resource).toBeDefined()
    }
  })

  test('reads are GET and take no Idempotency-Key; every declared code is in the catalog', () => {
    for (const op of operations) {
      if (op.access === 'read') {
        expect(op.http.method).toBe('GET')
        expect(op.idempotent).toBe(false)
      }
      for (const code of op.refusals) expect(CODES[code].type).toBe('refusal')
    }
  })
})

describe('an operation answers only the refusal codes it declares', () => {
  const ctx = () =>
    ({ deps: h.deps, cursors: h.app.http.cursors, pages: null, flushRequestLog: async () => {} }) as OperationContext
  const fake = (refusals: Operation['refusals']): Operation => ({
    name: 'test_refuse',
    tag: 'Test',
    summary: 'refuses',
    description: 'refuses',
    http: { method: 'POST', path: '/test', status: 200 },
    output: null,
    access: 'write',
    idempotent: false,
    refusals,
    mcp: false,
    run: async () => {
      throw new Refusal('nothing_due', 'Nothing is due on this document.')
    },
  })

  test('a declared code is answered as thrown', async () => {
    const err = await runOperation(
      fake(['nothing_due']),
      systemActor({ businessId: 1 }),
      { path: {}, query: {}, body: undefined },
      ctx(),
    ).catch((e) => e)
    expect(err).toBeInstanceOf(Refusal)
    expect(err.code).toBe('nothing_due')
  })

  test('an undeclared code is a fault of the table: under test it fails the request instead of answering', async () => {
    const err = await runOperation(
      fake([]),
      systemActor({ businessId: 1 }),
      { path: {}, query: {}, body: undefined },
      ctx(),
    ).catch((e) => e)
    expect(err).not.toBeInstanceOf(Refusal)
    expect(String(err.message)).toContain('does not declare')
  })
})
