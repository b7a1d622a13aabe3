// The application's HTTP basics: security headers on every answer, HTML and redirect answers, cookies, form bodies.

/** §9: no framing, no inline scripts, no sniffing, no referrer outside; nothing is loaded from outside the service. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
}

import { readBodyBytes } from '../../platform/request-body'

const PAGE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }

export function htmlResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...PAGE_HEADERS, ...SECURITY_HEADERS, ...headers } })
}

/** 303: after a form, the browser follows with a GET. */
export function redirect(to: string, headers: Record<string, string> = {}): Response {
  return new Response(null, {
    status: 303,
    headers: { location: to, 'cache-control': 'no-store', ...SECURITY_HEADERS, ...headers },
  })
}

export function withCookies(res: Response, cookies: string[]): Response {
  for (const c of cookies) res.headers.append('set-cookie', c)
  return res
}

export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
  }
  return null
}

export interface CookieOptions {
  secure: boolean
  /** Seconds; 0 removes the cookie; undefined lasts the browser session. */
  maxAge?: number
}

export function cookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  if (o.secure) parts.push('Secure')
  if (o.maxAge !== undefined) parts.push(`Max-Age=${o.maxAge}`)
  return parts.join('; ')
}

/** Forms are small: a body above this is refused before it is read whole. */
export const MAX_FORM_BYTES = 64 * 1024

/** A form larger than the page takes: answered 413 by the kit's guard. */
export class FormTooLarge extends Error {}
/** A form whose body stopped arriving: answered 408 by the kit's guard. */
export class FormStalled extends Error {}
export class NotAForm extends Error {}

/** A form with a file (the Business logo, at most 1 MB): room for the file and the form's own fields. */
export const MAX_UPLOAD_BYTES = 1024 * 1024 + MAX_FORM_BYTES

/** A posted form: its text fields as URLSearchParams, and the files of a multipart form by field name. */
export class PostedForm extends URLSearchParams {
  readonly files = new Map<string, Uint8Array>()
}

/**
 * The posted form: application/x-www-form-urlencoded, as every form of the application posts, or, where the page
 * takes a file (`upload`), multipart/form-data of at most MAX_UPLOAD_BYTES (or the page's own file limit, and room for
 * its fields). A file input left empty is no file.
 * Read through the API's bounded reader: never more than the limit (and one chunk) is held, nor waited for forever.
 */
export async function readForm(req: Request, upload: boolean | number = false): Promise<PostedForm> {
  // A number is the page's own file limit (an import's CSV, 10 MB), with room for the form's fields.
  const maxBytes = typeof upload === 'number' ? upload + MAX_FORM_BYTES : upload ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES
  const read = await readBodyBytes(req, { maxBytes })
  if ('fault' in read) throw read.fault === 'too_large' ? new FormTooLarge() : new FormStalled()
  const bytes = read.bytes
  const type = req.headers.get('content-type') ?? ''
  if (upload && /^multipart\/form-data\s*;/i.test(type)) {
    const parsed = await new Response(Buffer.from(bytes), { headers: { 'content-type': type } })
      .formData()
      .catch(() => {
        throw new NotAForm()
      })
    const form = new PostedForm()
    for (const [k, v] of parsed.entries() as Iterable<[string, string | Blob]>) {
      if (typeof v === 'string') form.append(k, v)
      else if (v.size > 0) form.files.set(k, new Uint8Array(await v.arrayBuffer()))
    }
    return form
  }
  if (bytes.length > 0 && !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new NotAForm()
  return new PostedForm(new TextDecoder().decode(bytes))
}

/**
 * The posted form, or null when it is not a form (the page answers that as a refused form); a body too large or
 * stalled is left to the kit's guard, which answers 413 or 408.
 */
export function formOrNull(req: Request, upload: boolean | number = false): Promise<PostedForm | null> {
  return readForm(req, upload).catch((e) =>
    e instanceof FormTooLarge || e instanceof FormStalled ? Promise.reject(e) : null,
  )
}

/** Only a path of this application is a place to go back to after signing in (never another site). */
export function safeNext(next: string | null | undefined): string {
  if (
    !next ||
    !next.startsWith('/app') ||
    next.startsWith('//') ||
    /[\\\s]/.test(next) ||
    next.startsWith('/app/sign-')
  )
    return '/app'
  return next
}
