// The OAuth door: the authorization server's own endpoints (metadata, registration, token, revocation) and the
// protected resource documents. Plain web Request in, Response out; OAuth's own error shape, never the API's.
// The token endpoint's grants are @node-oauth/oauth2-server's (code + PKCE S256, refresh rotation), over our model.
import OAuth2Server from '@node-oauth/oauth2-server'
import type { Logger } from '../../shared/logger'
import { AddressLimit } from './address-limit'
import {
  authenticateClient,
  authorizationServerMetadata,
  judgeAuthorization,
  OAuthFault,
  protectedResourceMetadata,
  registerClient,
  resourcesOf,
  revokePresentedToken,
  type AppDeps,
  type PresentedClient,
} from '../../modules/oauth'
import { tokenModel } from '../../modules/oauth/token-model'
import { readBody, type BodyBounds } from '../../platform/request-body'

const {
  Request: OAuthRequest,
  Response: OAuthResponse,
  OAuthError,
} = OAuth2Server as unknown as {
  Request: new (o: {
    method: string
    headers: Record<string, string>
    query: Record<string, string>
    body: Record<string, string>
  }) => unknown
  Response: new (o: {
    headers?: Record<string, string>
  }) => { status: number; headers: Record<string, string>; body: Record<string, unknown> }
  OAuthError: new (...a: unknown[]) => Error & { name: string; code: number }
}
/** The library's server: its `token()` runs the token endpoint's grants over the model it is given. */
const TokenServer = OAuth2Server as unknown as new (
  o: Record<string, unknown>,
) => { token(req: unknown, res: unknown): Promise<unknown> }

const REFRESH_TOKEN_SECONDS = 90 * 24 * 3600
const MAX_FORM_BYTES = 16 * 1024

export interface OAuthDoorDeps extends AppDeps {
  issuer: string
  logger: Logger
  /** How long a body may stall and take in all (config.bodyLimits; set only by tests). */
  bodyLimits?: BodyBounds
  /** Metadata documents fetched per address, counted with the consent page's (app.ts shares one). */
  documentFetches?: AddressLimit
}

/**
 * The body as text, read no further than MAX_FORM_BYTES (413) and within the API's time bounds (408); OAuth's error
 * shape, as every answer of this door.
 */
async function boundedText(req: Request, bounds: BodyBounds | undefined, error: string): Promise<string> {
  const read = await readBody(req, { ...bounds, maxBytes: MAX_FORM_BYTES })
  if (!('fault' in read)) return read.text
  if (read.fault === 'too_large')
    throw new OAuthFault(error, `The body is larger than ${MAX_FORM_BYTES / 1024} KiB.`, 413)
  throw new OAuthFault(error, 'The body stopped arriving.', 408)
}

/** Endpoints any page may call (no cookies are read): metadata, registration, token, revocation. */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      ...CORS,
      ...headers,
    },
  })
}

function fault(f: OAuthFault): Response {
  return json(
    f.status,
    { error: f.error, error_description: f.description },
    f.status === 401 ? { 'WWW-Authenticate': 'Basic realm="invoicing"' } : {},
  )
}

/**
 * A form body (RFC 6749 §3.2: application/x-www-form-urlencoded, POST), each parameter at most once except
 * `resource` (RFC 8707 lets it repeat).
 */
async function readForm(
  req: Request,
  bounds: BodyBounds | undefined,
): Promise<{ fields: Record<string, string>; resources: string[] }> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers.get('content-type') ?? '')) {
    throw new OAuthFault('invalid_request', 'The body must be application/x-www-form-urlencoded.')
  }
  const text = await boundedText(req, bounds, 'invalid_request')
  const params = new URLSearchParams(text)
  const fields: Record<string, string> = {}
  const resources: string[] = []
  for (const [k, v] of params) {
    if (k === 'resource') {
      resources.push(v)
      continue
    }
    if (k in fields) throw new OAuthFault('invalid_request', `The parameter ${k} is given more than once.`)
    fields[k] = v
  }
  return { fields, resources }
}

/** client_secret_basic (RFC 6749 §2.3.1: each part form-urlencoded before base64) or the body's client_id/secret. */
function presentedClient(req: Request, fields: Record<string, string>): PresentedClient {
  const h = req.headers.get('authorization')
  if (h) {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(h)
    if (!m) throw new OAuthFault('invalid_client', 'The Authorization header must use the Basic scheme.', 401)
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw new OAuthFault('invalid_client', 'Client authentication failed.', 401)
    try {
      return {
        clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
        viaHeader: true,
      }
    } catch {
      throw new OAuthFault('invalid_client', 'Client authentication failed.', 401)
    }
  }
  return { clientId: fields.client_id, clientSecret: fields.client_secret, viaHeader: false }
}

export function oauthDoor(d: OAuthDoorDeps): (req: Request, ip?: string | null) => Promise<Response> {
  const resources = resourcesOf(d.issuer)
  const registrations = new AddressLimit(d.clock)
  const documentFetches = d.documentFetches ?? new AddressLimit(d.clock)
  /** The door's dependencies for one request: metadata documents it makes the server fetch count against its address. */
  const forRequest = (ip: string | null): OAuthDoorDeps => ({
    ...d,
    mayFetchDocument: () => documentFetches.hit(ip).allowed,
  })
  const issuerPath = new URL(d.issuer).pathname.replace(/\/$/, '')

  async function token(req: Request, d: OAuthDoorDeps): Promise<Response> {
    const { fields, resources: requested } = await readForm(req, d.bodyLimits)
    for (const r of requested)
      if (!resources.all.includes(r)) throw new OAuthFault('invalid_target', `${r} is not a resource of this server.`)
    // Judged before the client: a grant this server does not serve is unsupported_grant_type whoever asks.
    if (!fields.grant_type) throw new OAuthFault('invalid_request', 'The grant_type parameter is required.')
    if (fields.grant_type !== 'authorization_code' && fields.grant_type !== 'refresh_token') {
      throw new OAuthFault(
        'unsupported_grant_type',
        'This server issues tokens for authorization_code and refresh_token only.',
      )
    }
    const client = presentedClient(req, fields)
    // The library reads Basic credentials itself; it is handed the header form-decoded parts we judged above.
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '1',
    }
    const body = { ...fields }
    if (client.viaHeader) {
      body.client_id = client.clientId ?? ''
      if (client.clientSecret) body.client_secret = client.clientSecret
    }
    const model = tokenModel(d, { redirectUri: fields.redirect_uri, resources: requested })
    const server = new TokenServer({
      model,
      accessTokenLifetime: 3600,
      refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
      alwaysIssueNewRefreshToken: true,
      // Public clients authenticate with nothing but PKCE; the model refuses a confidential client without its secret.
      requireClientAuthentication: { authorization_code: false, refresh_token: false },
    })
    const res = new OAuthResponse({ headers: {} })
    try {
      await server.token(new OAuthRequest({ method: 'POST', headers, query: {}, body }), res)
    } catch (e) {
      if (e instanceof OAuthFault) throw e
      const err = e as Error & { name?: string; code?: number; inner?: unknown }
      if (!(e instanceof OAuthError) || err.name === 'server_error') {
        d.logger.error('token endpoint failed', { name: (err.inner as Error)?.name ?? err.name })
        return json(500, { error: 'server_error', error_description: 'The token could not be issued; try again.' })
      }
      const status = err.name === 'invalid_client' ? (client.viaHeader ? 401 : 400) : 400
      return json(
        status,
        { error: err.name, error_description: err.message },
        status === 401 ? { 'WWW-Authenticate': 'Basic realm="invoicing"' } : {},
      )
    }
    return json(200, res.body)
  }

  /**
   * RFC 6749 §4.1.1: the request is judged here; an unknown app or unregistered redirect URI is a page (never a
   * redirect), other faults go back to the app, and a sound request goes on to the consent page (sign-in first).
   */
  async function authorize(req: Request, d: OAuthDoorDeps): Promise<Response> {
    const q = new URL(req.url).searchParams
    const judged = await judgeAuthorization({ ...d, resources: resources.all }, q)
    if (judged.kind === 'page') return errorPage(400, judged.message)
    if (judged.kind === 'redirect')
      return new Response(null, { status: 303, headers: { location: judged.to, ...PAGE_HEADERS } })
    return new Response(null, { status: 303, headers: { location: `/app/connect?${q.toString()}`, ...PAGE_HEADERS } })
  }

  async function revoke(req: Request, d: OAuthDoorDeps): Promise<Response> {
    const { fields } = await readForm(req, d.bodyLimits)
    const app = await authenticateClient(d, presentedClient(req, fields))
    if (fields.token === undefined) throw new OAuthFault('invalid_request', 'The token parameter is required.')
    await revokePresentedToken(d, app, fields.token)
    return new Response(null, { status: 200, headers: { 'Cache-Control': 'no-store', ...CORS } })
  }

  async function register(req: Request, ip: string | null): Promise<Response> {
    // RFC 7591 names no error for this: HTTP's 429 (RFC 6585) with Retry-After, in OAuth's error shape so that OAuth
    // clients read it; `too_many_requests` is the code the MCP SDK's clients know (its own server answers it).
    const limited = registrations.hit(ip)
    if (!limited.allowed) {
      return json(
        429,
        {
          error: 'too_many_requests',
          error_description: `Too many registrations from this address; try again in ${limited.retryAfterSeconds} seconds.`,
        },
        { 'Retry-After': String(limited.retryAfterSeconds) },
      )
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers.get('content-type') ?? ''))
      throw new OAuthFault('invalid_client_metadata', 'The body must be application/json.')
    const text = await boundedText(req, d.bodyLimits, 'invalid_client_metadata')
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new OAuthFault('invalid_client_metadata', 'The body is not valid JSON.')
    }
    return json(201, await registerClient(d.db, d.clock, body))
  }

  return async function oauth(req, ip = null) {
    const path = new URL(req.url).pathname
    const method = req.method.toUpperCase()
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS })
    try {
      if (path === `/.well-known/oauth-authorization-server${issuerPath}`) {
        return method === 'GET'
          ? json(200, authorizationServerMetadata(d.issuer), { 'Cache-Control': 'max-age=3600' })
          : notAllowed('GET')
      }
      if (path === `/.well-known/oauth-protected-resource${issuerPath}/mcp`)
        return method === 'GET' ? json(200, protectedResourceMetadata(d.issuer, resources.mcp)) : notAllowed('GET')
      if (path === `/.well-known/oauth-protected-resource${issuerPath}/v1`)
        return method === 'GET' ? json(200, protectedResourceMetadata(d.issuer, resources.api)) : notAllowed('GET')
      if (path === '/oauth/authorize')
        return method === 'GET' ? await authorize(req, forRequest(ip)) : notAllowed('GET')
      if (path === '/oauth/token') return method === 'POST' ? await token(req, forRequest(ip)) : notAllowed('POST')
      if (path === '/oauth/revoke') return method === 'POST' ? await revoke(req, forRequest(ip)) : notAllowed('POST')
      if (path === '/oauth/register') return method === 'POST' ? await register(req, ip) : notAllowed('POST')
      return json(404, { error: 'not_found', error_description: 'No such OAuth endpoint.' })
    } catch (e) {
      if (e instanceof OAuthFault) return fault(e)
      d.logger.error('oauth endpoint failed', { path, name: (e as Error)?.name })
      return json(500, { error: 'server_error', error_description: 'Something went wrong; try again.' })
    }
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** A refused authorization request, told to the person in the browser (the app is not trusted with it). */
function errorPage(status: number, words: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>This app cannot be connected</title><link rel="stylesheet" href="/app/assets/app.css"></head><body><main class="narrow"><div class="card"><h1>This app cannot be connected</h1><p class="notice bad" role="alert">${escapeHtml(words)}</p><p><a href="/app">Back to the application</a></p></div></main></body></html>`
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS } })
}

/** What the application's pages send (§9), on the authorization endpoint's pages and redirects too. */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
}

function notAllowed(allow: string): Response {
  return json(405, { error: 'invalid_request', error_description: `Use ${allow}.` }, { Allow: allow })
}
