// Standard Webhooks signing: secrets `whsec_` + base64, signatures `v1,` + base64 HMAC-SHA256 over id.timestamp.body.
import { createHmac, randomBytes } from 'node:crypto'

/** `whsec_` + 44 characters: base64 of 32 random bytes. */
export function newSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64')
}

export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  return 'v1,' + createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')
}

/** The webhook-signature header: the current secret's signature, and the previous one's while a roll overlaps. */
export function signatureHeader(secrets: string[], messageId: string, timestamp: number, body: string): string {
  return secrets.map((s) => sign(s, messageId, timestamp, body)).join(' ')
}
