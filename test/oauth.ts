// Test support: a Connected app made the way a real app makes one (app, consent code, PKCE exchange at the token
// endpoint), for tests of what a token does on the API and MCP.
import { createHash, randomBytes } from 'node:crypto'
import type { Harness } from './harness'
import { publicBaseUrl } from '../src/config'
import { createApp, issueCode, type GrantRole } from '../src/modules/oauth'
import { addMember, addPerson, findPerson } from '../src/modules/people'
import { desc, eq } from 'drizzle-orm'
import { connectedApps, oauthApps } from '../src/db/schema'

export const TEST_REDIRECT = 'https://app.example/callback'

export interface Connection {
  clientId: string
  appId: number
  access: string
  refresh: string
  connectedAppId: number
}

export async function connectApp(
  h: Harness,
  o: {
    businessId: number
    role?: GrantRole
    /** The connecting person (made if new) and their Role in the Business (default admin). */
    email?: string
    memberRole?: 'owner' | 'admin' | 'member' | 'viewer'
    name?: string
    resources?: string[]
    clientId?: string
    /** A confidential app's secret, sent as client_secret_post. */
    clientSecret?: string
  },
): Promise<Connection & { personId: number; email: string }> {
  const email = o.email ?? 'connector@people.example'
  const person =
    (await findPerson(h.deps, email)) ?? (await addPerson(h.deps, { email, name: `Person ${email}` })).person
  await addMember(h.deps, o.businessId, { email, role: o.memberRole ?? 'admin' })
  const personId = person.id
  const issuer = publicBaseUrl(h.deps.config)
  const clientId =
    o.clientId ??
    (
      await createApp(h.deps.db, h.clock, {
        ownerPersonId: personId,
        name: o.name ?? 'Books Sync',
        redirectUris: [TEST_REDIRECT],
        public: true,
      })
    ).client_id
  const app = await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()
  const verifier = randomBytes(32).toString('base64url')
  const code = await issueCode(h.deps.db, h.clock, {
    appId: app!.id,
    businessId: o.businessId,
    personId,
    role: o.role ?? 'member',
    redirectUri: TEST_REDIRECT,
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    resources: o.resources ?? [`${issuer}/v1`, `${issuer}/mcp`],
  })
  const res = await h.app.fetch(
    new Request(`${issuer}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: TEST_REDIRECT,
        client_id: clientId,
        ...(o.clientSecret ? { client_secret: o.clientSecret } : {}),
      }),
    }),
  )
  const t: any = await res.json()
  if (res.status !== 200) throw new Error(`token refused: ${JSON.stringify(t)}`)
  const c = await h.deps.db.read.select().from(connectedApps).orderBy(desc(connectedApps.id)).limit(1).get()
  return {
    clientId,
    appId: app!.id,
    access: t.access_token,
    refresh: t.refresh_token,
    connectedAppId: c!.id,
    personId,
    email,
  }
}

/** A refresh at the token endpoint; answers the status and body. */
export async function refreshAt(
  h: Harness,
  c: Pick<Connection, 'clientId' | 'refresh'>,
): Promise<{ status: number; body: any }> {
  const issuer = publicBaseUrl(h.deps.config)
  const res = await h.app.fetch(
    new Request(`${issuer}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId }),
    }),
  )
  return { status: res.status, body: await res.json() }
}
