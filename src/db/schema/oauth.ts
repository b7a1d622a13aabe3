// OAuth 2.1 (extensions §10): OAuth apps and their redirect URIs, authorization codes, Connected apps and their tokens.
import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core'
import { KEY_ROLES } from '../../shared/roles'
import { businessId, id, timestamps } from './columns'
import { deliveryAttempts, deliveryState, webhookEndpoint } from './webhook-columns'

/**
 * An OAuth app: registered by its owner (a person), registered dynamically (RFC 7591, public, no owner), or known by
 * its Client ID Metadata Document (an https client_id, fetched and kept here).
 * owner_person_id names a person of §8; it has no foreign key because people live in their own aggregate, whose
 * deletion calls the oauth module to delete the person's apps (and with them their webhooks and deliveries).
 */
export const oauthApps = sqliteTable(
  'oauth_apps',
  {
    id: id(),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['registered', 'dynamic', 'metadata_document'] }).notNull(),
    ownerPersonId: integer('owner_person_id'),
    /** SHA-256 of the client secret; null for a public client. */
    clientSecretHash: text('client_secret_hash'),
    /** When a metadata document was last fetched (kept a day, then fetched again on the next authorization). */
    fetchedAt: text('fetched_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('oauth_apps_client_id').on(t.clientId), index('oauth_apps_owner').on(t.ownerPersonId)],
)

/** The OAuth app the row belongs to, and goes with it. */
function appId() {
  return integer('app_id')
    .notNull()
    .references(() => oauthApps.id, { onDelete: 'cascade' })
}

/**
 * A person's consent, which a code carries and its exchange makes a Connected app: the app, the Business it may act
 * in, the person, and the Role granted (a Connected app acts with the lower of this and the person's own Role).
 */
function consent() {
  return {
    appId: appId(),
    businessId: businessId(),
    personId: integer('person_id').notNull(),
    role: text('role', { enum: KEY_ROLES }).notNull(),
  }
}

/** Each redirect URI an app registered, matched exactly (a loopback http URI's port may vary, RFC 8252 §7.3). */
export const oauthRedirectUris = sqliteTable(
  'oauth_redirect_uris',
  {
    appId: appId(),
    uri: text('uri').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.uri] })],
)

/** A person's consent, as a code the app exchanges once within 60 seconds. Stored only hashed. */
export const oauthCodes = sqliteTable(
  'oauth_codes',
  {
    id: id(),
    codeHash: text('code_hash').notNull(),
    ...consent(),
    redirectUri: text('redirect_uri').notNull(),
    /** S256 only: the base64url SHA-256 of the verifier. */
    codeChallenge: text('code_challenge').notNull(),
    /** JSON array of the resources (RFC 8707) the tokens may be issued for. */
    resources: text('resources').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    /** The Connected app its exchange made: a second use of the code ends it (every token issued from the code). */
    connectedAppId: integer('connected_app_id'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('oauth_codes_hash').on(t.codeHash), index('oauth_codes_created').on(t.createdAt)],
)

/** An OAuth app connected by a person to one Business with a Role; it acts until it ends (ended_at, end_reason). */
export const connectedApps = sqliteTable(
  'connected_apps',
  {
    id: id(),
    ...consent(),
    connectedAt: text('connected_at').notNull(),
    /** The last API call or message taken; 90 days after it (or after connected_at) the connection ends. */
    lastUsedAt: text('last_used_at').notNull(),
    endedAt: text('ended_at'),
    /** disconnected, revoked, refresh_token_reused, code_reused, unused, membership_removed, business_deleted. */
    endReason: text('end_reason'),
  },
  (t) => [
    index('connected_apps_business').on(t.businessId, t.id),
    index('connected_apps_app').on(t.appId, t.businessId),
    index('connected_apps_person').on(t.personId, t.businessId),
  ],
)

/** Access (`inv_at_`, one hour) and refresh (`inv_rt_`, rotated on every use) tokens; only their SHA-256 is kept. */
export const oauthTokens = sqliteTable(
  'oauth_tokens',
  {
    id: id(),
    connectedAppId: integer('connected_app_id')
      .notNull()
      .references(() => connectedApps.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** JSON array of resources (RFC 8707): `{public_url}/v1`, `{public_url}/mcp`. */
    resources: text('resources').notNull(),
    expiresAt: text('expires_at'),
    createdAt: text('created_at').notNull(),
    /** Set when revoked, or (a refresh token) rotated: presenting a rotated refresh token ends the Connected app. */
    endedAt: text('ended_at'),
    endReason: text('end_reason'),
  },
  (t) => [uniqueIndex('oauth_tokens_hash').on(t.tokenHash), index('oauth_tokens_connected_app').on(t.connectedAppId)],
)

/**
 * An OAuth app's own webhook (one per app): hears every Business in which the app has a Connected app that may act.
 * A message is built at its first attempt and kept; each attempt answers its document's actions anew for the app's Role
 * there (the lowest among its connections).
 */
export const appWebhooks = sqliteTable('app_webhooks', {
  id: id(),
  appId: appId().unique(),
  ...webhookEndpoint(),
  /** The last failure email to the app's owner: at most one a day. */
  failureEmailedAt: text('failure_emailed_at'),
  ...timestamps(),
})

/** One message about one Business to an app's webhook. Its body is erased when the app leaves that Business. */
export const appWebhookDeliveries = sqliteTable(
  'app_webhook_deliveries',
  {
    id: id(),
    appWebhookId: integer('app_webhook_id')
      .notNull()
      .references(() => appWebhooks.id, { onDelete: 'cascade' }),
    businessId: businessId(),
    /** The outbox event it carries (the body is built from it at the first attempt). */
    outboxId: integer('outbox_id').notNull(),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The body as built at the first attempt (a resend copies it); null before it and once erased. */
    body: text('body'),
    ...deliveryState(),
    ...timestamps(),
  },
  (t) => [
    index('app_webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('app_webhook_deliveries_hook').on(t.appWebhookId, t.businessId),
    index('app_webhook_deliveries_created').on(t.createdAt),
  ],
)

export const appWebhookAttempts = deliveryAttempts('app_webhook_attempts', () => appWebhookDeliveries.id)
