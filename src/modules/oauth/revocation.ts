// RFC 7009: revoking a refresh token ends the Connected app; revoking an access token ends that token. An unknown
// token is answered as revoked (200, §2.2) and changes nothing. A token issued to another client is never revoked
// (§2.1: the server verifies the token was issued to the requesting client); what the client is told follows
// oidc-provider's policy: an authenticated (confidential) client is refused `invalid_request`, while a public client,
// which proves nothing about who it is, gets the same 200 as for an unknown token so that nobody can probe for tokens.
import type { AppDeps, KnownApp } from './apps.service'
import { endConnectedApp } from './connections.service'
import { OAuthFault } from './errors'
import { endToken, findTokenByHash } from './oauth.repo'
import { sha256 } from './secrets'

export async function revokePresentedToken(
  d: AppDeps,
  app: Pick<KnownApp, 'id' | 'clientSecretHash'>,
  token: string,
): Promise<void> {
  if (token.length === 0 || token.length > 200) return
  const row = await findTokenByHash(d.db.read, sha256(token))
  if (!row) return
  if (row.appId !== app.id) {
    if (app.clientSecretHash)
      throw new OAuthFault('invalid_request', 'This client is not authorized to revoke the presented token.')
    return
  }
  if (row.kind === 'refresh') await endConnectedApp(d.db, d.clock, row.connectedAppId, 'revoked')
  else await d.db.write((tx) => endToken(tx, row.id, d.clock.now().toISOString(), 'revoked'))
}
