// The one error mapper: every failure becomes the contract's {error: {...}} JSON with its status.
import type { ValueError } from '@sinclair/typebox/errors'
import { ApiError, BadRequest, InvalidRequest, NotFound } from '../../shared/errors'
import { errorFacts, type Logger } from '../../shared/logger'
import type { ParseFailure } from '../../platform/request-context'
import { fromValidation, withRulesOf } from '../../shared/schema-faults'

export { fromValidation }

function errorBody(err: ApiError): string {
  return JSON.stringify({ error: { type: err.type, message: err.message, ...err.extra } })
}

export function errorResponse(err: ApiError, headers: Record<string, string> = {}): Response {
  return new Response(errorBody(err), {
    status: err.status,
    headers: { 'content-type': 'application/json', ...err.headers, ...headers },
  })
}

/** The schema's faults and the body rules' together (shared/schema-faults.ts), for a body Elysia refused. */
function withBodyRules(error: any, invalid: InvalidRequest): InvalidRequest {
  return error?.type === 'body' ? withRulesOf(error?.validator?.schema?.title, error?.value, invalid) : invalid
}

/** The answer to a body the bounded reader (body.ts) gave up on, for the API and the MCP server alike. */
export function bodyReadError(fault: 'too_large' | 'timeout', limitWords = '1 MiB'): ApiError {
  // The rest of a body too large is not read by us: Bun drops it as it comes (at most its served cap, serve.ts). The
  // connection is not closed under it: a close with the client's bytes still arriving resets the connection, and the
  // reset loses the 413 the client had not yet read. A stalled body's connection is closed after the answer.
  if (fault === 'too_large') return new BadRequest(413, `The request body is larger than ${limitWords}.`)
  return new BadRequest(408, 'The request body stopped arriving; send it again.', { Connection: 'close' })
}

/** Maps whatever reached Elysia's onError to an ApiError; anything unexpected is a 500 that tells nothing. */
export function toApiError(
  code: string | number,
  error: any,
  logger: Logger,
  parseFailure?: ParseFailure,
  upload?: { mediaType: string; limitWords: string },
): ApiError {
  if (error instanceof ApiError) return error
  if (code === 'VALIDATION') {
    if (error?.type === 'response') {
      logger.error('response did not match its schema', { on: 'response' })
      return new ApiError('server_error', 'The service failed to answer; the fault is ours.')
    }
    return withBodyRules(error, fromValidation(String(error?.type ?? 'body'), (error?.all ?? []) as ValueError[]))
  }
  if (code === 'PARSE') {
    if (parseFailure === 'too_large' || parseFailure === 'timeout')
      return bodyReadError(parseFailure, upload?.limitWords)
    if (parseFailure === 'not_json')
      return new BadRequest(415, `Send the body as ${upload?.mediaType ?? 'application/json'}.`)
    return new BadRequest(400, 'The request body is not valid JSON.')
  }
  if (code === 'NOT_FOUND') return new NotFound('No such endpoint.')
  if (code === 'INVALID_COOKIE_SIGNATURE' || code === 'INVALID_FILE_TYPE')
    return new BadRequest(400, 'The request cannot be read.')
  // The message names what failed for the operator; the stack stays out of logs and answers alike.
  logger.error('unhandled error', { elysia: String(code), ...errorFacts(error) })
  return new ApiError('server_error', 'The service failed to answer; the fault is ours.')
}
