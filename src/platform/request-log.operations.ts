// The request log's operation, GET /v1/request-log (Admin keys): the last 30 days of requests, paged, without bodies or
// query strings. Not an MCP tool.
import { Type as t } from '@sinclair/typebox'
import { InvalidRequest } from '../shared/errors'
import { parseTimestamp } from '../shared/dates'
import { listOperation, type Operation } from './operation'
import { Int, ListQuery, Nullable, Paged, Timestamp } from '../shared/schemas'
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

export const requestLogOperations: Operation[] = [
  listOperation({
    name: 'request_log_list',
    tag: 'Request log',
    summary: 'Requests of the last 30 days (Admin keys)',
    description:
      'Oldest first, paged, optionally between `from` and `to` (UTC timestamps): method, path, status, credential, IP and time of each request through the API and MCP. No bodies, no query strings.',
    http: { method: 'GET', path: '/v1/request-log', status: 200 },
    query: t.Object({ ...ListQuery, from: t.Optional(t.String()), to: t.Optional(t.String()) }),
    output: Paged(RequestLogEntry, 'RequestLog'),
    access: 'admin',
    mcp: false,
    list: 'request-log',
    filter: (query) => ({ from: bound('from', query.from), to: bound('to', query.to) }),
    async rows(ctx, actor, afterId, limit, { from, to }) {
      // Entries are buffered for speed; write them out so the reader sees everything answered so far.
      await ctx.flushRequestLog()
      const since = new Date(ctx.deps.clock.now().getTime() - REQUEST_LOG_RETENTION_MS).toISOString()
      return listRequestLog(ctx.deps.db.read, actor.businessId, { afterId, limit, from, to, since })
    },
    present,
  }),
]
