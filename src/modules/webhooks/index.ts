// The webhooks module's public face: other modules raise events through the outbox.
export { raiseEvent } from './outbox'
export { EVENT_TYPES, type EventType } from './events'
