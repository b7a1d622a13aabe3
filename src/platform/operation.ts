// What an operation of the table is (name, input parts, output, access, idempotency, refusal codes, function), the
// runner every door calls it through, and the paging every list shares. Knows no door: the API and MCP builders read
// these declarations.
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox'
import type { Deps } from '../deps'
import { CODES, NotFound, Refusal, type Code, type RefusalCode } from '../shared/errors'
import type { Actor } from './actor'
import { parseLimit, toPage, type Cursors, type Page } from './cursors'
import type { PageCache } from './page-cache'
import type { Access } from './policy'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** The request as an operation reads it, whichever door it came through: path ids, query parameters, body. */
export interface OperationInput {
  path: Record<string, string>
  query: Record<string, string | undefined>
  body: any
}

/** A file answer (PDF, XML): the API sends it as an attachment, MCP as an embedded resource. */
export interface FileAnswer {
  bytes: Uint8Array | string
  mimeType: string
  filename: string
}

export type Result =
  | { kind: 'json'; status: number; value: unknown }
  /** JSON already written (a kept list page); doors that need the value parse it. */
  | { kind: 'text'; status: number; text: string }
  | { kind: 'file'; file: FileAnswer }
  /** A delete: 204 on the API, `{id, deleted: true}` on MCP. */
  | { kind: 'deleted'; id: number }

/** What an operation's function may use besides its input: the composition root's dependencies and the platform. */
export interface OperationContext {
  deps: Deps
  cursors: Cursors
  /** Kept list pages; null without a hot reader (remote database). */
  pages: PageCache | null
  /** Writes buffered request-log entries out, so a reader sees every answer given so far. */
  flushRequestLog: () => Promise<void>
}

export interface Operation {
  /** The MCP tool name (`<resource>_<operation>`, extensions §11); also the operation's id in the OpenAPI document. */
  name: string
  tag: string
  summary: string
  /** The operation's rules in a few sentences; the refusal codes and access are added where the document is built. */
  description: string
  http: { method: Method; path: string; status: 200 | 201 | 204 }
  /** API path parameters (Elysia `:name`), each read as a string. */
  path?: TObject
  query?: TObject
  body?: TSchema
  /** The answer's schema (null for a file or a delete). */
  output: TSchema | null
  /** The media type of a file answer. */
  file?: 'application/pdf' | 'application/xml'
  access: Access
  /** Takes an Idempotency-Key (header on the API, `idempotency_key` on MCP). */
  idempotent: boolean
  /** The catalog codes this operation may answer; the runner holds it to them. */
  refusals: readonly RefusalCode[]
  /** Answers 404 for a record named outside its path (a query's client_id). */
  notFound?: boolean
  /** Answers 502 not_delivered (a Send). */
  notDelivered?: boolean
  /** Offered as an MCP tool (every operation but webhook management, Connected apps and the request log). */
  mcp: boolean
  /**
   * A body sent as a file rather than JSON (an import's CSV, extensions §19): its media type and size limit. The run
   * reads `input.body` as the file's text; the API takes it as the request body, MCP as the text argument `arg`.
   */
  upload?: { mediaType: 'text/csv' | 'application/xml'; maxBytes: number; limitWords: string; arg: string }
  /** The MCP argument name of each path parameter: the record's own id is `id`, a Payment's document `document_id`. */
  args?: Record<string, string>
  /** What an idempotent answer stores for replays when the first answer holds something shown once (a secret). */
  keep?: (value: unknown) => unknown
  /**
   * An idempotent operation's answer value, built from what its first write transaction returns, so that a keyed
   * request's answer commits with its change (extensions §12): a resend replays it even if the process died right
   * after the commit. `answersFromCommit` when the transaction returns the answer itself.
   */
  committed?: (value: unknown) => unknown
  run(actor: Actor, input: OperationInput, ctx: OperationContext): Promise<Result>
}

/**
 * An operation the application alone offers (settings the contract gives no API, the application-only document
 * actions of extensions §9): declared and run as the table's, with no route, OpenAPI entry or MCP tool to describe.
 */
export type ApplicationOperation = Pick<Operation, 'name' | 'description' | 'body' | 'access' | 'refusals' | 'run'> & {
  notDelivered?: boolean
}

export const json = (value: unknown, status = 200): Result => ({ kind: 'json', status, value })

/** An operation's `committed` when its first write transaction returns the answer value itself. */
export const answersFromCommit = (value: unknown): unknown => value

/** A service's use case on one record of the Business: the record's id, and the request's body where it takes one. */
export type RecordAction = (deps: Deps, actor: Actor, id: number, body: any) => Promise<unknown>

/**
 * The run of an operation on the record its path's `id` names: the use case's answer as JSON, `status` 201 where it
 * makes a record; a path id that is no id answers 404 with `missing` (see idOf).
 */
export function onRecord(act: RecordAction, answer: { status?: 200 | 201; missing?: string } = {}): Operation['run'] {
  return async (actor, { path, body }, { deps }) =>
    json(await act(deps, actor, idOf(path.id, answer.missing), body), answer.status)
}

/** The run of an operation that makes a record from the request's body: the use case's answer as JSON, 201. */
export function makesRecord(make: (deps: Deps, actor: Actor, body: any) => Promise<unknown>): Operation['run'] {
  return async (actor, { body }, { deps }) => json(await make(deps, actor, body), 201)
}

/** The run of a delete of the record its path's `id` names: 204 on the API, `{id, deleted: true}` on MCP. */
export function deletesRecord(remove: (deps: Deps, actor: Actor, id: number) => Promise<unknown>): Operation['run'] {
  return async (actor, { path }, { deps }) => {
    const id = idOf(path.id)
    await remove(deps, actor, id)
    return { kind: 'deleted', id }
  }
}

/** Runs an operation for an Actor; a refusal code it did not declare is a fault of the table (see holdToCatalog). */
export async function runOperation(
  op: ApplicationOperation,
  actor: Actor,
  input: OperationInput,
  ctx: OperationContext,
): Promise<Result> {
  try {
    return await op.run(actor, input, ctx)
  } catch (e) {
    if (e instanceof Refusal) holdToCatalog(op, e.code, ctx)
    throw e
  }
}

/**
 * Each operation answers only the codes it declares. Under test an undeclared code fails the request (a 500 that the
 * suite sees), so the whole suite proves the declarations; in service it is logged for the operator and answered
 * as thrown, since the caller's request was judged rightly.
 */
function holdToCatalog(op: ApplicationOperation, code: Code, ctx: OperationContext): void {
  if (op.refusals.includes(code as RefusalCode)) return
  if (process.env.NODE_ENV === 'test')
    throw new Error(`operation ${op.name} answered refusal code ${code}, which it does not declare`)
  ctx.deps.logger.error('operation answered an undeclared refusal code', { operation: op.name, code })
}

/**
 * One page of a list: `limit` and `cursor` read by the contract's rules (the cursor bound to this list and Business),
 * one row more fetched than shown so `next_cursor` is null exactly at the end.
 */
export async function listPage<R extends { id: number }, T>(
  ctx: OperationContext,
  actor: Actor,
  query: { limit?: string; cursor?: string },
  list: string,
  fetch: (afterId: number, limit: number) => Promise<R[]> | R[],
  present: (r: R) => T,
): Promise<Page<T>> {
  const limit = parseLimit(query.limit)
  const after = ctx.cursors.decode(query.cursor, list, actor.businessId)
  const rows = await fetch(after, limit + 1)
  return toPage(rows, limit, present, (id) => ctx.cursors.encode(list, actor.businessId, id))
}

/**
 * listPage for a list whose answer depends on nothing but the Business's stored rows and the query (Clients,
 * Products): the JSON text is kept until the database changes. Errors (a bad cursor or limit) are thrown as listPage
 * throws them and never kept.
 */
export async function keptListPage<R extends { id: number }, T>(
  ctx: OperationContext,
  actor: Actor,
  query: Record<string, string | undefined>,
  list: string,
  fetch: (afterId: number, limit: number) => Promise<R[]> | R[],
  present: (r: R) => T,
): Promise<Result> {
  return keptJson(ctx, `${actor.businessId} ${list} ${JSON.stringify(query)}`, () =>
    listPage(ctx, actor, query, list, fetch, present),
  )
}

/** How a list operation reads its page: its cursors' name, its filters, its rows and how a row is shown. */
export interface ListSource<R extends { id: number }, T, F> {
  /** The list's name in its cursors: a cursor another list gave is refused. */
  list: string
  /** Reads the list's own query parameters before `limit` and `cursor`, refusing what it cannot read. */
  filter?: (query: OperationInput['query']) => F
  /** Up to `limit` rows after the one with id `afterId` (0: from the first). */
  rows: (ctx: OperationContext, actor: Actor, afterId: number, limit: number, filter: F) => Promise<R[]> | R[]
  present: (row: R) => T
  /** The answer depends on nothing but the Business's stored rows and the query: kept as keptListPage keeps it. */
  kept?: boolean
}

/** The run of a list operation: its filters read, then one page of its rows (listPage, or keptListPage when kept). */
export function listRun<R extends { id: number }, T, F = undefined>(source: ListSource<R, T, F>): Operation['run'] {
  return async (actor, { query }, ctx) => {
    const filter = source.filter?.(query) as F
    const rows = (afterId: number, limit: number) => source.rows(ctx, actor, afterId, limit, filter)
    if (source.kept) return keptListPage(ctx, actor, query, source.list, rows, source.present)
    return json(await listPage(ctx, actor, query, source.list, rows, source.present))
  }
}

/**
 * A list operation of the table: a read that takes no Idempotency-Key and declares no refusal (a bad filter, `limit`
 * or `cursor` is a 422), answering one page of its rows.
 */
export function listOperation<R extends { id: number }, T, F = undefined>(
  declaration: Omit<Operation, 'idempotent' | 'refusals' | 'run'> & ListSource<R, T, F>,
): Operation {
  const { list, filter, rows, present, kept, ...operation } = declaration
  return { ...operation, idempotent: false, refusals: [], run: listRun({ list, filter, rows, present, kept }) }
}

/**
 * An answer that depends on nothing but stored rows, kept as JSON text under `key` until the database changes (the
 * hot reader's data_version); built afresh every time without a hot reader. What `build` throws is never kept.
 */
export async function keptJson(ctx: OperationContext, key: string, build: () => Promise<unknown>): Promise<Result> {
  const pages = ctx.pages
  if (!pages) return json(await build())
  const version = pages.current()
  const kept = pages.get(key)
  if (kept !== undefined) return { kind: 'text', status: 200, text: kept }
  const text = JSON.stringify(await build())
  pages.put(key, text, version)
  return { kind: 'text', status: 200, text }
}

/** The one rule of a record id in a path, every door's: a positive whole number of at most 15 digits. */
export const ID_RULE = /^[1-9][0-9]{0,14}$/

/** A path id that is not a positive whole number names no record: 404, like any unknown id. */
export function idOf(raw: string | undefined, words = 'No such record.'): number {
  if (raw === undefined || !ID_RULE.test(raw)) throw new NotFound(words)
  return Number(raw)
}

/** The API path a call stands for, ids filled in: the idempotency record's path, whichever door the call came through. */
export function apiPathOf(op: Operation, path: Record<string, string>): string {
  return op.http.path.replace(/:([^/]+)/g, (_m, p: string) => path[p] ?? '')
}

/** The MCP argument holding an operation's Idempotency-Key. */
export const IDEMPOTENCY_ARG = 'idempotency_key'

/**
 * The operation's input as one flat object (extensions §11): path ids under their argument names, query parameters
 * and body fields beside them by their API names, and `idempotency_key` where the API takes the header.
 */
export function inputSchema(op: Operation): TObject {
  const props: TProperties = {}
  for (const [name, schema] of Object.entries(op.path?.properties ?? {})) {
    props[op.args?.[name] ?? name] = Type.Integer({
      minimum: 1,
      description: (schema as TSchema).description ?? 'record id',
    })
  }
  for (const [name, schema] of Object.entries(op.query?.properties ?? {})) props[name] = schema as TSchema
  const body = bodyObject(op)
  for (const [name, schema] of Object.entries(body?.properties ?? {})) props[name] = schema as TSchema
  // A file body (an import's CSV) is one text argument.
  if (op.upload && op.body) props[op.upload.arg] = op.body
  if (op.idempotent) {
    props[IDEMPOTENCY_ARG] = Type.Optional(
      Type.String({
        description:
          'as the Idempotency-Key header: the same key and arguments within 24 hours replay the first answer',
      }),
    )
  }
  return Type.Object(props, { additionalProperties: false })
}

/** The body's object schema, whether the body is required or optional. */
export function bodyObject(op: Operation): TObject | null {
  const b = op.body as (TSchema & { properties?: TProperties; anyOf?: TSchema[] }) | undefined
  if (!b) return null
  if (b.properties) return b as TObject
  return null
}

/** Codes' catalog entries, for documents that explain an operation's refusals. */
export function codesOf(op: Operation): Array<{ code: RefusalCode; means: string }> {
  return op.refusals.map((code) => ({ code, means: CODES[code].means }))
}
