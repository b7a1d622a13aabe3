// Connected apps: consent made into a code, a code into a connection, and every way a connection ends.
import { and } from 'drizzle-orm'
import type { Database, Tx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { NotFound } from '../../shared/errors'
import {
  connectedAppIs,
  connectedAppsOfApp,
  connectedAppsOfBusiness,
  connectedAppsOfPersonIn,
  connectedAppsPage,
  connectedAppsUnusedSince,
  deleteCodesBefore,
  deleteDeadTokens,
  endConnectedApps,
  findConnectedApp,
  insertCode,
  touchConnectedApps,
} from './oauth.repo'
import { CODE_PREFIX, newSecret, sha256 } from './secrets'

import type { GrantRole } from './roles'
export type { GrantRole } from './roles'

export const CODE_SECONDS = 60
export const ACCESS_TOKEN_SECONDS = 3600
/** 90 days with no API call and no message taken end a connection (counted from the connection or its last use). */
export const UNUSED_DAYS = 90
const DAY_MS = 24 * 3600_000

/** Why a Connected app ended; kept on the row, never shown to the app (it only ever sees 401 / invalid_grant). */
export type EndReason =
  | 'disconnected'
  | 'revoked'
  | 'refresh_token_reused'
  | 'code_reused'
  | 'unused'
  | 'membership_removed'
  | 'business_deleted'

/** Consent approved: a code for the app to exchange once within 60 seconds, bound to the PKCE challenge. */
export async function issueCode(
  db: Database,
  clock: Clock,
  g: {
    appId: number
    businessId: number
    personId: number
    role: GrantRole
    redirectUri: string
    codeChallenge: string
    resources: string[]
  },
): Promise<string> {
  const code = newSecret(CODE_PREFIX)
  const now = clock.now()
  await db.write((tx) =>
    insertCode(tx, {
      codeHash: sha256(code),
      appId: g.appId,
      businessId: g.businessId,
      personId: g.personId,
      role: g.role,
      redirectUri: g.redirectUri,
      codeChallenge: g.codeChallenge,
      resources: JSON.stringify(g.resources),
      expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000).toISOString(),
      createdAt: now.toISOString(),
    }),
  )
  return code
}

/** Ends one Connected app and every token it holds; true when it was still acting. */
export async function endConnectedApp(db: Database, clock: Clock, id: number, reason: EndReason): Promise<boolean> {
  const ended = await db.write((tx) => endConnectedApps(tx, connectedAppIs(id), clock.now().toISOString(), reason))
  return ended.length > 0
}

/** `DELETE /v1/connected-apps/{id}` and disconnect in the application: only a connection of this Business. */
export async function disconnectConnectedApp(
  db: Database,
  clock: Clock,
  businessId: number,
  id: number,
): Promise<void> {
  await db.write(async (tx) => {
    const c = await findConnectedApp(tx, id)
    if (!c || c.businessId !== businessId || c.endedAt) throw new NotFound(`No Connected app with id ${id}.`)
    await endConnectedApps(tx, connectedAppIs(id), clock.now().toISOString(), 'disconnected')
  })
}

/** Membership removed (or the person deleted): every app that person connected in that Business ends at once. */
export async function endConnectionsOfMember(tx: Tx, personId: number, businessId: number, at: string): Promise<void> {
  await endConnectedApps(tx, connectedAppsOfPersonIn(personId, businessId), at, 'membership_removed')
}

/** `invoicing business delete`: the Business's Connected apps stop at once. */
export async function endConnectionsOfBusiness(tx: Tx, businessId: number, at: string): Promise<void> {
  await endConnectedApps(tx, connectedAppsOfBusiness(businessId), at, 'business_deleted')
}

/**
 * The daily job: connections unused for 90 days end; codes older than a day and access tokens a day past their hour
 * are deleted (nothing can use them). Answers how many connections ended.
 */
export async function expireConnections(db: Database, clock: Clock): Promise<number> {
  const now = clock.now()
  const cutoff = new Date(now.getTime() - UNUSED_DAYS * DAY_MS).toISOString()
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString()
  return db.write(async (tx) => {
    const ended = await endConnectedApps(tx, connectedAppsUnusedSince(cutoff), now.toISOString(), 'unused')
    await deleteCodesBefore(tx, dayAgo)
    await deleteDeadTokens(tx, dayAgo)
    return ended.length
  })
}

/** A Business's Connected apps for `GET /v1/connected-apps`, oldest first: those that still act (their person a member). */
export async function connectedAppsOf(db: Database, businessId: number, afterId: number, limit: number) {
  const rows = await connectedAppsPage(db.read, businessId, afterId, limit)
  return rows.map(({ c, app, personName }) => ({
    id: c.id,
    app: { client_id: app.clientId, name: app.name },
    role: c.role,
    connected_by: { name: personName },
    connected_at: c.connectedAt,
    last_used_at: c.lastUsedAt,
  }))
}

/**
 * Use of a connection (an API call, a message taken) moves last_used_at forward. Only the 90-day rule reads it, so a
 * connection is written at most once an hour, in the background: the request that used it never waits for a write.
 */
export class ConnectionUsage {
  private pending = new Map<number, string>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private flushing: Promise<void> = Promise.resolve()
  constructor(
    private db: Database,
    private clock: Clock,
    private onError: (e: unknown) => void = () => {},
  ) {}

  /** Marks the connection used now when its stored last use is more than an hour old. */
  used(connectedAppId: number, lastUsedAt: string): void {
    const now = this.clock.now()
    if (now.getTime() - Date.parse(lastUsedAt) < 3600_000) return
    this.pending.set(connectedAppId, now.toISOString())
    this.timer ??= setTimeout(() => void this.flush(), 50)
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const batch = this.pending
    this.pending = new Map()
    const byTime = new Map<string, number[]>()
    for (const [id, at] of batch) byTime.set(at, [...(byTime.get(at) ?? []), id])
    this.flushing = this.flushing.then(async () => {
      try {
        for (const [at, ids] of byTime) await this.db.write((tx) => touchConnectedApps(tx, ids, at))
      } catch (e) {
        this.onError(e)
      }
    })
    return this.flushing
  }
}
