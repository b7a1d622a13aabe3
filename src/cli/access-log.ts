// INVOICING_LOG=requests: one JSON line per request on stderr, for operators tailing a server. It says who asked what
// and how it went; it never carries a body, a query string, a key, a public page's token or a one-time sign-in link's.
import { contextOf } from '../http/context'

/** Paths that are bearer links (a public page, a one-time link to choose a password): logged without their token. */
const BEARER_PREFIXES = ['/p/', '/app/sign-in/link/']

/** The path as logged: a bearer link's token is left out. */
function loggedPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const q = url.indexOf('?', start)
  const path = start < 0 ? '/' : url.slice(start, q < 0 ? undefined : q)
  const prefix = BEARER_PREFIXES.find((p) => path.startsWith(p))
  return prefix ? `${prefix}…` : path
}

export function requestFields(req: Request, res: Response, startedMs: number, nowMs: number): Record<string, unknown> {
  return {
    method: req.method,
    path: loggedPath(req.url),
    status: res.status,
    duration_ms: Math.round((nowMs - startedMs) * 10) / 10,
    request_id: res.headers.get('x-request-id'),
    credential: contextOf(req).actor?.name ?? null,
  }
}
