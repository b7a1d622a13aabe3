// An answer kept as text (an idempotent create, a kept list page) written as the API's HTTP response.
import type { Answer } from '../../platform/idempotency'

export type { Answer }

export function answerResponse(a: Answer, replayed = false): Response {
  const headers: Record<string, string> = { 'content-type': a.contentType ?? 'application/json' }
  if (replayed) headers['Idempotent-Replayed'] = 'true'
  return new Response(a.status === 204 ? null : a.body, { status: a.status, headers })
}
