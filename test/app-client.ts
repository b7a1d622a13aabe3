// A browser-like client of the application for HTTP tests: keeps cookies, reads CSRF tokens off pages, posts forms;
// and checks every page it receives: valid HTML (parse5 reports no parse error), the security headers of §9, and no
// reference to anything outside the service.
import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5'
import type { Harness } from './harness'

export interface Page {
  status: number
  headers: Headers
  text: string
  location: string | null
}

export const SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
}

/** Throws unless the page parses as HTML without a single parse error. */
export function assertValidHtml(html: string, where: string): void {
  const problems: string[] = []
  parse(html, { onParseError: (e) => problems.push(`${e.code} at ${e.startLine}:${e.startCol}`) })
  if (problems.length) throw new Error(`${where}: not valid HTML: ${problems.slice(0, 5).join(', ')}`)
}

/** Every URL a page would load or send to (src, href, action), which must all stay inside the service. */
export function outsideReferences(html: string): string[] {
  const doc = parse(html)
  const out: string[] = []
  const walk = (n: DefaultTreeAdapterMap['node']) => {
    if ('attrs' in n) {
      for (const a of n.attrs) {
        if (
          ['src', 'href', 'action', 'formaction', 'srcset', 'poster', 'data'].includes(a.name) &&
          /^(https?:)?\/\//i.test(a.value.trim())
        )
          out.push(a.value)
      }
    }
    if ('childNodes' in n) for (const c of n.childNodes) walk(c as DefaultTreeAdapterMap['node'])
    if ('content' in n && n.content) walk(n.content as DefaultTreeAdapterMap['node'])
  }
  walk(doc)
  return out
}

export function assertPageRules(p: Page, where: string): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS))
    if (p.headers.get(k) !== v) throw new Error(`${where}: header ${k} is ${p.headers.get(k)}`)
  const csp = p.headers.get('content-security-policy') ?? ''
  if (!/script-src 'self'/.test(csp) || /unsafe-inline/.test(csp) || !/frame-ancestors 'none'/.test(csp))
    throw new Error(`${where}: CSP is ${csp}`)
  if ((p.headers.get('content-type') ?? '').startsWith('text/html') && p.text) {
    assertValidHtml(p.text, where)
    const outside = outsideReferences(p.text)
    if (outside.length) throw new Error(`${where}: refers outside the service: ${outside.join(', ')}`)
    if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(p.text)) throw new Error(`${where}: holds an inline script`)
    if (/\sstyle=/i.test(p.text) || /\son[a-z]+=/i.test(p.text))
      throw new Error(`${where}: holds an inline style or handler`)
  }
}

/** The value of the first hidden _csrf field on the page. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html)
  if (!m) throw new Error('no CSRF token on the page')
  return m[1]!
}

export class AppClient {
  readonly cookies = new Map<string, string>()
  /** Every page this client received, for the headers-on-every-page check. */
  readonly seen: Array<{ path: string; page: Page }> = []

  constructor(
    private readonly h: Pick<Harness, 'app'>,
    private readonly origin = 'http://localhost',
  ) {}

  async request(
    method: string,
    path: string,
    form?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const h: Record<string, string> = { ...headers }
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body: string | undefined
    if (form) {
      const p = new URLSearchParams()
      for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, one)
      body = p.toString()
      h['content-type'] ??= 'application/x-www-form-urlencoded'
    }
    const res = await this.h.app.fetch(new Request(this.origin + path, { method, headers: h, body }))
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (/max-age=0/i.test(c) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const page = {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      location: res.headers.get('location'),
    }
    this.seen.push({ path: `${method} ${path}`, page })
    assertPageRules(page, `${method} ${path}`)
    return page
  }

  /** Posts a multipart/form-data form (text fields and files), as a browser posts a form with a file input. */
  async upload(
    path: string,
    fields: Record<string, string>,
    files: Record<string, { bytes: Uint8Array; name: string; type: string }>,
  ): Promise<Page> {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) form.append(k, v)
    for (const [k, f] of Object.entries(files))
      form.append(k, new File([Buffer.from(f.bytes)], f.name, { type: f.type }))
    // A Request names the multipart boundary in its content-type (a Response built from FormData does not in Bun).
    // Its content-type is read before its body (Bun forgets the header once the body is consumed).
    const encoded = new Request(this.origin + path, { method: 'POST', body: form })
    const headers: Record<string, string> = { 'content-type': encoded.headers.get('content-type')! }
    const body = new Uint8Array(await encoded.arrayBuffer())
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await this.h.app.fetch(new Request(this.origin + path, { method: 'POST', headers, body }))
    const page = {
      status: res.status,
      headers: res.headers,
      text: await res.text(),
      location: res.headers.get('location'),
    }
    this.seen.push({ path: `POST ${path}`, page })
    assertPageRules(page, `POST ${path}`)
    return page
  }

  get(path: string): Promise<Page> {
    return this.request('GET', path)
  }

  /**
   * A fragment htmx swaps into a page (a picker's options, the editor's live totals), asked as htmx asks it: GET, or
   * POST of `form` when given; its HTML must parse as a fragment.
   */
  async fragment(path: string, form?: Record<string, string>): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded'
    const res = await this.h.app.fetch(
      new Request(this.origin + path, {
        method: form ? 'POST' : 'GET',
        headers,
        body: form ? new URLSearchParams(form).toString() : undefined,
      }),
    )
    const text = await res.text()
    const problems: string[] = []
    parseFragment(text, { onParseError: (e) => problems.push(`${e.code} at ${e.startLine}:${e.startCol}`) })
    if (problems.length) throw new Error(`${path}: not a valid HTML fragment: ${problems.slice(0, 5).join(', ')}`)
    return { status: res.status, text }
  }

  /** Opens `pagePath`, takes its CSRF token, posts `form` to `action` (the page itself when not given). */
  async submit(
    pagePath: string,
    form: Record<string, string | string[]>,
    action = pagePath.split('?')[0]!,
  ): Promise<Page> {
    const page = await this.get(pagePath)
    if (page.status !== 200) throw new Error(`${pagePath} answered ${page.status}`)
    return this.request('POST', action, { _csrf: csrfOf(page.text), ...form })
  }

  /** Signs in through the form; returns the answer (303 on success). */
  async signIn(email: string, password: string, next?: string): Promise<Page> {
    const path = next ? `/app/sign-in?next=${encodeURIComponent(next)}` : '/app/sign-in'
    return this.submit(path, { email, password }, path)
  }

  /** Opens a one-time link and chooses a password with it (303 to /app on success). */
  async choosePassword(link: string, password: string): Promise<Page> {
    const path = new URL(link).pathname
    return this.submit(path, { password })
  }
}

/** A person who has chosen a password, member of `businessId` with `role` when given (a factory for app tests). */
export async function person(
  h: Harness,
  opts: {
    email: string
    password?: string
    name?: string
    businessId?: number
    role?: 'owner' | 'admin' | 'member' | 'viewer'
  },
): Promise<{ id: number; email: string; password: string }> {
  const { addPerson, choosePassword, addMember } = await import('../src/modules/people')
  const password = opts.password ?? 'correct horse battery'
  const { person, token } = await addPerson(h.deps, { email: opts.email, name: opts.name ?? opts.email.split('@')[0] })
  const done = await choosePassword(h.deps, token, password)
  if (done.kind !== 'done') throw new Error('password setup failed')
  if (opts.businessId) await addMember(h.deps, opts.businessId, { email: opts.email, role: opts.role ?? 'owner' })
  return { id: person.id, email: opts.email, password }
}
