// An OAuthClientProvider for the MCP SDK's own OAuth client, kept in memory as an assistant keeps one; the tests say
// how the person consents (in-process or over a real socket).
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { csrfOf, type AppClient } from './app-client'

export const REDIRECT = 'http://127.0.0.1:47123/callback'

/** An OAuthClientProvider as an assistant keeps one: in memory; the redirect is `consent`, a person consenting. */
export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  readonly sentState = 'st-' + crypto.randomUUID()
  authorizationUrl: URL | null = null
  arrived: URL | null = null
  constructor(private readonly consent: (authorizationUrl: URL) => Promise<URL>) {}
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Desk Assistant',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  state() {
    return this.sentState
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
    this.arrived = await this.consent(url)
  }
  /** What the SDK asks a provider to forget after invalid_grant (tokens) or invalid_client (everything). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined
    if (scope === 'all' || scope === 'client') this.info = undefined
    if (scope === 'all' || scope === 'verifier') this.verifier = ''
  }
  saveCodeVerifier(v: string) {
    this.verifier = v
  }
  codeVerifier() {
    return this.verifier
  }
}

/** A signed-in person's browser opens the authorization URL, is sent to consent, and approves `role` for `business`. */
export async function approveOnConsentPage(
  browser: AppClient,
  authorizationUrl: URL,
  business: string,
  role: string,
): Promise<URL> {
  const toConsent = await browser.get(authorizationUrl.pathname + authorizationUrl.search)
  if (toConsent.status !== 303) throw new Error(`authorize answered ${toConsent.status}`)
  const page = await browser.get(toConsent.location!)
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}`)
  const fields: Record<string, string[]> = {}
  for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    ;(fields[m[1]!] ??= []).push(
      m[2]!.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    )
  }
  const answer = await browser.request('POST', '/app/connect', {
    ...fields,
    _csrf: csrfOf(page.text),
    business,
    role,
    decision: 'approve',
  })
  if (answer.status !== 303) throw new Error(`consent answered ${answer.status}`)
  return new URL(answer.location!)
}
