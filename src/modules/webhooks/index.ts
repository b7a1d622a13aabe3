// The webhooks module's public face: other modules raise events through the outbox; jobs deliver them; the CLI manages them.
export { raiseEvent } from './outbox'
export { EVENT_TYPES, type EventType } from './events'
export { dispatchOutbox, deliverDue, pruneDeliveries, type DeliveryContext, type SubjectBuilder } from './delivery'
export {
  addWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  presentWebhook,
  resendDelivery,
  rollSecret,
  updateWebhook,
  type WebhookDeps,
} from './webhooks.service'
// What an OAuth app's webhook (the oauth module) shares with a Business's: address rules, secrets, the delivery engine.
export { AddressRefused, checkAddress, checkHost, isPublicAddress, type Resolver } from './address-guard'
export { newSecret as newWebhookSecret } from './signature'
export {
  deliverDueTo,
  DELIVERY_RETENTION_MS,
  hears,
  type Claimed,
  type DeliveryTarget,
  type EngineContext,
} from './engine'
export { claimDue, deliveryDueAt } from './webhooks.repo'
