// Extensions §8: started with nothing but `serve --port P`, every link the server gives names the address it prints
// (http://127.0.0.1:P), so that the MCP SDK's own OAuth client, knowing only that address, signs a person in.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { AppClient } from './app-client'
import { approveOnConsentPage, MemoryProvider } from './mcp-oauth'
import { call, cli, newKey, startServer, type Server } from './processes'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-address-'))
const db = join(dir, 'address.db')
let server: Server
let port: number
let origin: string
let businessId: number
let businessPublicId: string
let signInLink: string

/** A port free at this moment, for `serve --port P` (the test names the port as a person would). */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const p = probe.port!
  probe.stop(true)
  return p
}

/** A person's browser over the real socket: redirects are answers to read, not to follow. */
function browserAt(url: string): AppClient {
  return new AppClient({ app: { fetch: (req: Request) => fetch(req, { redirect: 'manual' }) } } as never, url)
}

beforeAll(async () => {
  port = freePort()
  origin = `http://127.0.0.1:${port}`
  const added = cli([
    'person',
    'add',
    '--email',
    'owner@address.example',
    '--name',
    'Ada',
    '--public-url',
    origin,
    '--db',
    db,
    '--json',
  ])
  if (added.code !== 0) throw new Error(added.err)
  signInLink = JSON.parse(added.out).sign_in_link
  const made = cli(
    ['business', 'create', '--name', 'Address GmbH', '--country', 'DE', '--currency', 'EUR', '--plan', 'pro'].concat([
      '--owner',
      'owner@address.example',
      '--db',
      db,
      '--json',
    ]),
  )
  if (made.code !== 0) throw new Error(made.err)
  businessId = JSON.parse(made.out).id
  businessPublicId = JSON.parse(made.out).business_id
  // No PORT, no HOST, no INVOICING_PUBLIC_URL: the port on the command line alone.
  server = await startServer(db, {}, port)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('serve --port P alone', () => {
  test('the CLI prints sign-in links under --public-url, and without it under the address serve prints by default', () => {
    expect(signInLink).toStartWith(`${origin}/app/sign-in/link/`)
    const plain = cli(['person', 'link', '--email', 'owner@address.example', '--db', db, '--json'])
    expect(plain.code, plain.err).toBe(0)
    expect(JSON.parse(plain.out).sign_in_link).toStartWith('http://127.0.0.1:8080/app/sign-in/link/')
    const refused = cli(['person', 'link', '--email', 'owner@address.example', '--public-url', 'ftp://x', '--db', db])
    expect(refused.code).not.toBe(0)
    expect(refused.err).toContain('--public-url must be an http(s) URL')
  })

  test('the OAuth issuer, both resource metadata documents and the 401 of /mcp name http://127.0.0.1:P', async () => {
    expect(server.port).toBe(port)
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as any
    expect(as.issuer).toBe(origin)
    expect(as.token_endpoint).toBe(`${origin}/oauth/token`)
    const prm = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as any
    expect(prm).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] })
    const unauthorized = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.headers.get('www-authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    )
  })

  test('public_url is absolute under that address and opens; remedy_url points at its application', async () => {
    const key = newKey(db, businessId)
    const client = await call(server, key, 'POST', '/v1/clients', {
      name: 'Kunde',
      country: 'DE',
      email: 'k@x.example',
    })
    expect(client.status).toBe(201)
    const draft = await call(server, key, 'POST', '/v1/documents', {
      type: 'invoice',
      client_id: client.body.id,
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }],
    })
    expect(draft.status).toBe(201)
    // No relay and no mailbox: the Send is refused with the remedy under this server's own address.
    expect(draft.body.actions.send.remedy_url).toStartWith(`${origin}/app/`)
    const issued = await call(server, key, 'POST', `/v1/documents/${draft.body.id}/issue`)
    expect(issued.body.public_url).toMatch(new RegExp(`^${origin.replace(/\./g, '\\.')}/p/[A-Za-z0-9_-]+$`))
    expect((await fetch(issued.body.public_url)).status).toBe(200)
  })

  test("the MCP SDK's own OAuth client signs the person in from the address of /mcp alone and calls a tool", async () => {
    const browser = browserAt(origin)
    expect((await browser.choosePassword(signInLink, 'a password of ours')).status).toBe(303)
    const provider = new MemoryProvider((url) => approveOnConsentPage(browser, url, businessPublicId, 'member'))
    const first = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider })
    await expect(new Client({ name: 'desk-assistant', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    )
    expect(provider.authorizationUrl!.origin).toBe(origin)
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${origin}/mcp`)
    await first.finishAuth(provider.arrived!.searchParams.get('code')!)
    const client = new Client({ name: 'desk-assistant', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider }))
    const made: any = await client.callTool({
      name: 'clients_create',
      arguments: { name: 'Via MCP', country: 'DE', email: 'mcp@x.example' },
    })
    expect(made.isError, JSON.stringify(made.content)).toBeFalsy()
    expect(made.structuredContent.name).toBe('Via MCP')
    await client.close()
  }, 60_000)
})
