// Password hashing: argon2id through Bun.password, at OWASP's smallest recommended cost (19 MiB, 2 passes), so a
// sign-in costs tens of milliseconds and little memory on a small server.
export const MIN_PASSWORD_LENGTH = 10
/** Above this a password is refused before hashing: nobody types more, and hashing megabytes is a cheap attack. */
export const MAX_PASSWORD_LENGTH = 1000

const OPTIONS = { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 } as const

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, OPTIONS)
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash)
}

let dummy: Promise<string> | null = null
/**
 * A hash checked when the email is unknown or has no password yet, so the answer takes as long as for a wrong
 * password and timing does not tell which it was.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not a password anyone has: ' + crypto.randomUUID())
  return dummy
}

/** Why a chosen password is refused, or null. */
export function passwordFault(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`
  return null
}
