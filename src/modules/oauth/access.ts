// A Connected app's access token on a request: resolved into an Actor of kind connected_app with one indexed read
// (synchronous on the hot reader, as an API key's is), or null when the token no longer acts.
import type { Db } from '../../db/client'
import type { HotReader } from '../../db/hot'
import type { Actor } from '../../platform/actor'
import type { Clock } from '../../shared/clock'
import { UNUSED_DAYS, type ConnectionUsage } from './connections.service'
import { accessTokenByHash, type AccessTokenRow } from './oauth.repo'
import { lowerTo } from './roles'
import { ACCESS_PREFIX, sha256 } from './secrets'

const UNUSED_MS = UNUSED_DAYS * 24 * 3600_000

export function isAccessToken(presented: string): boolean {
  return presented.startsWith(ACCESS_PREFIX)
}

/**
 * Resolves access tokens issued for `resource` (RFC 8707: `{public_url}/v1` on the API, `{public_url}/mcp` on the MCP
 * server). A token past its hour, of a connection unused for 90 days (before the daily job has ended it), or for
 * another resource answers null: the door's 401. A use is recorded in the background (ConnectionUsage).
 */
export function accessTokenLookup(
  db: Db,
  hot: HotReader | null,
  clock: Clock,
  usage: ConnectionUsage | null,
  resource: string,
): (token: string) => Actor | null | Promise<Actor | null> {
  const byHash = accessTokenByHash(db, hot)
  const judge = (row: AccessTokenRow | undefined): Actor | null => {
    if (!row) return null
    const now = clock.now().getTime()
    if (Date.parse(row.expiresAt) <= now) return null
    if (Date.parse(row.lastUsedAt) + UNUSED_MS <= now) return null
    if (!(JSON.parse(row.resources) as string[]).includes(resource)) return null
    usage?.used(row.connectedAppId, row.lastUsedAt)
    return {
      businessId: row.businessId,
      businessPublicId: row.businessPublicId,
      currency: row.currency,
      plan: row.plan,
      isTest: row.isTest === 1 || row.isTest === true,
      role: lowerTo(row.role, row.memberRole),
      // The Owner's own app: the MCP server and the application open more to it on the Free plan (§11).
      owner: row.memberRole === 'owner',
      kind: 'connected_app',
      credentialId: row.connectedAppId,
      name: row.appName,
    }
  }
  return (token) => {
    if (!isAccessToken(token) || token.length > 200) return null
    const row = byHash(sha256(token))
    return row instanceof Promise ? row.then(judge) : judge(row)
  }
}
