// Secrets at rest (webhook signing secrets, mailbox SMTP URLs): AES-256-GCM under the service's key, each value with
// its own random nonce and bound to what it is (a sealed webhook secret cannot be passed off as an SMTP URL).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const PREFIX = 'enc:v1:'
const NONCE = 12
const TAG = 16

export type SecretPurpose = 'webhook-secret' | 'smtp-url' | 'key-check'

class SecretBoxError extends Error {}

export interface SecretBox {
  seal(plain: string, purpose: SecretPurpose): string
  /** The plain value; a value stored before sealing existed (no prefix) is given back as it is, until it is sealed. */
  open(stored: string, purpose: SecretPurpose): string
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX)
}

/** Reads a key given as 64 hexadecimal digits or as base64/base64url of 32 bytes; null when it is neither. */
export function parseKey(text: string): Buffer | null {
  const t = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex')
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const b = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
    if (b.length === 32) return b
  }
  return null
}

export function newKeyText(): string {
  return randomBytes(32).toString('base64')
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('the secret key must be 32 bytes')
  return {
    seal(plain, purpose) {
      const nonce = randomBytes(NONCE)
      const cipher = createCipheriv('aes-256-gcm', key, nonce)
      cipher.setAAD(Buffer.from(purpose))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')
    },
    open(stored, purpose) {
      if (!isSealed(stored)) return stored
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url')
      if (raw.length < NONCE + TAG) throw new SecretBoxError('a sealed secret is cut short')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE))
      decipher.setAAD(Buffer.from(purpose))
      decipher.setAuthTag(raw.subarray(raw.length - TAG))
      try {
        return Buffer.concat([decipher.update(raw.subarray(NONCE, raw.length - TAG)), decipher.final()]).toString(
          'utf8',
        )
      } catch {
        throw new SecretBoxError('a sealed secret does not open with this key')
      }
    },
  }
}

/** Stands in until the key is known: any use is a fault of the start-up order, never a silent plaintext. */
export const lockedBox: SecretBox = {
  seal() {
    throw new SecretBoxError('the secret key has not been loaded')
  },
  open(stored) {
    if (!isSealed(stored)) return stored
    throw new SecretBoxError('the secret key has not been loaded')
  },
}
