// The MCP tools built from the table of operations (extensions §11): their list for an Actor, their arguments read
// into an operation's input by the API's own schemas and words, and results and errors as the API answers them.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import type { TObject, TSchema } from '@sinclair/typebox'
import { fromValidation } from '../api/errors'
import { ErrorSchema } from '../../shared/schemas'
import type { Actor } from '../../platform/actor'
import {
  apiPathOf,
  bodyObject,
  IDEMPOTENCY_ARG,
  inputSchema,
  type Operation,
  type OperationInput,
  type Result,
} from '../../platform/operation'
import { mcpPlanRefusal, roleAllows } from '../../platform/policy'
import { ApiError, InvalidRequest } from '../../shared/errors'
import { bodyFault } from '../../shared/body-fault'

/** A plain JSON Schema copy of a TypeBox schema (no symbols, no `$id` that would clash between tools). */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === '$id' ? undefined : v)))
}

const DELETED = {
  type: 'object',
  properties: { id: { type: 'integer' }, deleted: { const: true } },
  required: ['id', 'deleted'],
}

export interface Tool {
  op: Operation
  name: string
  title: string
  description: string
  /** The refusal codes it may answer, said after its description in the list (./compact.ts). */
  refusals: readonly string[]
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations: {
    title: string
    readOnlyHint: boolean
    destructiveHint?: boolean
    idempotentHint: boolean
    openWorldHint: boolean
  }
  path: Array<{ param: string; arg: string }>
  query: { names: Set<string>; check: TypeCheck<TObject> } | null
  body: { names: Set<string>; check: TypeCheck<TSchema>; optional: boolean } | null
  /** The argument carrying a file body as text (an import's `csv`), or null. */
  upload: string | null
}

const DESTRUCTIVE = /_(delete|cancel|reverse)$/

/** One tool per operation offered to MCP, built once: its published schemas and its compiled argument checks. */
export function buildTools(ops: readonly Operation[]): Map<string, Tool> {
  const tools = new Map<string, Tool>()
  for (const op of ops) {
    if (!op.mcp) continue
    const bodyObj = bodyObject(op)
    const output = op.http.status === 204 ? DELETED : op.output ? plain(op.output) : null
    const write = op.access !== 'read'
    tools.set(op.name, {
      op,
      name: op.name,
      title: op.summary,
      // The title says the summary; the description goes on from it.
      description: op.description,
      refusals: op.refusals,
      inputSchema: plain(inputSchema(op)),
      // A declared output schema admits the contract's error object too, so a client that checks results does not
      // fail on a refusal (extensions §11). Files answer no structured content, so they declare none.
      ...(output ? { outputSchema: { type: 'object', anyOf: [output, plain(ErrorSchema)] } } : {}),
      annotations: {
        title: op.summary,
        readOnlyHint: !write,
        ...(write ? { destructiveHint: DESTRUCTIVE.test(op.name) } : {}),
        idempotentHint: !write || op.http.method === 'PATCH' || op.http.method === 'PUT',
        openWorldHint: false,
      },
      path: Object.keys(op.path?.properties ?? {}).map((param) => ({ param, arg: op.args?.[param] ?? param })),
      query: op.query
        ? { names: new Set(Object.keys(op.query.properties)), check: TypeCompiler.Compile(op.query) }
        : null,
      body:
        op.body && bodyObj
          ? {
              names: new Set(Object.keys(bodyObj.properties)),
              check: TypeCompiler.Compile(bodyObj),
              optional: op.body !== bodyObj || isOptional(op.body),
            }
          : null,
      upload: op.upload?.arg ?? null,
    })
  }
  return tools
}

function isOptional(s: TSchema): boolean {
  return (s as unknown as Record<symbol, unknown>)[Symbol.for('TypeBox.Optional')] === 'Optional'
}

/** The tools the Actor may call now (a Paused Business lists none). */
export function listedFor(actor: Actor, tools: Map<string, Tool>): Tool[] {
  return [...tools.values()].filter(
    (t) => mcpPlanRefusal(actor, t.op.access) === null && roleAllows(actor.role, t.op.access),
  )
}

/** A query parameter as the API reads it: text (an assistant may write `limit` as a number). */
function asQueryText(v: unknown): unknown {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v
}

/**
 * The flat arguments split into the operation's path, query and body, each judged by the API's schemas with the API's
 * words: an argument error is 422 invalid_request naming the field, never the SDK's own error.
 */
export function readArguments(
  tool: Tool,
  args: Record<string, unknown>,
): { input: OperationInput; idempotencyKey: string | null } {
  const errors: Record<string, string[]> = {}
  const path: Record<string, string> = {}
  const query: Record<string, string | undefined> = {}
  const body: Record<string, unknown> = {}
  let idempotencyKey: string | null = null
  let upload: string | undefined
  const pathArgs = new Map(tool.path.map((p) => [p.arg, p.param]))
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue
    const param = pathArgs.get(name)
    if (param !== undefined) {
      const text = typeof value === 'number' ? String(value) : value
      if (typeof text !== 'string' || !/^[1-9][0-9]{0,14}$/.test(text)) errors[name] = ['must be a whole number id']
      else path[param] = text
    } else if (name === IDEMPOTENCY_ARG && tool.op.idempotent) {
      if (typeof value !== 'string') errors[name] = ['must be a string']
      else idempotencyKey = value
    } else if (name === tool.upload) {
      if (typeof value !== 'string') errors[name] = ['must be a string']
      else upload = value
    } else if (tool.query?.names.has(name)) query[name] = asQueryText(value) as string
    else if (tool.body?.names.has(name)) body[name] = value
    else errors[name] = ['is not an argument this tool takes']
  }
  for (const p of tool.path) if (path[p.param] === undefined && !errors[p.arg]) errors[p.arg] = ['is required']
  if (tool.upload && upload === undefined && !errors[tool.upload]) errors[tool.upload] = ['is required']
  if (Object.keys(errors).length > 0) throw new InvalidRequest(errors)
  if (tool.query && !tool.query.check.Check(query)) throw fromValidation('query', [...tool.query.check.Errors(query)])
  const hasBody = Object.keys(body).length > 0
  let input: OperationInput['body'] = undefined
  if (tool.body && (hasBody || !tool.body.optional)) {
    const fault = bodyFault(body)
    if (fault) throw new InvalidRequest({ [fault.at]: [fault.message] })
    if (!tool.body.check.Check(body)) throw fromValidation('body', [...tool.body.check.Errors(body)])
    input = body
  }
  return { input: { path, query, body: upload ?? input }, idempotencyKey }
}

export interface ToolAnswer {
  [k: string]: unknown
  content: Array<Record<string, unknown>>
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

/** The API's answer as a tool result: its JSON as structured content and as text; a file as an embedded resource. */
export function toolResult(op: Operation, r: Result, ids: Record<string, string>): ToolAnswer {
  switch (r.kind) {
    case 'json':
      return jsonResult(r.value)
    case 'text':
      return jsonResult(JSON.parse(r.text))
    case 'deleted':
      return jsonResult({ id: r.id, deleted: true })
    case 'file': {
      const bytes = Buffer.from(r.file.bytes)
      const where = apiPathOf(op, ids)
        .replace(/^\/v1\//, '')
        .replace(/\/[^/]+$/, '')
      return {
        content: [
          {
            type: 'resource',
            resource: {
              uri: `invoicing://${where}/${r.file.filename}`,
              mimeType: r.file.mimeType,
              blob: bytes.toString('base64'),
            },
          },
        ],
      }
    }
  }
}

function jsonResult(value: unknown): ToolAnswer {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  }
}

/** A refused call: the contract's `{error}` object as structured content (with `retry_after` over the rate limit). */
export function errorResult(err: ApiError): ToolAnswer {
  const error: Record<string, unknown> = { type: err.type, message: err.message, ...err.extra }
  if (err.type === 'rate_limit' && err.headers['Retry-After']) error.retry_after = Number(err.headers['Retry-After'])
  const value = { error }
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value, isError: true }
}
