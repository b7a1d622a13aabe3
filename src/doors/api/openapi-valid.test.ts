// The OpenAPI document is valid by two independent tools (0 errors), declares /health, explains itself, and /docs
// works offline with no buttons of hosted services.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { makeHarness, type Harness } from '../../../test/harness'

let h: Harness
let doc: any
let file: string

beforeAll(async () => {
  h = await makeHarness()
  doc = (await h.request('GET', '/openapi.json')).body
  file = join(h.dir, 'openapi.json')
  await Bun.write(file, JSON.stringify(doc))
})
afterAll(() => h.close())

describe('the OpenAPI document', () => {
  test('@apidevtools/swagger-parser validates it', async () => {
    // validate() dereferences the object it is given: a copy keeps `doc` as served.
    await SwaggerParser.validate(structuredClone(doc))
  })

  test('@redocly/cli lint finds no error', () => {
    const p = Bun.spawnSync(
      [join(import.meta.dir, '../../../node_modules/.bin/redocly'), 'lint', file, '--format', 'json'],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    const report = JSON.parse(p.stdout.toString())
    const errors = report.problems.filter((x: any) => x.severity === 'error')
    expect(errors.map((e: any) => `${e.ruleId}: ${e.message} at ${e.location?.[0]?.pointer}`)).toEqual([])
  }, 60_000)

  test('@redocly/cli lint finds no warning either (a licence, a 4XX answer on every operation)', () => {
    const p = Bun.spawnSync(
      [join(import.meta.dir, '../../../node_modules/.bin/redocly'), 'lint', file, '--format', 'json'],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    const report = JSON.parse(p.stdout.toString())
    expect(
      report.problems.map((e: any) => `${e.severity} ${e.ruleId}: ${e.message} at ${e.location?.[0]?.pointer}`),
    ).toEqual([])
  }, 60_000)

  test('names every resource, request body and the Error in components.schemas, so openapi-typescript gives their types', () => {
    const schemas = doc.components.schemas
    for (const name of [
      'Client',
      'ClientCreate',
      'ClientUpdate',
      'Document',
      'DocumentCreate',
      'Line',
      'Product',
      'Payment',
      'Receipt',
      'Business',
      'Error',
    ])
      expect(Object.keys(schemas)).toContain(name)
    // Used by $ref, not written out again at each operation.
    expect(doc.paths['/v1/clients/{client}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Client',
    })
    expect(doc.paths['/v1/clients'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ClientCreate',
    })
    expect(doc.paths['/v1/clients/{client}'].get.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    })
    // Every body and answer object of the API is a named one.
    const unnamed: string[] = []
    for (const ops of Object.values(doc.paths as Record<string, Record<string, any>>))
      for (const op of Object.values(ops)) {
        const body = op.requestBody?.content?.['application/json']?.schema
        if (body && !body.$ref) unnamed.push(`${op.operationId} body`)
        for (const [status, answer] of Object.entries(op.responses as Record<string, any>)) {
          const schema = answer.content?.['application/json']?.schema
          if (schema && !schema.$ref && op.operationId !== 'health') unnamed.push(`${op.operationId} ${status}`)
        }
      }
    expect(unnamed).toEqual([])
    const out = join(h.dir, 'api.d.ts')
    const p = Bun.spawnSync([join(import.meta.dir, '../../../node_modules/.bin/openapi-typescript'), file, '-o', out], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(p.exitCode, p.stderr.toString()).toBe(0)
    const types = readFileSync(out, 'utf8')
    for (const name of ['Client', 'Document', 'Error', 'ClientCreate'])
      expect(types).toMatch(new RegExp(`^\\s+${name}: \\{`, 'm'))
  }, 60_000)

  test('the reference lists "Webhooks" once: the events are the webhooks, the operations managing them another tag', () => {
    const shown = (doc.tags as Array<{ name: string; 'x-displayName'?: string }>).map(
      (t) => t['x-displayName'] ?? t.name,
    )
    expect(shown).not.toContain('Webhooks')
    expect(shown).toContain('Webhook endpoints')
    expect(Object.keys(doc.webhooks).length).toBeGreaterThan(0)
    // Every tag an operation uses is declared, in the table's order.
    const used = new Set(
      Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((ops) =>
        Object.values(ops).flatMap((op) => op.tags ?? []),
      ),
    )
    expect([...used].every((t) => doc.tags.some((d: { name: string }) => d.name === t))).toBe(true)
  })

  test('declares /health, servers, and a description of authentication, roles, errors, paging, money, idempotency and the rate limit', () => {
    expect(doc.paths['/health'].get.responses['200']).toBeDefined()
    expect(doc.servers.length).toBeGreaterThan(0)
    for (const heading of [
      'Authentication',
      'Roles',
      'Errors',
      'Remedies',
      'Paging',
      'Money',
      'Idempotency',
      'Rate limit',
    ])
      expect(doc.info.description).toContain(`## ${heading}`)
  })

  test('every operation has a summary and a description', () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(`${method} ${path}: ${op.summary ?? ''}`.length).toBeGreaterThan(`${method} ${path}: `.length)
        expect(op.description?.length ?? 0).toBeGreaterThan(20)
      }
    }
  })

  test('a 204 answer has no content', () => {
    for (const ops of Object.values(doc.paths as Record<string, Record<string, any>>))
      for (const op of Object.values(ops)) if (op.responses['204']) expect(op.responses['204'].content).toBeUndefined()
  })
})

describe('/docs', () => {
  test('turns off every hosted-service feature of the reference page (Ask AI, MCP generation, toolbar with Deploy and Share) and loads nothing from elsewhere', async () => {
    // The page's start script is served as a file of its own (no inline script under the page's CSP).
    const html = (await h.request('GET', '/docs')).text
    expect(html).toContain('<script src="/docs/assets/start.js"></script>')
    const page = html + (await h.request('GET', '/docs/assets/start.js')).text
    expect(page).toContain('agent: { disabled: true }')
    expect(page).toContain('mcp: { disabled: true }')
    expect(page).toContain("showToolbar: 'never'")
    expect(page).toContain('telemetry: false')
    expect(page).not.toMatch(/(src|href)="https?:/)
  })
})
