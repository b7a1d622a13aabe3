// GET /v1/request-log (Admin keys): the last 30 days of requests, paged, without bodies or query strings.
import { Elysia, t } from 'elysia'
import type { Database } from '../db/client'
import type { Clock } from '../shared/clock'
import { InvalidRequest } from '../shared/errors'
import { parseTimestamp } from '../shared/dates'
import { listPage, type HttpServices } from './route-helpers'
import { errorAnswers, Int, ListQuery, Nullable, Paged, Timestamp } from './schemas'
import { listRequestLog, type RequestLogRow } from './request-log'

export const REQUEST_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000

const RequestLogEntry = t.Object(
  {
    id: Int(),
    request_id: t.String(),
    method: t.String(),
    path: t.String(),
    status: Int(),
    credential: t.Object({ type: t.String(), name: t.String() }),
    ip: Nullable(t.String()),
    at: Timestamp,
  },
  { title: 'RequestLogEntry' },
)

function present(r: RequestLogRow) {
  return {
    id: r.id,
    request_id: r.requestId,
    method: r.method,
    path: r.path,
    status: r.status,
    credential: { type: r.credentialType, name: r.credentialName },
    ip: r.ip,
    at: r.at,
  }
}

function bound(name: 'from' | 'to', raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const d = parseTimestamp(raw)
  if (!d) throw new InvalidRequest({ [name]: ['must be a UTC timestamp such as 2026-01-31T12:00:00Z'] })
  return d.toISOString()
}

export function requestLogRoutes(deps: { db: Database; clock: Clock; flush: () => Promise<void> }, http: HttpServices) {
  return new Elysia({ name: 'request-log' }).get(
    '/v1/request-log',
    async ({ request, query }) => {
      const from = bound('from', query.from)
      const to = bound('to', query.to)
      // Entries are buffered for speed; write them out so the reader sees everything answered so far.
      await deps.flush()
      const since = new Date(deps.clock.now().getTime() - REQUEST_LOG_RETENTION_MS).toISOString()
      return listPage(http, request, query, 'request-log', (c, after, n) => listRequestLog(deps.db.read, c.businessId, { afterId: after, limit: n, from, to, since }), present)
    },
    {
      query: t.Object({ ...ListQuery, from: t.Optional(t.String()), to: t.Optional(t.String()) }),
      response: { 200: Paged(RequestLogEntry, 'RequestLog'), ...errorAnswers(422) },
      detail: { tags: ['Request log'], summary: 'Requests of the last 30 days (Admin keys)' },
    },
  )
}
