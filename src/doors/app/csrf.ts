// CSRF tokens (extensions §9): a signed-in form carries a token bound to its session; the sign-in and choose-password
// forms, posted before there is a session, carry the value of a random cookie set with the form (double submit).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { SessionRow } from '../../modules/people'

export const CSRF_FIELD = '_csrf'
export const PRESIGN_COOKIE = 'inv_presign'

export function sessionCsrf(secret: string, session: Pick<SessionRow, 'id' | 'tokenHash'>): string {
  return createHmac('sha256', secret).update(`csrf:${session.id}:${session.tokenHash}`).digest('base64url')
}

export function newPresignToken(): string {
  return randomBytes(24).toString('base64url')
}

export function sameToken(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * A browser names the site a form came from; one from another site is refused whatever token it carries. The
 * service's own host is the request's, or the public URL's behind a proxy.
 */
export function foreignOrigin(req: Request, publicBase: string): boolean {
  const origin = req.headers.get('origin')
  if (!origin) return false
  if (origin === 'null') return true
  try {
    const host = new URL(origin).host
    return host !== new URL(req.url).host && host !== new URL(publicBase).host
  } catch {
    return true
  }
}
