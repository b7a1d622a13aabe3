// The OAuth secrets this server hands out (codes, tokens, client secrets): random, prefixed, kept only as SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const ACCESS_PREFIX = 'inv_at_'
export const REFRESH_PREFIX = 'inv_rt_'
export const CODE_PREFIX = 'inv_ac_'
export const CLIENT_SECRET_PREFIX = 'inv_cs_'
export const CLIENT_ID_PREFIX = 'app_'

/** 256 random bits behind a visible prefix: recognisable in configs and leaks, and never guessable. */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url')
}

/** A client_id: public, but random so that ids of other apps cannot be walked. */
export function newClientId(): string {
  return CLIENT_ID_PREFIX + randomBytes(12).toString('base64url')
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** Compares a presented secret with a stored hash without telling, by timing, how much of it matched. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(presented), 'hex')
  const b = Buffer.from(storedHash, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}

/** RFC 7636 §4.2: code_challenge = BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url')
}
