// Opaque random tokens (sign-in links, sessions): shown once to their holder, stored only as a SHA-256 hash.
import { createHash, randomBytes } from 'node:crypto'

export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
