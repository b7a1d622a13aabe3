// Small helpers route handlers share: ids from paths, idempotent creates, JSON answers.
import type { Actor } from '../platform/actor'
import type { Database } from '../db/client'
import { NotFound } from '../shared/errors'
import { actorOf, contextOf } from './context'
import { answerResponse, type Answer, type Idempotency } from './idempotency'
import type { PageCache } from './page-cache'
import { parseLimit, toPage, type Cursors, type Page } from './pagination'

/** Services the HTTP layer adds to the composition root's dependencies. */
export interface HttpServices {
  idempotency: Idempotency
  cursors: Cursors
  /** Pages of lists that are a function of the stored rows alone; null without a hot reader (remote database). */
  pages: PageCache | null
}

/** A path id that is not a positive whole number names no record: 404, like any unknown id. */
export function pathId(raw: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new NotFound('No such record.')
  return Number(raw)
}

/**
 * Runs a create under the request's Idempotency-Key (if any) and answers byte for byte on replay; `keep`, when given,
 * is what is stored for replays instead (see Idempotency.run).
 */
export function idempotentCreate(http: HttpServices, request: Request, perform: () => Promise<Answer>, keep?: (a: Answer) => Answer): Promise<Response> {
  const c = actorOf(request)
  const ctx = contextOf(request)
  const path = new URL(request.url).pathname
  return http.idempotency.run(
    { apiKeyId: c.credentialId, key: request.headers.get('idempotency-key'), method: request.method, path, rawBody: ctx.rawBody ?? '' },
    perform,
    keep,
  )
}

/**
 * One page of a list: `limit` and `cursor` read by the contract's rules (the cursor bound to this list and Business),
 * one row more fetched than shown so `next_cursor` is null exactly at the end.
 */
export async function listPage<R extends { id: number }, T>(
  http: HttpServices,
  request: Request,
  query: { limit?: string; cursor?: string },
  list: string,
  fetch: (c: Actor, afterId: number, limit: number) => Promise<R[]> | R[],
  present: (r: R) => T,
): Promise<Page<T>> {
  const c = actorOf(request)
  const limit = parseLimit(query.limit)
  const after = http.cursors.decode(query.cursor, list, c.businessId)
  const rows = await fetch(c, after, limit + 1)
  return toPage(rows, limit, present, (id) => http.cursors.encode(list, c.businessId, id))
}

/**
 * listPage for a list whose answer depends on nothing but the Business's stored rows and the query string (Clients,
 * Products): the JSON text is kept in the page cache until the database changes. Errors (a bad cursor or limit) are
 * thrown as listPage throws them and never kept.
 */
export async function cachedListPage<R extends { id: number }, T>(
  http: HttpServices,
  request: Request,
  query: { limit?: string; cursor?: string },
  list: string,
  fetch: (c: Actor, afterId: number, limit: number) => Promise<R[]> | R[],
  present: (r: R) => T,
): Promise<Response> {
  const pages = http.pages
  if (!pages) return answerResponse(json(200, await listPage(http, request, query, list, fetch, present)))
  // The URL holds the path (the list) and the whole query string; the Business is the credential's.
  const key = `${actorOf(request).businessId} ${request.url}`
  const version = pages.current()
  const kept = pages.get(key)
  if (kept !== undefined) return answerResponse({ status: 200, body: kept })
  const page = json(200, await listPage(http, request, query, list, fetch, present))
  pages.put(key, page.body, version)
  return answerResponse(page)
}

export function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value) }
}

export type { Database }
