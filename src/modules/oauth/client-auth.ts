// Client authentication at the token and revocation endpoints: client_secret_basic, client_secret_post, or none (a
// public client names itself and proves nothing but PKCE).
import { findApp, type AppDeps, type KnownApp } from './apps.service'
import { OAuthFault } from './errors'
import { secretMatches } from './secrets'

export interface PresentedClient {
  clientId: string | undefined
  clientSecret: string | undefined
  /** True when the credentials came in the Authorization header: a failure is then 401 with WWW-Authenticate. */
  viaHeader: boolean
}

/** The app, or `invalid_client` (RFC 6749 §5.2). */
export async function authenticateClient(d: AppDeps, c: PresentedClient): Promise<KnownApp> {
  const refuse = () => new OAuthFault('invalid_client', 'Client authentication failed.', c.viaHeader ? 401 : 400)
  if (!c.clientId) throw refuse()
  const app = await findApp(d, c.clientId, { fresh: false })
  if (!app) throw refuse()
  if (app.clientSecretHash) {
    if (!c.clientSecret || !secretMatches(c.clientSecret, app.clientSecretHash)) throw refuse()
  } else if (c.clientSecret) throw refuse()
  return app
}
