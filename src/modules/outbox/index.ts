// A Test business's outbox (issue 32): the mailer that keeps its emails to Clients in place of sending them, and
// the reads the application shows. Used by the composition root (keepingOutbox) and the operations table.
export { keepingOutbox, NO_MESSAGE, OUTBOX_KEEP, type KeptMessage, type KeptSummary } from './outbox.service'
