// Signing in and out, and the one-time links that let a person choose a password (extensions §9).
import { choosePassword, linkState, MIN_PASSWORD_LENGTH, signIn, signOut } from '../../../modules/people'
import { InvalidRequest } from '../../../shared/errors'
import { EMPTY_FORM, type FormState } from '../context'
import { CSRF_FIELD, foreignOrigin, newPresignToken, PRESIGN_COOKIE, sameToken } from '../csrf'
import { cookie, formOrNull, htmlResponse, readCookie, redirect, safeNext } from '../http'
import type { AppKit } from '../kit'
import { Document } from '../layout'
import { Field, Refused, esc } from '../ui'

/** Same words for an unknown email and a wrong password, so the page never tells which addresses have an account. */
export const SIGN_IN_REFUSED = 'That email and password do not match an account. Check both and try again.'
export const SIGN_IN_LOCKED = 'Too many failed attempts for this email. Wait 15 minutes, then try again.'

function SignInPage(p: { token: string; next: string; form: FormState; notice?: string }): JSX.Element {
  return (
    <Document title="Sign in">
      <main class="narrow">
        <div class="card">
          <h1>Sign in</h1>
          {p.notice ? (
            <p class="notice ok" role="status">
              {esc(p.notice)}
            </p>
          ) : (
            ''
          )}
          <Refused state={p.form} shown={['email', 'password']} />
          <form method="post" action={esc(`/app/sign-in?next=${encodeURIComponent(p.next)}`)} class="stack">
            <input type="hidden" name={CSRF_FIELD} value={esc(p.token)} />
            <Field
              name="email"
              label="Email"
              type="email"
              state={p.form}
              required
              autocomplete="username"
              maxlength={320}
            />
            <Field
              name="password"
              label="Password"
              type="password"
              state={p.form}
              required
              autocomplete="current-password"
            />
            <div>
              <button type="submit">Sign in</button>
            </div>
          </form>
          <p class="hint">Forgot your password? Ask the person who runs this service for a new sign-in link.</p>
        </div>
      </main>
    </Document>
  )
}

/**
 * A new password's field, on every form that sets one (a sign-in link's, the profile's): the rule said once, in its
 * hint, which gives way to the field's error when the password was refused (the error says the rule again).
 */
export function NewPasswordField(p: { name: string; label: string; state: FormState }): JSX.Element {
  return (
    <Field
      name={p.name}
      label={p.label}
      type="password"
      state={p.state}
      required
      autocomplete="new-password"
      hint={
        p.state.errors[p.name]?.length
          ? undefined
          : `At least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a good one.`
      }
    />
  )
}

function ChoosePasswordPage(p: { token: string; linkToken: string; email: string; form: FormState }): JSX.Element {
  return (
    <Document title="Choose a password">
      <main class="narrow">
        <div class="card">
          <h1>Choose a password</h1>
          <p class="lead">For {esc(p.email)}.</p>
          <Refused state={p.form} shown={['password']} />
          <form method="post" action={esc(`/app/sign-in/link/${p.linkToken}`)} class="stack">
            <input type="hidden" name={CSRF_FIELD} value={esc(p.token)} />
            <input type="text" name="username" value={esc(p.email)} autocomplete="username" hidden />
            <NewPasswordField name="password" label="New password" state={p.form} />
            <div>
              <button type="submit">Save and sign in</button>
            </div>
          </form>
        </div>
      </main>
    </Document>
  )
}

const LINK_WORDS = {
  used: 'This sign-in link was used already. Ask the person who runs this service for a new one, or the Business that invited you to invite you again.',
  expired:
    'This sign-in link has expired (links last 30 minutes). Ask the person who runs this service for a new one, or the Business that invited you to invite you again.',
  unknown: 'This sign-in link is not valid. Check that it was copied whole, or ask for a new one.',
} as const

export function signInRoutes(kit: AppKit): void {
  const presign = (req: Request): { token: string; set: string[] } => {
    const had = readCookie(req, PRESIGN_COOKIE)
    const token = had && had.length <= 64 ? had : newPresignToken()
    return { token, set: had === token ? [] : [cookie(PRESIGN_COOKIE, token, { secure: kit.secure })] }
  }
  const page = async (body: JSX.Element, status: number, set: string[]) => {
    const res = htmlResponse(await body, status)
    for (const c of set) res.headers.append('set-cookie', c)
    return res
  }
  /** A pre-session form is accepted only with the cookie's token and from this site. */
  const presignOk = (req: Request, data: URLSearchParams | null): boolean =>
    !!data && !foreignOrigin(req, kit.publicBase) && sameToken(data.get(CSRF_FIELD), readCookie(req, PRESIGN_COOKIE))

  kit.open('GET', '/app/sign-in', async (req) => {
    const url = new URL(req.url)
    const next = safeNext(url.searchParams.get('next'))
    const p = presign(req)
    const notice = url.searchParams.has('signed_out') ? 'You are signed out.' : undefined
    return page(<SignInPage token={p.token} next={next} form={EMPTY_FORM} notice={notice} />, 200, p.set)
  })

  kit.open('POST', '/app/sign-in', async (req) => {
    const next = safeNext(new URL(req.url).searchParams.get('next'))
    const data = await formOrNull(req)
    const p = presign(req)
    if (!presignOk(req, data)) {
      const form = { ...EMPTY_FORM, message: 'The form had expired. Nothing was sent; please sign in again.' }
      return page(<SignInPage token={p.token} next={next} form={form} />, 403, p.set)
    }
    const email = data!.get('email') ?? ''
    const result = await signIn(kit.deps, email, data!.get('password') ?? '')
    if (result.kind === 'signed_in') return redirect(next, { 'set-cookie': kit.sessionCookie(result.token) })
    const kept = new URLSearchParams({ email })
    const message = result.kind === 'locked' ? SIGN_IN_LOCKED : SIGN_IN_REFUSED
    return page(
      <SignInPage token={p.token} next={next} form={{ values: kept, errors: {}, message, code: null }} />,
      result.kind === 'locked' ? 429 : 422,
      p.set,
    )
  })

  kit.open('GET', '/app/sign-in/link/:token', async (req, params) => {
    const state = await linkState(kit.deps, params.token!)
    if (state.kind !== 'open') return kit.bare(410, 'Link not usable', LINK_WORDS[state.kind])
    const p = presign(req)
    return page(
      <ChoosePasswordPage token={p.token} linkToken={params.token!} email={state.person.email} form={EMPTY_FORM} />,
      200,
      p.set,
    )
  })

  kit.open('POST', '/app/sign-in/link/:token', async (req, params) => {
    const data = await formOrNull(req)
    const p = presign(req)
    const state = await linkState(kit.deps, params.token!)
    if (state.kind !== 'open') return kit.bare(410, 'Link not usable', LINK_WORDS[state.kind])
    if (!presignOk(req, data)) {
      const form = {
        ...EMPTY_FORM,
        message: 'The form had expired. Nothing was changed; please choose your password again.',
      }
      return page(
        <ChoosePasswordPage token={p.token} linkToken={params.token!} email={state.person.email} form={form} />,
        403,
        p.set,
      )
    }
    try {
      const done = await choosePassword(kit.deps, params.token!, data!.get('password') ?? '')
      if (done.kind !== 'done') return kit.bare(410, 'Link not usable', LINK_WORDS[done.kind])
      return redirect('/app', { 'set-cookie': kit.sessionCookie(done.token) })
    } catch (e) {
      if (!(e instanceof InvalidRequest)) throw e
      const form = { values: null, errors: e.errors, message: null, code: null }
      return page(
        <ChoosePasswordPage token={p.token} linkToken={params.token!} email={state.person.email} form={form} />,
        422,
        p.set,
      )
    }
  })

  kit.open('POST', '/app/sign-out', async (req) => {
    const c = await kit.signed(req)
    if (c instanceof Response) return c
    const data = await formOrNull(req)
    if (!data || foreignOrigin(req, kit.publicBase) || !sameToken(data.get(CSRF_FIELD), c.csrf)) {
      return kit.problem(
        c,
        403,
        'Refused',
        'This form could not be accepted (its security token is missing or out of date). You are still signed in.',
      )
    }
    await signOut(kit.deps, c.session)
    return redirect('/app/sign-in?signed_out=1', { 'set-cookie': kit.clearSessionCookie() })
  })
}
