// RFC 7009: revoking a refresh token ends the Connected app; revoking an access token ends that token. An unknown
// token, or one of another client, is answered as revoked (200) and changes nothing: the answer tells no one whether
// a token exists.
import type { AppDeps } from './apps.service'
import { endConnectedApp } from './connections.service'
import { endToken, findTokenByHash } from './oauth.repo'
import { sha256 } from './secrets'

export async function revokePresentedToken(d: AppDeps, appId: number, token: string): Promise<void> {
  if (token.length === 0 || token.length > 200) return
  const row = await findTokenByHash(d.db.read, sha256(token))
  if (!row || row.appId !== appId) return
  if (row.kind === 'refresh') await endConnectedApp(d.db, d.clock, row.connectedAppId, 'revoked')
  else await d.db.write((tx) => endToken(tx, row.id, d.clock.now().toISOString(), 'revoked'))
}
