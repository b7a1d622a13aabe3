// What the API door's handlers share: idempotent creates under the request's Idempotency-Key, and the services
// the door keeps (idempotency, cursors, kept pages).
import type { Cursors } from '../../platform/cursors'
import type { PageCache } from '../../platform/page-cache'
import { actorOf, contextOf } from './context'
import type { Answer, Idempotency } from '../../platform/idempotency'
import { answerResponse } from './answer'

/** Services the HTTP layer adds to the composition root's dependencies. */
export interface HttpServices {
  idempotency: Idempotency
  cursors: Cursors
  /** Pages of lists that are a function of the stored rows alone; null without a hot reader (remote database). */
  pages: PageCache | null
}

/**
 * Runs a create under the request's Idempotency-Key (if any) and answers byte for byte on replay; `keep`, when given,
 * is what is stored for replays instead (see Idempotency.run).
 */
export async function idempotentCreate(http: HttpServices, request: Request, perform: () => Promise<Answer>, keep?: (a: Answer) => Answer): Promise<Response> {
  const c = actorOf(request)
  const ctx = contextOf(request)
  const path = new URL(request.url).pathname
  const { answer, replayed } = await http.idempotency.answer(
    { credentialKind: c.kind, apiKeyId: c.credentialId, key: request.headers.get('idempotency-key'), method: request.method, path, rawBody: ctx.rawBody ?? '' },
    perform,
    keep,
  )
  return answerResponse(answer, replayed)
}
