// SQL of the oauth module: apps, redirect URIs, codes, Connected apps and tokens.
import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { Db, Queryable, Tx } from '../../db/client'
import type { HotReader } from '../../db/hot'
import { forgetBusinessForApp } from './app-webhooks.repo'
import {
  connectedApps,
  memberships,
  persons,
  oauthApps,
  oauthCodes,
  oauthRedirectUris,
  oauthTokens,
} from '../../db/schema'
import type { GrantRole, PersonRole } from './roles'

export type OAuthAppRow = typeof oauthApps.$inferSelect
export type OAuthCodeRow = typeof oauthCodes.$inferSelect
export type ConnectedAppRow = typeof connectedApps.$inferSelect
export type OAuthTokenRow = typeof oauthTokens.$inferSelect

// ---- Apps

export async function insertApp(
  tx: Tx,
  values: typeof oauthApps.$inferInsert,
  redirectUris: readonly string[],
): Promise<OAuthAppRow> {
  const app = await tx.insert(oauthApps).values(values).returning().get()
  if (redirectUris.length > 0)
    await tx.insert(oauthRedirectUris).values(redirectUris.map((uri) => ({ appId: app.id, uri })))
  return app
}

export async function findAppByClientId(q: Queryable, clientId: string): Promise<OAuthAppRow | undefined> {
  return q.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()
}

export async function redirectUrisOf(q: Queryable, appId: number): Promise<string[]> {
  const rows = await q
    .select({ uri: oauthRedirectUris.uri })
    .from(oauthRedirectUris)
    .where(eq(oauthRedirectUris.appId, appId))
  return rows.map((r) => r.uri)
}

/** A metadata document fetched again: its name and redirect URIs replace the kept ones. */
export async function refreshMetadataApp(
  tx: Tx,
  appId: number,
  name: string,
  redirectUris: readonly string[],
  fetchedAt: string,
): Promise<void> {
  await tx.update(oauthApps).set({ name, fetchedAt }).where(eq(oauthApps.id, appId))
  await tx.delete(oauthRedirectUris).where(eq(oauthRedirectUris.appId, appId))
  if (redirectUris.length > 0) await tx.insert(oauthRedirectUris).values(redirectUris.map((uri) => ({ appId, uri })))
}

/** Deletes an app; its redirect URIs, codes, Connected apps and tokens go with it (foreign keys cascade). */
export async function deleteAppRow(tx: Tx, appId: number): Promise<void> {
  await tx.delete(oauthApps).where(eq(oauthApps.id, appId))
}

/** Deletes every app a person owns (their redirect URIs, codes, Connected apps, tokens, webhook and deliveries cascade). */
export async function deleteAppsOwnedBy(tx: Tx, personId: number): Promise<number> {
  const gone = await tx.delete(oauthApps).where(eq(oauthApps.ownerPersonId, personId)).returning({ id: oauthApps.id })
  return gone.length
}

// ---- Codes

export async function insertCode(tx: Tx, values: typeof oauthCodes.$inferInsert): Promise<void> {
  await tx.insert(oauthCodes).values(values)
}

export async function findCodeByHash(q: Queryable, codeHash: string): Promise<OAuthCodeRow | undefined> {
  return q.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).get()
}

/** Marks the code used; false when another exchange used it first (a code is used once). */
export async function useCode(tx: Tx, codeId: number, at: string): Promise<boolean> {
  const r = await tx
    .update(oauthCodes)
    .set({ usedAt: at })
    .where(and(eq(oauthCodes.id, codeId), isNull(oauthCodes.usedAt)))
    .returning({ id: oauthCodes.id })
  return r.length === 1
}

export async function setCodeConnectedApp(tx: Tx, codeId: number, connectedAppId: number): Promise<void> {
  await tx.update(oauthCodes).set({ connectedAppId }).where(eq(oauthCodes.id, codeId))
}

/** Codes live 60 seconds; a day later nothing needs them (a reuse after a day finds no code and is refused anyway). */
export async function deleteCodesBefore(tx: Tx, before: string): Promise<void> {
  await tx.delete(oauthCodes).where(lt(oauthCodes.createdAt, before))
}

// ---- Connected apps

export async function insertConnectedApp(tx: Tx, values: typeof connectedApps.$inferInsert): Promise<ConnectedAppRow> {
  return tx.insert(connectedApps).values(values).returning().get()
}

export async function findConnectedApp(q: Queryable, id: number): Promise<ConnectedAppRow | undefined> {
  return q.select().from(connectedApps).where(eq(connectedApps.id, id)).get()
}

/** Ends Connected apps that still act, and every token they hold; answers the ids that ended now. */
export async function endConnectedApps(
  tx: Tx,
  where: ReturnType<typeof and>,
  at: string,
  reason: string,
): Promise<number[]> {
  const ended = await tx
    .update(connectedApps)
    .set({ endedAt: at, endReason: reason })
    .where(and(isNull(connectedApps.endedAt), where))
    .returning({ id: connectedApps.id })
  const ids = ended.map((r) => r.id)
  if (ids.length === 0) return ids
  await tx
    .update(oauthTokens)
    .set({ endedAt: at, endReason: reason })
    .where(and(inArray(oauthTokens.connectedAppId, ids), isNull(oauthTokens.endedAt)))
  // Where the app has no other connection left in that Business, its webhook stops hearing it at once.
  const pairs = await tx
    .selectDistinct({ appId: connectedApps.appId, businessId: connectedApps.businessId })
    .from(connectedApps)
    .where(inArray(connectedApps.id, ids))
  for (const p of pairs) {
    const still = await tx
      .select({ id: connectedApps.id })
      .from(connectedApps)
      .where(
        and(
          eq(connectedApps.appId, p.appId),
          eq(connectedApps.businessId, p.businessId),
          isNull(connectedApps.endedAt),
        ),
      )
      .get()
    if (!still) await forgetBusinessForApp(tx, p.appId, p.businessId, at)
  }
  return ids
}

/** The connecting person's membership that lets a connection act: only an active one (a pending one gives no access). */
export const memberOfConnection = and(
  eq(memberships.personId, connectedApps.personId),
  eq(memberships.businessId, connectedApps.businessId),
  eq(memberships.state, 'active'),
)

export const connectedAppIs = (id: number) => eq(connectedApps.id, id)
export const connectedAppsOfBusiness = (businessId: number) => eq(connectedApps.businessId, businessId)
export const connectedAppsOfPersonIn = (personId: number, businessId: number) =>
  and(eq(connectedApps.personId, personId), eq(connectedApps.businessId, businessId))
export const connectedAppsOfApp = (appId: number) => eq(connectedApps.appId, appId)
/** Connections last used before the cut-off (90 days of no API call and no message taken). */
export const connectedAppsUnusedSince = (cutoff: string) => lt(connectedApps.lastUsedAt, cutoff)

/** A Business's Connected apps that still act, with their app, oldest first, for the API's list. */
export async function connectedAppsPage(q: Queryable, businessId: number, afterId: number, limit: number) {
  return q
    .select({ c: connectedApps, app: { clientId: oauthApps.clientId, name: oauthApps.name }, personName: persons.name })
    .from(connectedApps)
    .innerJoin(oauthApps, eq(oauthApps.id, connectedApps.appId))
    .innerJoin(memberships, memberOfConnection)
    .innerJoin(persons, eq(persons.id, connectedApps.personId))
    .where(and(eq(connectedApps.businessId, businessId), isNull(connectedApps.endedAt), gt(connectedApps.id, afterId)))
    .orderBy(asc(connectedApps.id))
    .limit(limit)
}

/** Marks connections used (an API call or a message taken); only ever moves last_used_at forward. */
export async function touchConnectedApps(tx: Tx, ids: readonly number[], at: string): Promise<void> {
  if (ids.length === 0) return
  await tx
    .update(connectedApps)
    .set({ lastUsedAt: at })
    .where(and(inArray(connectedApps.id, [...ids]), lt(connectedApps.lastUsedAt, at)))
}

/** Counts a use of the app's live connections to a Business (a message its webhook took). */
export async function touchLiveConnections(tx: Tx, appId: number, businessId: number, at: string): Promise<void> {
  const live = await tx
    .select({ id: connectedApps.id })
    .from(connectedApps)
    .where(and(eq(connectedApps.appId, appId), eq(connectedApps.businessId, businessId), isNull(connectedApps.endedAt)))
  await touchConnectedApps(
    tx,
    live.map((l) => l.id),
    at,
  )
}

// ---- Tokens

export async function insertTokens(tx: Tx, rows: (typeof oauthTokens.$inferInsert)[]): Promise<void> {
  await tx.insert(oauthTokens).values(rows)
}

export async function findTokenByHash(
  q: Queryable,
  tokenHash: string,
): Promise<(OAuthTokenRow & { appId: number; connectionEndedAt: string | null }) | undefined> {
  const row = await q
    .select({ t: oauthTokens, appId: connectedApps.appId, connectionEndedAt: connectedApps.endedAt })
    .from(oauthTokens)
    .innerJoin(connectedApps, eq(connectedApps.id, oauthTokens.connectedAppId))
    .where(eq(oauthTokens.tokenHash, tokenHash))
    .get()
  return row ? { ...row.t, appId: row.appId, connectionEndedAt: row.connectionEndedAt } : undefined
}

/** Ends one token that still acts; false when it had already ended (rotated by a concurrent refresh, or revoked). */
export async function endToken(tx: Tx, tokenId: number, at: string, reason: string): Promise<boolean> {
  const r = await tx
    .update(oauthTokens)
    .set({ endedAt: at, endReason: reason })
    .where(and(eq(oauthTokens.id, tokenId), isNull(oauthTokens.endedAt)))
    .returning({ id: oauthTokens.id })
  return r.length === 1
}

/** Tokens of connections that ended, and access tokens past their hour by a day, are no longer needed. */
export async function deleteDeadTokens(tx: Tx, before: string): Promise<void> {
  await tx.delete(oauthTokens).where(and(eq(oauthTokens.kind, 'access'), lt(oauthTokens.expiresAt, before)))
}

// ---- The hot path: an access token on every request

export interface AccessTokenRow {
  tokenId: number
  resources: string
  expiresAt: string
  connectedAppId: number
  role: GrantRole
  /** The connecting person's own Role now: the app never acts above it. */
  memberRole: PersonRole
  personId: number
  lastUsedAt: string
  appName: string
  clientId: string
  businessId: number
  businessPublicId: string
  plan: 'free' | 'pro' | 'pro_plus' | 'paused'
  isTest: number | boolean
  currency: string
}

const ACCESS_SQL = `SELECT t.id AS tokenId, t.resources AS resources, t.expires_at AS expiresAt, c.id AS connectedAppId, c.role AS role,
  m.role AS memberRole, c.person_id AS personId, c.last_used_at AS lastUsedAt, a.name AS appName, a.client_id AS clientId,
  b.id AS businessId, b.public_id AS businessPublicId, b.plan AS plan, b.is_test AS isTest, b.currency AS currency
  FROM oauth_tokens t JOIN connected_apps c ON c.id = t.connected_app_id JOIN oauth_apps a ON a.id = c.app_id
  JOIN businesses b ON b.id = c.business_id
  JOIN memberships m ON m.person_id = c.person_id AND m.business_id = c.business_id AND m.state = 'active'
  WHERE t.token_hash = ? AND t.kind = 'access' AND t.ended_at IS NULL AND c.ended_at IS NULL AND b.deleted_at IS NULL`

/** The access token lookup by hash, prepared once like the API key's: one indexed read, synchronous on the hot reader. */
export function accessTokenByHash(
  db: Db,
  hot: HotReader | null,
): (tokenHash: string) => AccessTokenRow | undefined | Promise<AccessTokenRow | undefined> {
  if (hot) return (tokenHash) => hot.get<AccessTokenRow>(ACCESS_SQL, tokenHash)
  return async (tokenHash) => {
    const [before, after] = ACCESS_SQL.split('?') as [string, string]
    const r = await db.all<AccessTokenRow>(sql`${sql.raw(before)}${tokenHash}${sql.raw(after)}`)
    return r[0]
  }
}
