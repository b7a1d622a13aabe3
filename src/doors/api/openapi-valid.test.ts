// The OpenAPI document is valid by two independent tools (0 errors), declares /health, explains itself, and /docs
// works offline with no buttons of hosted services.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
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
