// `invoicing mcp --key KEY` over stdio, through the SDK's own Client: the same tools, answers and refusals as /mcp,
// from a second process on the same database file.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { makeHarness, type Harness } from '../../../test/harness'
import { operations } from '../../operations'

let h: Harness
const main = join(import.meta.dir, '../../main.ts')

beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'local-assistant', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [main, 'mcp', '--key', key, '--db', join(h.dir, 'test.db')],
      env: { ...process.env, INVOICING_LOG_LEVEL: 'error' } as Record<string, string>,
      stderr: 'pipe',
    }),
  )
  return client
}

test("over stdio: a Viewer lists the reads, reads answer the API's JSON, a write is the permission error, the request log records MCP /mcp/<tool>", async () => {
  const b = await h.business()
  const viewer = await h.key(b.id, 'viewer', 'assistant')
  const c = await connect(viewer)
  try {
    const { tools } = await c.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(
      operations
        .filter((op) => op.mcp && op.access === 'read')
        .map((op) => op.name)
        .sort(),
    )
    const got: any = await c.callTool({ name: 'business_get', arguments: {} })
    expect(got.structuredContent).toEqual((await h.request('GET', '/v1/business', { key: b.key })).body)
    const refused: any = await c.callTool({
      name: 'clients_create',
      arguments: { name: 'X', email: 'x@example.com', country: 'DE' },
    })
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent.error.type).toBe('permission')
  } finally {
    await c.close()
  }
  // The process writes its request log within a second and when it ends; its exit may trail the client's close.
  let mcp: unknown[] = []
  for (let i = 0; i < 50 && mcp.length < 2; i++) {
    if (i > 0) await Bun.sleep(100)
    const log = await h.request('GET', '/v1/request-log?limit=100', { key: b.key })
    mcp = log.body.data.filter((e: any) => e.method === 'MCP').map((e: any) => [e.path, e.status, e.credential.name])
  }
  expect(mcp).toEqual([
    ['/mcp/business_get', 200, 'assistant'],
    ['/mcp/clients_create', 403, 'assistant'],
  ])
}, 30_000)
