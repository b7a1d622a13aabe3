// The conventions every page of the application follows, in one place. A page module exports a function that takes
// the AppKit and registers its routes:
//
//   kit.page('/settings/keys', 'settings', (c, form) => <KeysPage c={c} form={form} />)
//   kit.action('/settings/keys/:id/revoke', 'manage', async (c) => {
//                await kit.operation(c, 'api_keys_revoke', { path: { id: c.params.id } })
//                return kit.done(c, '/settings/keys', 'key_revoked') },
//              (c, form) => <KeysPage c={c} form={form} />)
//
// A page never calls a service: a change (and a read) is an operation of the table, run by name through the runner
// the API and MCP doors use (platform/operation.ts), with the input the page read from its form; its refusal codes,
// id rule and body schema are the operation's.
// page: GET under /app/b/:business; the kit signs the visitor in (303 to sign-in and back), checks the membership and
// asks the policy (policy.ts) before render runs. action: POST under /app/b/:business; CSRF, membership and policy are
// checked before the handler runs, so a refused change has changed nothing. A handler answers a redirect (kit.done,
// after which the page shows a notice) or a page (a secret shown once). What a service throws is shown on the page
// named by `rerender`, with what was typed: 422 for invalid fields and refusals, 403 for Role and plan, 404 unknown.
import type { Deps } from '../../deps'
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { applicationTable } from '../../operations'
import { runOperation, type FileAnswer, type OperationContext, type OperationInput } from '../../platform/operation'
import type { Page } from '../../platform/cursors'
import { appPlanRefusal } from '../../platform/policy'
import { fromValidation } from '../api/errors'
import { FormInput } from './form-input'
import { publicBaseUrl } from '../../config'
import { resolveBusiness } from '../../modules/business'
import { businessesOfPerson, resolveSession, type LiveSession } from '../../modules/people'
import { ApiError, inAppWords, NotFound, Permission, type FieldErrors } from '../../shared/errors'
import { errorFacts } from '../../shared/logger'
import { EMPTY_FORM, personActor, type FormState, type InBusiness, type Signed } from './context'
import { CSRF_FIELD, foreignOrigin, sameToken, sessionCsrf } from './csrf'
import {
  cookie,
  formOrNull,
  FormStalled,
  FormTooLarge,
  htmlResponse,
  readCookie,
  redirect,
  SECURITY_HEADERS,
  withCookies,
  type PostedForm,
} from './http'
import { Document, Layout } from './layout'
import { appRefusal, appRoleRefusal, type Need } from './policy'
import type { Router } from './router'
import { esc } from './ui'

export const SESSION_COOKIE = 'inv_session'

/** Words for `?done=` after a change: a fixed table, so a link cannot put words of its own on the page. */
export const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  logo_saved: 'The logo is saved: every PDF carries it from now on.',
  logo_removed: 'The logo is removed.',
  key_revoked: 'The API key is revoked: it no longer works.',
  webhook_deleted: 'The webhook is deleted.',
  webhook_paused: 'The webhook is paused: nothing is sent to it until you turn it on.',
  webhook_resumed: 'The webhook is on again.',
  delivery_resent: 'The message is sent again as a new delivery.',
  app_deleted: 'The app is deleted: its connections have ended and its webhook is gone.',
  member_removed: 'The member is removed: they no longer open this Business.',
  member_saved: 'The membership is saved.',
  invitation_sent: 'Invitation sent. They join once they accept it, signed in to their own account.',
  invitation_accepted: 'You have joined this Business.',
  invitation_declined: 'The invitation is declined.',
  bank_account_added: 'The bank account is added.',
  mailbox_cleared:
    'The mailbox is removed: the service’s own mail server sends for this Business when it has an email address.',
  password_changed: 'Your password is changed; every other session has ended.',
  client_created: 'The Client is created.',
  clients_imported: 'The Clients of the file are imported.',
  products_imported: 'The Products of the file are imported.',
  statement_imported: 'The bank statement is imported: matched entries recorded their Payments.',
  entry_matched: 'The entry is matched: its Payment is recorded, with its Receipt.',
  client_activated: 'The Client is active again.',
  client_deactivated: 'The Client is deactivated: it stays on its documents and can be activated again.',
  product_created: 'The Product is created.',
  product_archived: 'The Product is archived.',
  draft_created: 'The Draft is saved.',
  draft_deleted: 'The Draft is deleted.',
  document_issued: 'The document is issued: it has its number.',
  document_sent: 'The document is sent.',
  document_cancelled: 'The document is cancelled; it keeps its number.',
  document_converted: 'The Proforma Invoice is converted: this is its Invoice.',
  document_duplicated: 'This is the new Draft, a copy of the document.',
  marked_sent: 'The document is marked sent.',
  mark_taken_back: 'The mark is taken back.',
  reminded: 'The reminder is sent to the Client.',
  payment_recorded: 'The Payment is recorded, with its Receipt.',
  payment_amended: 'The Payment is amended; its Receipt keeps its number.',
  payment_reversed: 'The Payment is reversed; its Receipt is void.',
  receipt_emailed: 'The Receipt is emailed to the Client.',
  recurring_created: 'The recurring invoice is created: it makes an Invoice on each of its dates.',
  recurring_paused: 'The recurring invoice is paused: no date is made until you resume it.',
  recurring_resumed: 'The recurring invoice is resumed from its next date; the dates that passed are not made.',
  recurring_deleted: 'The recurring invoice is deleted; the Invoices it made stay.',
  refund_recorded: 'The refund is recorded.',
  refund_reversed: 'The refund is reversed.',
}

/** Hears the name of every operation a page runs (tests hold each changing form to the runner with it). */
export const operationWatch: { listener: ((name: string) => void) | null } = { listener: null }

/** What a page gives an operation: path ids and query as text, the body it read from its form. */
export interface PageInput {
  path?: Record<string, string | number | undefined>
  query?: Record<string, string | undefined>
  body?: Record<string, unknown>
  /** The form the body was read from: its own field errors (a number that is not one) join the schema's. */
  form?: FormInput
  /** A file's text as the body, for an operation that takes a file (an import's CSV). */
  text?: string
}

export type Render<C> = (c: C, form: FormState) => JSX.Element
/** `data` holds the form's text fields; a form that takes a file (`upload`) has it in `data.files`. */
export type Handler<C> = (c: C, data: PostedForm) => Promise<Response | JSX.Element>

export class AppKit {
  readonly secure: boolean
  readonly publicBase: string

  constructor(
    readonly deps: Deps,
    private readonly router: Router,
    private readonly csrfSecret: string,
    private readonly context: OperationContext,
  ) {
    this.publicBase = publicBaseUrl(deps.config)
    this.secure = this.publicBase.startsWith('https:')
  }

  sessionCookie(token: string): string {
    // No Max-Age: the browser forgets it when closed; the server ends it after 12 hours idle either way.
    return cookie(SESSION_COOKIE, token, { secure: this.secure })
  }

  clearSessionCookie(): string {
    return cookie(SESSION_COOKIE, '', { secure: this.secure, maxAge: 0 })
  }

  /** A page anyone may open (sign-in, a one-time link); it handles its own forms. */
  open(
    method: 'GET' | 'POST',
    path: string,
    handler: (req: Request, params: Record<string, string>) => Promise<Response>,
  ): void {
    this.router.add(method, path, (req, params) => this.guard(req, () => handler(req, params)))
  }

  /** A page of the signed-in person, outside any Business (the profile). */
  personPage(path: string, render: Render<Signed>): void {
    this.router.add('GET', path, (req) =>
      this.guard(req, async () => {
        const c = await this.signed(req)
        if (c instanceof Response) return c
        return this.answer(c, render(c, EMPTY_FORM))
      }),
    )
  }

  personAction(path: string, handler: Handler<Signed>, rerender: Render<Signed>): void {
    this.router.add('POST', path, (req) =>
      this.guard(req, async () => {
        const c = await this.signed(req)
        if (c instanceof Response) return c
        const data = await this.checkedForm(req, c)
        if (data instanceof Response) return data
        return this.run(c, data, handler, rerender)
      }),
    )
  }

  /** A page of a Business, at /app/b/:business + path, for the people the policy lets in for `need`. */
  page(path: string, need: Need, render: Render<InBusiness>): void {
    this.router.add('GET', `/app/b/:business${path === '/' ? '' : path}`, (req, params) =>
      this.guard(req, async () => {
        const c = await this.inBusiness(req, params, need)
        if (c instanceof Response) return c
        return this.answer(c, render(c, EMPTY_FORM))
      }),
    )
  }

  /**
   * A change to a Business: CSRF, membership and policy first, then the handler; refusals show `rerender`. With
   * `upload`, the form may be multipart/form-data carrying a file (at most MAX_UPLOAD_BYTES in all).
   */
  action(
    path: string,
    need: Need,
    handler: Handler<InBusiness>,
    rerender: Render<InBusiness>,
    opts: { upload?: boolean | number } = {},
  ): void {
    this.router.add('POST', `/app/b/:business${path}`, (req, params) =>
      this.guard(req, async () => {
        const signed = await this.signed(req)
        if (signed instanceof Response) return signed
        // The token is checked before anything else is read, so a forged post learns nothing either.
        const data = await this.checkedForm(req, signed, opts.upload)
        if (data instanceof Response) return data
        const c = await this.inBusiness(req, params, need, signed)
        if (c instanceof Response) return c
        return this.run(c, data, handler, rerender)
      }),
    )
  }

  /**
   * A file of a Business (a PDF, XML or CSV) at /app/b/:business + path, for the people the policy lets in: the
   * handler answers the file; what a service throws is the page's refusal in words (422, 403, 404).
   */
  download(
    path: string,
    need: Need,
    handler: (c: InBusiness, params: Record<string, string>) => Promise<Response>,
  ): void {
    this.router.add('GET', `/app/b/:business${path}`, (req, params) =>
      this.guard(req, async () => {
        const c = await this.inBusiness(req, params, need)
        if (c instanceof Response) return c
        try {
          const res = await handler(c, params)
          for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v)
          res.headers.set('cache-control', 'no-store')
          return withCookies(res, c.cookies)
        } catch (e) {
          if (!(e instanceof ApiError) || e.status === 404) throw e
          return this.problem(
            c,
            e.type === 'permission' ? 403 : 422,
            'Not available',
            inAppWords((e.extra as { code?: string }).code, e.message),
            (e.extra as { code?: string }).code,
          )
        }
      }),
    )
  }

  /**
   * Runs an operation of the table by name for the person's Actor, through the runner every door uses: the Role and
   * plan by the operation's access (the application's words), the body held to the operation's schema, then the
   * operation itself. Answers its value (a list's page, a document, a file); what it throws the page shows.
   */
  async operation<T = any>(c: InBusiness, name: string, input: PageInput = {}): Promise<T> {
    const op = applicationTable.get(name)
    if (!op) throw new Error(`the application ran ${name}, which is no operation`)
    operationWatch.listener?.(name)
    const refused = appPlanRefusal(c.actor, op.access) ?? appRoleRefusal(c.role, op.access)
    if (refused) throw refused
    const path: Record<string, string> = {}
    // A route's parameters are its names (`/v1/products/:product`): a page naming another key would run the operation
    // on no id at all, and every such form would answer "No such record." (it did, for Clients and Products).
    const route = 'http' in op ? (op as { http?: { path: string } }).http?.path : undefined
    const named = route ? [...route.matchAll(/:([a-z_]+)/g)].map((m) => m[1]) : null
    for (const [k, v] of Object.entries(input.path ?? {})) {
      if (named && !named.includes(k))
        throw new Error(`the application ran ${name} with path.${k}; ${route} names ${named}`)
      path[k] = v === undefined ? '' : String(v)
    }
    let body: unknown = input.text
    if (input.body !== undefined) {
      const clean = Object.fromEntries(Object.entries(input.body).filter(([, v]) => v !== undefined))
      body = input.form ? input.form.body(op.body ?? Type.Any(), clean) : op.body ? checked(op.body, clean) : clean
    }
    const result = await runOperation(
      op,
      c.actor,
      { path, query: input.query ?? {}, body } satisfies OperationInput,
      this.context,
    )
    switch (result.kind) {
      case 'json':
        return result.value as T
      case 'text':
        return JSON.parse(result.text) as T
      case 'file':
        return result.file as T
      case 'deleted':
        return { id: result.id, deleted: true } as T
    }
  }

  /**
   * One page of a list operation, by the platform's cursors: the page's `?cursor=` is the operation's, and a cursor
   * that is not this list's (edited, or from another list) shows the first page rather than a refusal.
   */
  async list<T>(c: InBusiness, name: string, query: Record<string, string | undefined> = {}): Promise<Page<T>> {
    const cursor = c.url.searchParams.get('cursor') ?? undefined
    try {
      return await this.operation<Page<T>>(c, name, { query: { ...query, cursor } })
    } catch (e) {
      if (
        cursor === undefined ||
        !(e instanceof ApiError) ||
        !(e.extra as { errors?: Record<string, unknown> }).errors?.cursor
      )
        throw e
      return this.operation<Page<T>>(c, name, { query })
    }
  }

  /** After a change: back to a page of the Business, which shows the notice. */
  done(c: InBusiness, path: string, notice: keyof typeof NOTICES): Response {
    return redirect(`${c.base}${path}?done=${notice}`)
  }

  // ---- inside

  private async run<C extends Signed>(
    c: C,
    data: PostedForm,
    handler: Handler<C>,
    rerender: Render<C>,
  ): Promise<Response> {
    try {
      const out = await handler(c, data)
      return out instanceof Response ? withCookies(out, c.cookies) : this.answer(c, out)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (e.status === 404 && !(e.extra as { errors?: unknown }).errors)
        return this.problem(c, 404, 'Not found', e.message)
      const errors = ((e.extra as { errors?: FieldErrors }).errors ?? {}) as FieldErrors
      const code = (e.extra as { code?: string }).code ?? null
      // Field errors are shown beside their fields; a refusal or permission in words above the form.
      const message =
        e.type === 'invalid_request'
          ? Object.keys(errors).length
            ? 'Please correct the fields marked below.'
            : e.message
          : inAppWords(code, e.message)
      const status = e.type === 'permission' ? 403 : e.type === 'not_found' ? 404 : 422
      return this.answer(c, rerender(c, { values: data, errors, message, code }), status)
    }
  }

  async answer(c: Signed, body: JSX.Element, status = 200): Promise<Response> {
    return withCookies(htmlResponse(await body, status), c.cookies)
  }

  /** Every answer of the application passes here: an unexpected failure is a page that tells nothing of it. */
  private async guard(req: Request, fn: () => Promise<Response>): Promise<Response> {
    try {
      return await fn()
    } catch (e) {
      if (e instanceof FormTooLarge)
        return this.bare(413, 'Too large', 'The form sent is larger than any form of this application.')
      if (e instanceof FormStalled)
        return this.bare(
          408,
          'Too slow',
          'The form stopped arriving before it was whole. Nothing was changed; send it again.',
        )
      if (e instanceof ApiError && e.status === 404) return this.bare(404, 'Not found', e.message)
      this.deps.logger.error('application page failed', { path: new URL(req.url).pathname, ...errorFacts(e) })
      return this.bare(
        500,
        'Something went wrong',
        'The service failed to answer; the fault is ours. Nothing was changed unless the page says so.',
      )
    }
  }

  async bare(status: number, title: string, words: string): Promise<Response> {
    return htmlResponse(
      await (
        <Document title={title}>
          <main class="narrow">
            <div class="card">
              <h1>{esc(title)}</h1>
              <p>{esc(words)}</p>
              <p>
                <a href="/app">Back to the application</a>
              </p>
            </div>
          </main>
        </Document>
      ),
      status,
    )
  }

  /** A refusal of the whole page (403 Role or plan, 404), inside the layout so the person can go elsewhere. */
  async problem(
    c: Signed & Partial<InBusiness>,
    status: number,
    title: string,
    words: string,
    code?: string,
  ): Promise<Response> {
    const body = (
      <Layout c={c} title={title} section="">
        <div class="card">
          <h1>{esc(title)}</h1>
          <p class="notice bad" role="alert">
            {esc(words)}
          </p>
          {code && c.base && c.role === 'owner' ? (
            <p>
              <a href={esc(`${c.base}/settings/billing`)}>Open the billing page</a>
            </p>
          ) : (
            ''
          )}
        </div>
      </Layout>
    )
    return this.answer(c, body, status)
  }

  private live(req: Request): Promise<LiveSession | null> {
    return resolveSession(this.deps, readCookie(req, SESSION_COOKIE))
  }

  /** The signed-in visitor, or the 303 to the sign-in page (and back here afterwards). */
  async signed(req: Request): Promise<Signed | Response> {
    const live = await this.live(req)
    const url = new URL(req.url)
    if (!live) {
      const back = req.method === 'GET' ? url.pathname + url.search : '/app'
      return redirect(
        `/app/sign-in?next=${encodeURIComponent(back)}`,
        readCookie(req, SESSION_COOKIE) ? { 'set-cookie': this.clearSessionCookie() } : {},
      )
    }
    // Only active memberships open a Business; pending ones are invitations, counted for the header's link.
    const mine = await businessesOfPerson(this.deps.db.read, live.person.id)
    const businesses = mine.open.map((b) => ({ publicId: b.publicId, name: b.name, role: b.role }))
    const done = url.searchParams.get('done')
    return {
      deps: this.deps,
      req,
      url,
      person: live.person,
      session: live.session,
      csrf: sessionCsrf(this.csrfSecret, live.session),
      businesses,
      invitations: mine.invitations.length,
      notice: done && Object.hasOwn(NOTICES, done) ? NOTICES[done]! : null,
      cookies: [],
    }
  }

  /** The form of a change, once its CSRF token (and the browser's Origin) prove it came from this session's page. */
  private async checkedForm(req: Request, c: Signed, upload: boolean | number = false): Promise<PostedForm | Response> {
    const data = await formOrNull(req, upload)
    if (!data || foreignOrigin(req, this.publicBase) || !sameToken(data.get(CSRF_FIELD), c.csrf)) {
      return this.problem(
        c,
        403,
        'Refused',
        'This form could not be accepted (its security token is missing or out of date). Nothing was changed; open the page again and retry.',
      )
    }
    return data
  }

  private async inBusiness(
    req: Request,
    params: Record<string, string>,
    need: Need,
    signed?: Signed,
  ): Promise<InBusiness | Response> {
    const s = signed ?? (await this.signed(req))
    if (s instanceof Response) return s
    const ref = params.business ?? ''
    const choice = s.businesses.find((b) => b.publicId === ref)
    if (!choice) {
      // Another Business's pages, or none: the same answer, so ids of other Businesses cannot be probed.
      return this.problem(s, 403, 'Not your Business', 'You are not a member of this Business.', undefined)
    }
    const business = await resolveBusiness(this.deps.db.read, ref, this.deps.db.hot).catch(() => null)
    if (!business) throw new NotFound('No such Business.')
    const c: InBusiness = {
      ...s,
      business,
      role: choice.role,
      base: `/app/b/${business.publicId}`,
      params,
      actor: personActor(s.person, business, choice.role),
      operation: (name, input) => this.operation(c, name, input),
    }
    const refused: Permission | null = appRefusal(choice.role, business.plan, need)
    if (refused)
      return this.problem(c, 403, 'Not open to you', refused.message, (refused.extra as { code?: string }).code)
    return c
  }
}

/** A body held to an operation's schema: 422 invalid_request with the API's words per field. */
function checked(schema: Parameters<typeof Value.Errors>[0], body: Record<string, unknown>): Record<string, unknown> {
  const errors = [...Value.Errors(schema, body)]
  if (errors.length > 0) throw fromValidation('body', errors)
  return body
}

/** A file an operation answered (a PDF, an XML), as the download the browser saves. */
export function fileResponse(f: FileAnswer): Response {
  return new Response(typeof f.bytes === 'string' ? f.bytes : Buffer.from(f.bytes), {
    headers: { 'content-type': f.mimeType, 'content-disposition': `attachment; filename="${f.filename}"` },
  })
}
