// The API door's routes, built from the table of operations: each operation's method and path, its TypeBox parts as
// Elysia's validation, its answers and OpenAPI detail; the handler runs the operation for the request's Actor through
// the door runner (platform/door-runner.ts) and writes its Result as the HTTP answer.
import { Elysia, t, type TSchema } from 'elysia'
import { actorOf, contextOf } from '../../platform/request-context'
import { answerResponse } from './answer'
import { errorAnswers, idempotencyHeader } from '../../shared/schemas'
import { codesOf, type Operation, type Result } from '../../platform/operation'
import type { DoorRunner } from '../../platform/door-runner'
import { BODY_MEDIA_TYPE } from './openapi-document'

const ACCESS_WORDS = {
  read: 'every Role (Admin, Member, Viewer)',
  write: 'Admin and Member keys; a Viewer gets 403 permission',
  admin: 'Admin keys only; Member and Viewer get 403 permission',
}

/** The error statuses an operation may answer besides 401, 403, 429 and 500, which every operation may. */
function errorStatuses(op: Operation): number[] {
  const s = new Set<number>()
  if (op.path || op.notFound) s.add(404)
  if (op.query || op.body || op.refusals.length > 0) s.add(422)
  if (op.body) [400, 413, 415].forEach((n) => s.add(n))
  if (op.idempotent) s.add(409)
  if (op.notDelivered) s.add(502)
  return [...s]
}

/** The operation's description with its access and refusal codes, as the OpenAPI document shows them. */
export function describe(op: Operation): string {
  const parts = [op.description, `**Access:** ${ACCESS_WORDS[op.access]}.`]
  const codes = codesOf(op)
  if (codes.length > 0)
    parts.push(`**Refusals** (422 refusal, \`code\`):\n${codes.map((c) => `- \`${c.code}\`: ${c.means}`).join('\n')}`)
  if (op.idempotent)
    parts.push(
      '**Idempotent** with an `Idempotency-Key` header: the same key and body within 24 hours replay the first answer.',
    )
  if (op.mcp) parts.push(`**MCP tool:** \`${op.name}\`.`)
  return parts.join('\n\n')
}

function answersOf(op: Operation): Record<number, TSchema> {
  const ok: TSchema =
    op.http.status === 204
      ? t.Void({ description: 'done; no content' })
      : op.file
        ? t.Any({ description: `${op.file} attachment` })
        : op.output!
  return { [op.http.status]: ok, ...errorAnswers(...errorStatuses(op)) }
}

function toResponse(r: Result): unknown {
  switch (r.kind) {
    // Written as text, not handed to Elysia as a value, which Elysia would check against the declared answer at run
    // time: a page of 100 documents allocated 9.8 MB with that check and 3.8 MB without, one document 1.2 MB against
    // 0.55 MB, and that garbage set a busy server's peak memory. The declared answers stay in the OpenAPI document;
    // that every answer matches them (closed objects, formats) is held by the tests, which check each answer they get
    // (test/harness.ts).
    case 'json':
      return answerResponse({ status: r.status, body: JSON.stringify(r.value) })
    case 'text':
      return answerResponse({ status: r.status, body: r.text })
    case 'deleted':
      return new Response(null, { status: 204 })
    case 'file':
      return new Response(typeof r.file.bytes === 'string' ? r.file.bytes : Buffer.from(r.file.bytes), {
        headers: {
          'content-type': r.file.mimeType,
          'content-disposition': `attachment; filename="${r.file.filename}"`,
        },
      })
  }
}

export function operationRoutes(ops: readonly Operation[], runner: DoorRunner) {
  const app = new Elysia({ name: 'operations' })
  for (const op of ops) {
    const hook: Record<string, unknown> = {
      response: answersOf(op),
      detail: {
        tags: [op.tag],
        summary: op.summary,
        description: describe(op),
        operationId: op.name,
        'x-access': op.access,
        'x-refusal-codes': [...op.refusals],
        ...(op.mcp ? { 'x-mcp-tool': op.name } : {}),
        ...(op.upload ? { [BODY_MEDIA_TYPE]: op.upload.mediaType } : {}),
        ...(op.idempotent ? { parameters: [idempotencyHeader] } : {}),
      },
    }
    if (op.path) hook.params = op.path
    if (op.query) hook.query = op.query
    if (op.body) hook.body = op.body
    const handler = async ({
      request,
      params,
      query,
      body,
    }: {
      request: Request
      params?: Record<string, string>
      query?: Record<string, string | undefined>
      body?: unknown
    }) => {
      const input = { path: params ?? {}, query: query ?? {}, body }
      const keyed = op.idempotent
        ? { key: request.headers.get('idempotency-key'), rawBody: contextOf(request).rawBody }
        : undefined
      const { result, replayed } = await runner.perform(op, actorOf(request), input, keyed)
      return replayed && result.kind === 'text'
        ? answerResponse({ status: result.status, body: result.text }, true)
        : toResponse(result)
    }
    app.route(op.http.method, op.http.path, handler as any, hook as any)
  }
  return app
}
