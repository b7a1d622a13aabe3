// The oauth module's public face: apps, consent codes, Connected apps, tokens, and the documents of discovery.
export { accessTokenLookup, isAccessToken } from './access'
export {
  deliverDueAppWebhooks,
  dispatchAppWebhooks,
  pruneAppDeliveries,
  setAppWebhook,
  type AppDeliveryContext,
  type AppWebhookDeps,
} from './app-webhooks'
export {
  createApp,
  deleteApp,
  deleteAppsOfOwner,
  findApp,
  registerClient,
  isMetadataClientId,
  type AppDeps,
  type KnownApp,
} from './apps.service'
export { authenticateClient, type PresentedClient } from './client-auth'
export {
  ACCESS_TOKEN_SECONDS,
  CODE_SECONDS,
  UNUSED_DAYS,
  ConnectionUsage,
  connectedAppsOf,
  disconnectConnectedApp,
  endConnectedApp,
  endConnectionsOfBusiness,
  endConnectionsOfMember,
  expireConnections,
  issueCode,
  type EndReason,
  type GrantRole,
} from './connections.service'
export { OAuthFault } from './errors'
export { authorizationServerMetadata, issuerOf, protectedResourceMetadata, resourcesOf, SCOPES } from './metadata'
export { redirectUriFault, redirectUriMatches } from './redirect-uris'
export { revokePresentedToken } from './revocation'
export { ACCESS_PREFIX, REFRESH_PREFIX, s256, sha256 } from './secrets'
// tokenModel is imported from './token-model' by the OAuth door alone: it brings @node-oauth/oauth2-server (about
// 18 MB), which a server loads with its first OAuth request rather than at start.
export { asGrant, grantable, isGrantRole, lowerTo, lowestRole, type PersonRole } from './roles'
export {
  answerUrl,
  judgeAuthorization,
  offeredRoles,
  SINGLE_PARAMETERS,
  type AuthorizationRequest,
  type Judged,
} from './authorize'
export {
  appsOfOwner,
  deleteOwnedApp,
  deleteOwnedAppWebhook,
  ownedApp,
  ownedAppDeliveries,
  pauseOwnedAppWebhook,
  redirectUriLines,
  registerOwnedApp,
  resendOwnedAppDelivery,
  rollClientSecret,
  setOwnedAppWebhook,
  updateOwnedApp,
  type AppDeliveryView,
  type OwnedAppView,
} from './owned-apps.service'
