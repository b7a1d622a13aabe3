// Raising an event: an outbox row written in the same transaction as the change, so only committed changes are heard.
import { randomBytes } from 'node:crypto'
import type { SqlTx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { subjectOf, type EventType } from './events'
import { insertOutboxEvent } from './webhooks.repo'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** `msg_` + 26 characters: 10 of time (ms, sortable) and 16 random, Crockford base32 like a ULID. */
export function messageId(at: Date): string {
  let time = at.getTime()
  let head = ''
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head
    time = Math.floor(time / 32)
  }
  const bytes = randomBytes(16)
  let tail = ''
  for (let i = 0; i < 16; i++) tail += CROCKFORD[bytes[i]! % 32]
  return `msg_${head}${tail}`
}

/** UTC ISO 8601 with microseconds, as the message's `timestamp`. */
export function microTimestamp(at: Date): string {
  return at.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

export async function raiseEvent(
  tx: SqlTx,
  clock: Clock,
  businessId: number,
  type: EventType,
  subjectId: number,
): Promise<void> {
  const at = clock.now()
  await insertOutboxEvent(tx, {
    businessId,
    type,
    subjectType: subjectOf(type),
    subjectId,
    messageId: messageId(at),
    occurredAt: microTimestamp(at),
  })
}
