// OAuth apps: registered by their owner (CLI, application), registered dynamically (RFC 7591), or known by their
// Client ID Metadata Document (an https client_id whose JSON names the client, fetched under the webhook SSRF rules).
import type { Database, Tx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, NotFound } from '../../shared/errors'
import type { DocumentFetcher } from '../../adapters/document-fetch'
import { AddressRefused, checkAddress, type Resolver } from '../webhooks'
import { OAuthFault } from './errors'
import {
  deleteAppRow,
  deleteAppsOwnedBy,
  findAppByClientId,
  insertApp,
  redirectUrisOf,
  refreshMetadataApp,
  type OAuthAppRow,
} from './oauth.repo'
import { redirectUriFault } from './redirect-uris'
import { CLIENT_SECRET_PREFIX, newClientId, newSecret, sha256 } from './secrets'

export const MAX_REDIRECT_URIS = 10
const MAX_NAME = 100
/** A metadata document is kept a day, then fetched again when the app is next met at /oauth/authorize. */
const METADATA_KEPT_MS = 24 * 3600_000
const METADATA_TIMEOUT_MS = 5_000
const METADATA_MAX_BYTES = 16 * 1024

export interface AppDeps {
  db: Database
  clock: Clock
  resolve: Resolver
  fetcher: DocumentFetcher
  /** INVOICING_WEBHOOK_ALLOW_PRIVATE: metadata documents may then be fetched over http from private hosts (tests). */
  allowPrivate: boolean
  /**
   * Asked before a metadata document is fetched (not when one is kept): the OAuth door counts these per address, so
   * that nobody can make the server fetch, and keep, document after document. Absent: no limit (CLI, application).
   */
  mayFetchDocument?: () => boolean
}

/** An app as the authorization and token endpoints need it. */
export interface KnownApp {
  id: number
  clientId: string
  name: string
  kind: OAuthAppRow['kind']
  /** Null for a public client (PKCE alone; no secret). */
  clientSecretHash: string | null
  ownerPersonId: number | null
  redirectUris: string[]
}

function known(app: OAuthAppRow, redirectUris: string[]): KnownApp {
  return {
    id: app.id,
    clientId: app.clientId,
    name: app.name,
    kind: app.kind,
    clientSecretHash: app.clientSecretHash,
    ownerPersonId: app.ownerPersonId,
    redirectUris,
  }
}

/** `invoicing app create` and the profile's Apps: the secret is shown once (none for a public client). */
export async function createApp(
  db: Database,
  clock: Clock,
  input: { ownerPersonId: number; name: string; redirectUris: string[]; public: boolean },
): Promise<{
  client_id: string
  client_secret: string | null
  name: string
  redirect_uris: string[]
  public: boolean
}> {
  const bag = new FieldErrorBag()
  const name = input.name.trim()
  if (!name) bag.add('name', 'is required')
  else if (name.length > MAX_NAME) bag.add('name', `must be at most ${MAX_NAME} characters`)
  if (input.redirectUris.length === 0) bag.add('redirect_uris', 'at least one redirect URI is required')
  if (input.redirectUris.length > MAX_REDIRECT_URIS)
    bag.add('redirect_uris', `at most ${MAX_REDIRECT_URIS} redirect URIs`)
  input.redirectUris.forEach((u, i) => {
    const fault = redirectUriFault(u)
    if (fault) bag.add(`redirect_uris.${i}`, fault)
  })
  bag.throwIfAny()
  const uris = [...new Set(input.redirectUris)]
  const clientId = newClientId()
  const secret = input.public ? null : newSecret(CLIENT_SECRET_PREFIX)
  await db.write((tx) =>
    insertApp(
      tx,
      {
        clientId,
        name,
        kind: 'registered',
        ownerPersonId: input.ownerPersonId,
        clientSecretHash: secret ? sha256(secret) : null,
        createdAt: clock.now().toISOString(),
      },
      uris,
    ),
  )
  return { client_id: clientId, client_secret: secret, name, redirect_uris: uris, public: input.public }
}

/**
 * RFC 7591 dynamic registration: always a public client (PKCE, no secret), whatever authentication it asked for,
 * answered with the metadata as registered (§3.2.1). Refusals are §3.2.2's `invalid_redirect_uri` and
 * `invalid_client_metadata`.
 */
export async function registerClient(db: Database, clock: Clock, body: unknown): Promise<Record<string, unknown>> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new OAuthFault('invalid_client_metadata', 'The body must be a JSON object of client metadata.')
  const m = body as Record<string, unknown>
  const uris = m.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string')) {
    throw new OAuthFault('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URIs.')
  }
  if (uris.length > MAX_REDIRECT_URIS)
    throw new OAuthFault('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect URIs.`)
  for (const u of uris as string[]) {
    const fault = redirectUriFault(u)
    if (fault) throw new OAuthFault('invalid_redirect_uri', `${u} ${fault}.`)
  }
  const grantTypes = m.grant_types ?? ['authorization_code']
  if (!Array.isArray(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthFault('invalid_client_metadata', 'grant_types may hold only authorization_code and refresh_token.')
  }
  const responseTypes = m.response_types ?? ['code']
  if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== 'code'))
    throw new OAuthFault('invalid_client_metadata', 'response_types may hold only code.')
  const rawName = typeof m.client_name === 'string' ? m.client_name.trim() : ''
  if (rawName.length > MAX_NAME)
    throw new OAuthFault('invalid_client_metadata', `client_name must be at most ${MAX_NAME} characters.`)
  const name = rawName || new URL((uris as string[])[0]!).host
  const clientId = newClientId()
  const issuedAt = clock.now()
  const redirectUris = [...new Set(uris as string[])]
  await db.write((tx) =>
    insertApp(
      tx,
      {
        clientId,
        name,
        kind: 'dynamic',
        ownerPersonId: null,
        clientSecretHash: null,
        createdAt: issuedAt.toISOString(),
      },
      redirectUris,
    ),
  )
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(issuedAt.getTime() / 1000),
    client_name: name,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
}

/** True for a client_id that names its own metadata document (an https URL with a path). */
export function isMetadataClientId(clientId: string, allowPrivate: boolean): boolean {
  if (!clientId.startsWith('https://') && !(allowPrivate && clientId.startsWith('http://'))) return false
  try {
    return new URL(clientId).pathname.length > 1
  } catch {
    return false
  }
}

/**
 * The app a client_id names, or null when none: a registered or dynamic app from the table, or a metadata document
 * fetched (and kept a day) when the client_id is its https address. `fresh` fetches a kept document again once it is
 * older than a day (the authorization endpoint asks; the token endpoint takes what is kept).
 */
export async function findApp(d: AppDeps, clientId: string, opts: { fresh: boolean }): Promise<KnownApp | null> {
  if (clientId.length === 0 || clientId.length > 2000) return null
  const app = await findAppByClientId(d.db.read, clientId)
  const isDoc = isMetadataClientId(clientId, d.allowPrivate)
  if (
    app &&
    (!isDoc || !opts.fresh || (app.fetchedAt && d.clock.now().getTime() - Date.parse(app.fetchedAt) < METADATA_KEPT_MS))
  ) {
    return known(app, await redirectUrisOf(d.db.read, app.id))
  }
  if (!isDoc) return null
  // Over the limit the app is unknown for now: the authorization endpoint shows so and redirects nowhere.
  if (d.mayFetchDocument && !d.mayFetchDocument()) return null
  const doc = await fetchMetadataDocument(d, clientId)
  if (!doc) return null
  const at = d.clock.now().toISOString()
  const saved = await d.db.write(async (tx) => {
    const existing = await findAppByClientId(tx, clientId)
    if (existing) {
      await refreshMetadataApp(tx, existing.id, doc.name, doc.redirectUris, at)
      return { ...existing, name: doc.name, fetchedAt: at }
    }
    return insertApp(
      tx,
      {
        clientId,
        name: doc.name,
        kind: 'metadata_document',
        ownerPersonId: null,
        clientSecretHash: null,
        fetchedAt: at,
        createdAt: at,
      },
      doc.redirectUris,
    )
  })
  return known(saved, doc.redirectUris)
}

/**
 * Fetches and judges a Client ID Metadata Document: the address checked as a webhook's is (public addresses only,
 * pinned), JSON naming the same client_id, redirect URIs as registration takes them, and no secret (a document is
 * public, so it can only describe a public client). Null for anything else: the authorization endpoint then shows
 * "unknown client" and redirects nowhere.
 */
async function fetchMetadataDocument(
  d: AppDeps,
  clientId: string,
): Promise<{ name: string; redirectUris: string[] } | null> {
  let target: { url: URL; address: string }
  try {
    target = await checkAddress(clientId, { allowPrivate: d.allowPrivate, resolve: d.resolve })
  } catch (e) {
    if (e instanceof AddressRefused) return null
    throw e
  }
  const res = await d.fetcher.get({
    url: target.url,
    address: target.address,
    timeoutMs: METADATA_TIMEOUT_MS,
    maxBytes: METADATA_MAX_BYTES,
  })
  if (res.kind !== 'answer' || res.status !== 200 || !/json/i.test(res.contentType)) return null
  let doc: Record<string, unknown>
  try {
    doc = JSON.parse(res.body)
  } catch {
    return null
  }
  if (!doc || typeof doc !== 'object' || doc.client_id !== clientId) return null
  if (
    'client_secret' in doc ||
    (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none')
  )
    return null
  const uris = doc.redirect_uris
  if (
    !Array.isArray(uris) ||
    uris.length === 0 ||
    uris.length > MAX_REDIRECT_URIS ||
    !uris.every((u) => typeof u === 'string' && redirectUriFault(u) === null)
  )
    return null
  const name =
    typeof doc.client_name === 'string' && doc.client_name.trim()
      ? doc.client_name.trim().slice(0, MAX_NAME)
      : target.url.host
  return { name, redirectUris: [...new Set(uris as string[])] }
}

/** Deletes an app with everything it made: redirect URIs, codes, Connected apps, tokens (and its webhook). */
export async function deleteApp(db: Database, clientId: string): Promise<void> {
  await db.write(async (tx) => {
    const app = await findAppByClientId(tx, clientId)
    if (!app) throw new NotFound(`No OAuth app with client_id ${clientId}.`)
    await deleteAppRow(tx, app.id)
  })
}

/** The owner deleted: their apps go with everything they made (contract: "deleting ... the owner's account deletes the webhook and its deliveries"). */
export async function deleteAppsOfOwner(tx: Tx, personId: number): Promise<number> {
  return deleteAppsOwnedBy(tx, personId)
}
