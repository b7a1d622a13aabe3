// The storage side of the token endpoint, in the shape @node-oauth/oauth2-server asks of a "model": codes used once
// (a second use ends the Connected app made from it), refresh tokens rotated on every use (presenting a rotated one
// ends the Connected app), tokens random, prefixed and stored only as hashes, resources (RFC 8707) narrowed per request.
import OAuth2Server from '@node-oauth/oauth2-server'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { findApp, type AppDeps, type KnownApp } from './apps.service'
import { ACCESS_TOKEN_SECONDS, UNUSED_DAYS, endConnectedApp, type GrantRole } from './connections.service'
import {
  endToken,
  findCodeByHash,
  findConnectedApp,
  findTokenByHash,
  insertConnectedApp,
  insertTokens,
  setCodeConnectedApp,
  touchConnectedApps,
  useCode,
  type OAuthCodeRow,
  type OAuthTokenRow,
} from './oauth.repo'
import { ACCESS_PREFIX, REFRESH_PREFIX, newSecret, secretMatches, sha256 } from './secrets'

const { InvalidGrantError, OAuthError } = OAuth2Server

/** What a grant acts for: the consent behind a code, or the Connected app behind a refresh token. */
type Grantee = { kind: 'code'; code: OAuthCodeRow } | { kind: 'refresh'; token: OAuthTokenRow; role: GrantRole }

export interface TokenRequestParams {
  redirectUri: string | undefined
  /** `resource` parameters of the token request (RFC 8707 §2.2): each must be one the grant holds. */
  resources: string[]
}

/** RFC 8707 §2: a resource the grant does not hold. */
function invalidTarget(message: string) {
  return new OAuthError(message, { code: 400, name: 'invalid_target' })
}

/** The model for one token request (the library's model sees no request; this one closes over its parameters). */
export function tokenModel(d: AppDeps & { db: Database; clock: Clock }, params: TokenRequestParams) {
  const now = () => d.clock.now()
  let app: KnownApp | null = null

  function narrowed(granted: string[]): string[] {
    if (params.resources.length === 0) return granted
    for (const r of params.resources)
      if (!granted.includes(r)) throw invalidTarget(`The grant does not hold the resource ${r}.`)
    return [...new Set(params.resources)]
  }

  /**
   * The library derives `expires_in` from this date against the system clock; the stored expiry follows the
   * service's own clock, so the answer's one hour is given to the library in its own terms (rounded down by it, hence
   * the extra 999 ms: the milliseconds between here and its reading must not make it 3599).
   */
  const libraryExpiry = () => new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000 + 999)
  const farFuture = new Date(8.64e15)

  return {
    async getClient(clientId: string, clientSecret: string | undefined) {
      app = await findApp(d, clientId, { fresh: false })
      if (!app) return null
      // A confidential client authenticates with its secret; a public one sends none (PKCE binds its code).
      if (app.clientSecretHash) {
        if (!clientSecret || !secretMatches(clientSecret, app.clientSecretHash)) return null
      } else if (clientSecret) return null
      return { id: app.id, grants: ['authorization_code', 'refresh_token'], redirectUris: app.redirectUris }
    },

    generateAccessToken: async () => newSecret(ACCESS_PREFIX),
    generateRefreshToken: async () => newSecret(REFRESH_PREFIX),

    async getAuthorizationCode(code: string) {
      const row = await findCodeByHash(d.db.read, sha256(code))
      if (!row) return null
      if (row.usedAt) {
        // RFC 6749 §4.1.2: a code used twice revokes every token issued from it.
        if (row.connectedAppId) await endConnectedApp(d.db, d.clock, row.connectedAppId, 'code_reused')
        return null
      }
      if (Date.parse(row.expiresAt) <= now().getTime()) return null
      if (params.redirectUri !== row.redirectUri)
        throw new InvalidGrantError('Invalid grant: redirect_uri is not the one the code was issued to')
      return {
        authorizationCode: code,
        // Expiry was judged just above on the service's clock.
        expiresAt: farFuture,
        redirectUri: row.redirectUri,
        scope: [row.role],
        client: { id: row.appId },
        user: { kind: 'code', code: row } satisfies Grantee,
        codeChallenge: row.codeChallenge,
        codeChallengeMethod: 'S256',
      }
    },

    async revokeAuthorizationCode(code: { user: Grantee }) {
      if (code.user.kind !== 'code') return false
      const id = code.user.code.id
      return d.db.write((tx) => useCode(tx, id, now().toISOString()))
    },

    async getRefreshToken(refreshToken: string) {
      const row = await findTokenByHash(d.db.read, sha256(refreshToken))
      if (!row || row.kind !== 'refresh' || row.connectionEndedAt) return null
      if (row.endedAt) {
        // Reuse of a rotated refresh token: someone else may hold it; the whole connection ends.
        if (row.endReason === 'rotated')
          await endConnectedApp(d.db, d.clock, row.connectedAppId, 'refresh_token_reused')
        return null
      }
      const c = await findConnectedApp(d.db.read, row.connectedAppId)
      if (!c || c.endedAt) return null
      // Unused for 90 days: ended, even before the daily job has marked it so.
      if (Date.parse(c.lastUsedAt) + UNUSED_DAYS * 24 * 3600_000 <= now().getTime()) return null
      return {
        refreshToken,
        scope: [c.role],
        client: { id: row.appId },
        user: { kind: 'refresh', token: row, role: c.role } satisfies Grantee,
      }
    },

    async revokeToken(token: { user: Grantee }) {
      if (token.user.kind !== 'refresh') return false
      const id = token.user.token.id
      return d.db.write((tx) => endToken(tx, id, now().toISOString(), 'rotated'))
    },

    async saveToken(
      token: { accessToken: string; refreshToken?: string; scope?: string[] },
      client: { id: number },
      user: Grantee,
    ) {
      const at = now()
      const expires = new Date(at.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString()
      const granted: string[] =
        user.kind === 'code' ? JSON.parse(user.code.resources) : JSON.parse(user.token.resources)
      const accessResources = narrowed(granted)
      const role: GrantRole = user.kind === 'code' ? user.code.role : user.role
      await d.db.write(async (tx) => {
        let connectedAppId: number
        if (user.kind === 'code') {
          const c = await insertConnectedApp(tx, {
            appId: client.id,
            businessId: user.code.businessId,
            personId: user.code.personId,
            role: user.code.role,
            connectedAt: at.toISOString(),
            lastUsedAt: at.toISOString(),
          })
          await setCodeConnectedApp(tx, user.code.id, c.id)
          connectedAppId = c.id
        } else {
          connectedAppId = user.token.connectedAppId
          // A refresh is the app at work for the Business: it counts as a use for the 90-days-unused rule.
          await touchConnectedApps(tx, [connectedAppId], at.toISOString())
        }
        await insertTokens(tx, [
          {
            connectedAppId,
            kind: 'access',
            tokenHash: sha256(token.accessToken),
            resources: JSON.stringify(accessResources),
            expiresAt: expires,
            createdAt: at.toISOString(),
          },
          ...(token.refreshToken
            ? [
                {
                  connectedAppId,
                  kind: 'refresh' as const,
                  tokenHash: sha256(token.refreshToken),
                  resources: JSON.stringify(granted),
                  expiresAt: null,
                  createdAt: at.toISOString(),
                },
              ]
            : []),
        ])
      })
      return {
        accessToken: token.accessToken,
        accessTokenExpiresAt: libraryExpiry(),
        refreshToken: token.refreshToken,
        scope: [role],
        client,
        user,
      }
    },

    /** The app met by getClient, for the answer's headers and logs. */
    app: () => app,
  }
}
