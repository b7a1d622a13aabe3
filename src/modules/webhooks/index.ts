// The webhooks module's public face: other modules raise events through the outbox; jobs deliver them; the CLI manages them.
export { raiseEvent } from './outbox'
export { EVENT_TYPES, type EventType } from './events'
export { dispatchOutbox, deliverDue, pruneDeliveries, type DeliveryContext, type SubjectBuilder } from './delivery'
export { addWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, presentWebhook, resendDelivery, rollSecret, updateWebhook, type WebhookDeps } from './webhooks.service'
