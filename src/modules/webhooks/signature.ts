// Standard Webhooks signing: secrets `whsec_` + base64, signatures `v1,` + base64 HMAC-SHA256 over id.timestamp.body,
// made by the `standardwebhooks` library's own signer, the same code that receivers verify with.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

/** `whsec_` + 44 characters: base64 of 32 random bytes. */
export function newSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64')
}

/** `timestamp` in whole seconds, as the webhook-timestamp header carries it. */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  return new Webhook(secret).sign(messageId, new Date(timestamp * 1000), body)
}

/** The webhook-signature header: the current secret's signature, and the previous one's while a roll overlaps. */
export function signatureHeader(secrets: string[], messageId: string, timestamp: number, body: string): string {
  return secrets.map((s) => sign(s, messageId, timestamp, body)).join(' ')
}
