// `invoicing mcp --key KEY`: the MCP server over stdio for a local assistant, with the same tools, rules and words
// as /mcp. Standard output carries only the protocol; logs go to standard error.
import { buildApp } from '../app'
import type { Deps } from '../deps'
import { allowOnly, UsageError, type Args } from './args'
import { CliRefusal } from './one-line'

export async function mcpStdio(deps: Deps, args: Args): Promise<void> {
  allowOnly(args, ['key'])
  const key = args.options.key?.trim()
  if (!key) throw new UsageError('usage: invoicing mcp --key KEY [--db FILE]')
  const app = await buildApp(deps)
  const door = await app.mcp()
  if (!(await door.resolve(key))) throw new CliRefusal('the key is unknown or revoked')
  const server = door.server(
    () => door.resolve(key),
    () => null,
  )
  // Loaded here, not at the top: the command table is loaded by every command, `serve` too.
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js')
  const transport = new StdioServerTransport()
  // Tool calls are written to the request log within a second, as the server's scheduler does.
  const flushing = setInterval(() => void app.requestLog.flush(), 1000)
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    clearInterval(flushing)
    await app.requestLog.flush()
    app.rateLimiter.close()
    deps.db.close()
    process.exit(0)
  }
  transport.onclose = () => void close()
  process.stdin.on('end', () => void close())
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void close())
  await server.connect(transport)
}
