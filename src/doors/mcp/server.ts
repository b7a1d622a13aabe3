// The MCP door (extensions §11): an SDK server whose tools are the table's operations, served statelessly over
// streamable HTTP at /mcp (a fresh server per request, JSON answers) and over stdio (`invoicing mcp --key KEY`).
// Same rules, same words as the API: one rate count per credential, one idempotency key space, one request log.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js'
import { publicBaseUrl } from '../../config'
import type { Deps } from '../../deps'
import type { Actor } from '../../platform/actor'
import type { BearerLookup } from '../../platform/credentials'
import { statusOf, type DoorRunner } from '../../platform/door-runner'
import { mcpPlanRefusal } from '../../platform/policy'
import type { Result } from '../../platform/operation'
import { ApiError } from '../../shared/errors'
import { errorFacts } from '../../shared/logger'
import { type Admitted, jsonResponse } from './gate'
import { buildTools, errorResult, listedFor, readArguments, toolResult, type Tool, type ToolAnswer } from './tools'
import { compactList, type ListedTool } from './compact'
import type { Operation } from '../../platform/operation'

const MCP_SERVER_NAME = 'invoicing'
/** SDK servers kept between requests of the HTTP door (one per request at a time in flight). */
const MAX_IDLE_SERVERS = 64

/** What an assistant needs to know before its first call. */
const INSTRUCTIONS = [
  "Tools of a self-hosted invoicing service: one tool per operation of its JSON API, with the API's arguments and answers.",
  'Money is a decimal string in the document\'s currency ("1234.50"), never a JSON number; send amounts as strings too.',
  'Dates are YYYY-MM-DD; timestamps are UTC (2026-01-31T12:00:00Z). Ids are whole numbers; `id` names the record itself.',
  'Lists answer {data, next_cursor}, oldest first: pass next_cursor back as `cursor` (with the same other arguments) for the next page; null means the end. `limit` is 1 to 100 (default 25).',
  "A refused call answers isError with {error: {type, message, code?, errors?, remedy?}}: `errors` names each refused argument; a `refusal` code says why the record refuses (see the document's `actions` beforehand).",
  'Creating tools take `idempotency_key`: resend with the same key to retry safely; it replays the first answer.',
  "A tool's outputSchema outlines its answer: the shape's name (Document, Client, ...: spelled out at the first tool that answers it, named after that) and the fields it always holds (`required`; null when empty), values as above.",
].join('\n')

export interface McpDoor {
  /** The HTTP door at /mcp, for a request its gate (./gate.ts) admitted. */
  handle(req: Request, admitted: Admitted, ip: string | null): Promise<Response>
  /** A server for one Actor source: the HTTP door keeps a few, each serving one request at a time; stdio one for its life. */
  server(actor: () => Promise<Actor | null>, ip: () => string | null): Server
  /** The Actor a credential stands for now (stdio resolves its key on every call, so a revocation acts at once). */
  resolve(credential: string): Promise<Actor | null>
  /** Lets the spare servers go (each holds the SDK's handlers and schemas): an idle server keeps none. */
  releaseIdle(): void
}

export interface McpDoorDeps {
  deps: Deps
  operations: readonly Operation[]
  lookup: BearerLookup
  /** Counts, judges, runs (under its key) and logs each tool call, as it does each API request. */
  runner: DoorRunner
}

/** The protected resource metadata an MCP client reads to sign a person in (RFC 9728). */
export function protectedResourceMetadata(config: Deps['config']) {
  const base = publicBaseUrl(config)
  return {
    resource: `${base}/mcp`,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: ['admin', 'member', 'viewer'],
  }
}

/**
 * A single JSON-RPC `tools/call` in JSON, from a client that accepts what the transport asks and speaks a version it
 * serves: the call assistants make most, answered here as the SDK would answer it (the same result object) without
 * building an SDK server for it. Anything else (initialize, tools/list, notifications, batches, a request the
 * transport would refuse) goes through the SDK's transport, which answers in its own words.
 */
function toolCallOf(
  req: Request,
  body: unknown,
): { id: string | number; name: string; args: Record<string, unknown> } | null {
  const accept = req.headers.get('accept') ?? ''
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null
  if (!(req.headers.get('content-type') ?? '').includes('application/json')) return null
  const version = req.headers.get('mcp-protocol-version')
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null
  const m = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  if (m.jsonrpc !== '2.0' || m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number'))
    return null
  const params = m.params as { name?: unknown; arguments?: unknown } | undefined
  if (!params || typeof params !== 'object' || typeof params.name !== 'string') return null
  const args = params.arguments
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return null
  if (Object.keys(params).some((k) => k !== 'name' && k !== 'arguments')) return null
  return { id: m.id, name: params.name, args: (args ?? {}) as Record<string, unknown> }
}

export function mcpDoor(d: McpDoorDeps): McpDoor {
  const tools = buildTools(d.operations)

  /** One tools/call: counted, judged by plan and Role, its arguments read, run (under its key), answered and logged. */
  async function call(actor: Actor, tool: Tool, args: Record<string, unknown>, ip: string | null): Promise<ToolAnswer> {
    const requestId = crypto.randomUUID()
    const op = tool.op
    let outcome: Result | ApiError
    let answer: ToolAnswer
    try {
      // The plan first (the MCP server's own codes), then the rate count, then the Role.
      const { refused } = await d.runner.admit(actor, op.access, mcpPlanRefusal(actor, op.access))
      if (refused) throw refused
      const { input, idempotencyKey } = readArguments(tool, args)
      const { result } = await d.runner.perform(op, actor, input, { key: idempotencyKey, body: input.body })
      outcome = result
      answer = toolResult(op, result, input.path)
    } catch (e) {
      const err = e instanceof ApiError ? e : internal(e)
      outcome = err
      answer = errorResult(err)
    }
    d.runner.log(actor, { requestId, method: 'MCP', path: `/mcp/${op.name}`, status: statusOf(outcome), ip })
    return answer
  }

  function internal(e: unknown): ApiError {
    d.deps.logger.error('MCP tool call failed', errorFacts(e))
    return new ApiError('server_error', 'The service failed to answer; the fault is ours.')
  }

  // A compact list per set of tools listed (they differ by Role and plan only), made once.
  const compacted = new Map<string, ListedTool[]>()
  function compactListOf(listed: Tool[]): ListedTool[] {
    const key = listed.map((t) => t.name).join(' ')
    let list = compacted.get(key)
    if (!list) compacted.set(key, (list = compactList(listed)))
    return list
  }

  function server(actorOf: () => Promise<Actor | null>, ipOf: () => string | null): Server {
    const s = new Server(
      { name: MCP_SERVER_NAME, version: '1.0.0' },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    )
    s.setRequestHandler(ListToolsRequestSchema, async () => {
      const actor = await actorOf()
      const listed = actor ? listedFor(actor, tools) : []
      return { tools: compactListOf(listed) }
    })
    s.setRequestHandler(CallToolRequestSchema, async (request) => {
      const actor = await actorOf()
      if (!actor)
        return errorResult(
          new ApiError('authentication', 'The credential no longer acts; send a valid API key or access token.'),
        )
      const tool = tools.get(request.params.name)
      if (!tool) return errorResult(new ApiError('not_found', `No tool named ${request.params.name}.`))
      return call(actor, tool, (request.params.arguments ?? {}) as Record<string, unknown>, ipOf())
    })
    return s
  }

  async function handle(req: Request, admitted: Admitted, ip: string | null): Promise<Response> {
    const { requestId, actor, text, parsed } = admitted
    const base = { 'X-Request-Id': requestId }
    const fast = toolCallOf(req, parsed)
    if (fast) {
      const tool = tools.get(fast.name)
      const result = tool
        ? await call(actor, tool, fast.args, ip)
        : errorResult(new ApiError('not_found', `No tool named ${fast.name}.`))
      return jsonResponse(200, { result, jsonrpc: '2.0', id: fast.id }, base)
    }
    // The body was read: the transport takes it parsed, or (not JSON) a copy of the request to refuse in its words.
    const sdkRequest =
      parsed === undefined ? new Request(req.url, { method: req.method, headers: req.headers, body: text }) : req
    // Stateless: a fresh transport per request. The SDK server behind it is costly to build (its handlers and schemas),
    // so a few are kept and each serves one request at a time, told its Actor for that request.
    const entry = idle.pop() ?? newEntry()
    entry.actor = actor
    entry.ip = ip
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await entry.server.connect(transport)
    try {
      const res = await transport.handleRequest(sdkRequest, parsed === undefined ? undefined : { parsedBody: parsed })
      res.headers.set('X-Request-Id', requestId)
      return res
    } finally {
      await entry.server.close()
      entry.actor = null
      entry.ip = null
      if (idle.length < MAX_IDLE_SERVERS) idle.push(entry)
    }
  }

  interface Entry {
    server: Server
    actor: Actor | null
    ip: string | null
  }
  const idle: Entry[] = []
  function newEntry(): Entry {
    const entry: Entry = { server: null as unknown as Server, actor: null, ip: null }
    entry.server = server(
      async () => entry.actor,
      () => entry.ip,
    )
    return entry
  }

  return {
    handle,
    server,
    resolve: (credential) => d.lookup(credential, 'mcp'),
    releaseIdle: () => {
      idle.length = 0
    },
  }
}
