// The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 8707, RFC 9207) judged once for the consent page and its
// form: errors before the redirect URI is trusted are shown on the page and never redirected; after, they go back to
// the app with `error`, `state` and `iss`, if the app's redirect URI was registered by a person (a self-registered
// app's errors are shown on the page too).
import { findApp, type AppDeps, type KnownApp } from './apps.service'
import { redirectUriMatches } from './redirect-uris'
import { KEY_ROLES } from '../../platform/actor'
import { isGrantRole, type GrantRole } from './roles'

export interface AuthorizationRequest {
  app: KnownApp
  redirectUri: string
  state: string | null
  codeChallenge: string
  /** The highest Role the app asked for (`scope`), or admin when it asked none. */
  ceiling: GrantRole
  resources: string[]
}

export type Judged =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** Shown on the page: nothing is sent to an address the app has not registered. */
  | { kind: 'page'; message: string }
  /** Sent back to the app's registered redirect URI. */
  | { kind: 'redirect'; to: string }

const RANK: Record<GrantRole, number> = { viewer: 0, member: 1, admin: 2 }

/** The app's redirect URI with the answer's parameters added (RFC 9207's `iss` on every answer). */
export function answerUrl(redirectUri: string, params: Record<string, string | null>, issuer: string): string {
  const u = new URL(redirectUri)
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v)
  u.searchParams.set('iss', issuer)
  return u.toString()
}

/** The authorization request's parameters that may each be sent once (`resource`, RFC 8707, may be sent again). */
export const SINGLE_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'state',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'scope',
] as const

export async function judgeAuthorization(
  d: AppDeps & { issuer: string; resources: string[] },
  q: URLSearchParams,
): Promise<Judged> {
  for (const name of SINGLE_PARAMETERS) {
    if (q.getAll(name).length > 1)
      return { kind: 'page', message: `The app sent ${name} more than once; the request cannot be trusted.` }
  }
  const clientId = q.get('client_id') ?? ''
  const app = clientId ? await findApp(d, clientId, { fresh: true }) : null
  if (!app) return { kind: 'page', message: 'This app is not known to this service, so it cannot be connected.' }
  const asked = q.get('redirect_uri')
  let redirectUri: string
  if (asked === null) {
    if (app.redirectUris.length !== 1)
      return {
        kind: 'page',
        message: `${app.name} did not say where to return, and it registered more than one address.`,
      }
    redirectUri = app.redirectUris[0]!
  } else if (!redirectUriMatches(asked, app.redirectUris)) {
    return {
      kind: 'page',
      message: `${app.name} asked to return to an address it has not registered; nothing is sent there.`,
    }
  } else redirectUri = asked
  const state = q.get('state')
  // An app that registered itself (RFC 7591) or is known by its metadata document chose its redirect URI unvetted:
  // sending its errors there would let anyone make this server redirect a browser anywhere, unasked (an open
  // redirector, RFC 9700 §4.11.2). Its errors are shown on the page; only a registered app's go back to it.
  const back = (error: string, description: string): Judged =>
    app.kind === 'registered'
      ? { kind: 'redirect', to: answerUrl(redirectUri, { error, error_description: description, state }, d.issuer) }
      : { kind: 'page', message: `${app.name} sent a request this service cannot serve (${error}): ${description}` }
  if (q.get('response_type') !== 'code') return back('unsupported_response_type', 'Only response_type=code is served.')
  const challenge = q.get('code_challenge')
  if (!challenge)
    return back('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.')
  if (q.get('code_challenge_method') !== 'S256')
    return back('invalid_request', 'Only code_challenge_method=S256 is accepted (plain is refused).')
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).')
  let ceiling: GrantRole = 'admin'
  const scope = q.get('scope')?.trim()
  if (scope) {
    const words = scope.split(/\s+/)
    if (!words.every(isGrantRole)) return back('invalid_scope', 'scope may name admin, member or viewer.')
    ceiling = (words as GrantRole[]).reduce((hi, r) => (RANK[r] > RANK[hi] ? r : hi), 'viewer' as GrantRole)
  }
  const resources = q.getAll('resource')
  for (const r of resources)
    if (!d.resources.includes(r)) return back('invalid_target', `${r} is not a resource of this server.`)
  return {
    kind: 'ok',
    request: {
      app,
      redirectUri,
      state,
      codeChallenge: challenge,
      ceiling,
      resources: resources.length ? [...new Set(resources)] : d.resources,
    },
  }
}

/** The Roles the consent page offers: up to the person's own and the app's ceiling. */
export function offeredRoles(ceiling: GrantRole, own: GrantRole): GrantRole[] {
  return KEY_ROLES.filter((r) => RANK[r] <= RANK[ceiling] && RANK[r] <= RANK[own])
}
