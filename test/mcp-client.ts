// The SDK's own MCP Client over streamable HTTP, connected to a test server with a bearer credential (and any other
// headers a test sends along).
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export async function connectMcp(base: string, key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
    }),
  )
  return client
}

/** A tool call's result, loosely typed for the assertions of a test. */
export const callTool = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }) as Promise<any>
