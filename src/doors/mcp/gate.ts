// The MCP door's gate: what /mcp refuses before any protocol is spoken (another origin, no credential, a method other
// than POST, a body past its limit). It imports nothing of the MCP SDK, so a refused request never loads it (about
// 18 MB): a stream of oversized or unauthenticated requests to /mcp leaves the server as light as it found it.
import { publicBaseUrl } from '../../config'
import type { Deps } from '../../deps'
import type { Actor } from '../../platform/actor'
import { bearerOf, type BearerLookup } from '../../platform/credentials'
import { readBody } from '../../platform/request-body'
import { bodyReadError, errorResponse } from '../api/errors'

/** A request the gate let through: who sends it, and its body as read (and parsed, when it is JSON). */
export interface Admitted {
  requestId: string
  actor: Actor
  text: string
  /** The body parsed as JSON; undefined when it is not JSON (the transport refuses it in its own words). */
  parsed: unknown
}

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } })
}

/** The gate of /mcp: a refusal as the door answers it, or the request admitted with its body read. */
export function mcpGate(deps: Deps, lookup: BearerLookup): (req: Request) => Promise<Response | Admitted> {
  const origin = new URL(publicBaseUrl(deps.config)).origin
  const resourceMetadata = `${publicBaseUrl(deps.config)}/.well-known/oauth-protected-resource/mcp`
  return async (req) => {
    const requestId = crypto.randomUUID()
    const base = { 'X-Request-Id': requestId }
    // A browser page elsewhere must not drive the server with a person's credential: refused before anything else.
    const from = req.headers.get('origin')
    if (from !== null && from !== origin) {
      return jsonResponse(
        403,
        { error: { type: 'permission', message: 'Requests from another origin are refused.' } },
        base,
      )
    }
    const credential = bearerOf(req)
    const actor = credential ? await lookup(credential, 'mcp') : null
    if (!actor) {
      return jsonResponse(
        401,
        {
          error: {
            type: 'authentication',
            message: 'Send a valid API key or access token as "Authorization: Bearer <credential>".',
          },
        },
        { ...base, 'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadata}"` },
      )
    }
    if (req.method !== 'POST') {
      // Stateless and JSON only: there is no stream to open (GET) and no session to end (DELETE).
      return jsonResponse(
        405,
        { error: { type: 'invalid_request', message: `${req.method} is not allowed here; /mcp answers POST.` } },
        { ...base, Allow: 'POST' },
      )
    }
    // Read within the API's bounds: past 1 MiB or past its time the rest is never read (413 or 408).
    const read = await readBody(req, deps.config.bodyLimits)
    if ('fault' in read) return errorResponse(bodyReadError(read.fault), base)
    let parsed: unknown
    try {
      parsed = JSON.parse(read.text)
    } catch {
      parsed = undefined
    }
    return { requestId, actor, text: read.text, parsed }
  }
}
