// Connecting an app (extensions §10): /oauth/authorize sends the person here (signing in first); the page names the
// app and asks which Business and which Role, never above the person's own Role there nor the app's `scope`.
// Approve answers the app's registered address with `code`, `state` and `iss`; deny with `error=access_denied`.
import {
  answerUrl,
  issueCode,
  judgeAuthorization,
  offeredRoles,
  resourcesOf,
  asGrant,
  isGrantRole,
  type AuthorizationRequest,
  type GrantRole,
  SINGLE_PARAMETERS,
} from '../../../modules/oauth'
import { resolveBusiness } from '../../../modules/business'
import { findActiveMembership } from '../../../modules/people'
import { publicBaseUrl } from '../../../config'
import { EMPTY_FORM, type FormState, type Signed } from '../context'
import { redirect } from '../http'
import type { AppKit } from '../kit'
import type { AddressLimit } from '../../oauth/address-limit'
import { contextOf } from '../../../platform/request-context'
import { Layout } from '../layout'
import { PostForm, Refused, esc } from '../ui'
import { Permission } from '../../../shared/errors'

/**
 * The app's address a shown consent form answers to, per request: the door widens that page's CSP form-action to its
 * origin (browsers hold the form's redirect to it), whether the request named redirect_uri or the app's only one
 * stands in, and on a page shown again after a refusal too.
 */
export const consentTargets = new WeakMap<Request, string>()

/** The authorization request's own parameters, carried from the page to its form unchanged. */
const CARRIED = [...SINGLE_PARAMETERS, 'resource'] as const

function carried(q: URLSearchParams): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const name of CARRIED) for (const v of q.getAll(name)) out.push([name, v])
  return out
}

/** The Roles an app may be granted, lowest first. */
const ORDER: readonly GrantRole[] = ['viewer', 'member', 'admin']

const ROLE_NAMES: Record<string, string> = { admin: 'Admin', member: 'Member', viewer: 'Viewer' }

const ROLE_WORDS: Record<string, string> = {
  admin: 'Admin: everything, settings included',
  member: 'Member: documents, Clients, Products and Payments',
  viewer: 'Viewer: reads only',
}

function ConnectPage({
  c,
  r,
  q,
  form,
}: {
  c: Signed
  r: AuthorizationRequest
  q: URLSearchParams
  form: FormState
}): JSX.Element {
  consentTargets.set(c.req, r.redirectUri)
  const choices = c.businesses
    .map((b) => ({ ...b, roles: offeredRoles(r.ceiling, asGrant(b.role)) }))
    .filter((b) => b.roles.length > 0)
  const chosenBusiness = form.values?.get('business') ?? choices[0]?.publicId ?? ''
  const chosen = choices.find((b) => b.publicId === chosenBusiness) ?? choices[0]
  // Only Roles the person can grant (extensions §10): up to their own, in the one Business they have or, with several,
  // the highest they hold (the form refuses one above their Role in the Business chosen). Offered first: the highest
  // the app asked for, lowered to the person's own, with a sentence saying so.
  const highest = choices
    .map((b) => b.roles[0]!)
    .reduce<GrantRole | null>((hi, g) => (hi === null || ORDER.indexOf(g) > ORDER.indexOf(hi) ? g : hi), null)
  const roles = highest ? offeredRoles(r.ceiling, highest) : []
  const chosenRole = form.values?.get('role') ?? chosen?.roles[0] ?? 'viewer'
  const lowered = q.get('scope') && chosen && chosen.roles[0] !== r.ceiling ? chosen : null
  return (
    <Layout c={c} title={`Connect ${r.app.name}`} section="">
      <div class="card">
        <h1>Connect {esc(r.app.name)}?</h1>
        <p class="lead">
          {esc(r.app.name)} asks to act for one of your Businesses. It will answer to {esc(new URL(r.redirectUri).host)}
          .
        </p>
        <Refused state={form} shown={[]} />
        {choices.length === 0 ? (
          <p class="notice bad">You are not a member of any Business, so there is nothing to connect.</p>
        ) : (
          <PostForm action="/app/connect" token={c.csrf}>
            {carried(q)
              .map(([k, v]) => <input type="hidden" name={k} value={esc(v)} />)
              .join('')}
            <div class="field">
              <label for="f-business">Business</label>
              <select id="f-business" name="business">
                {choices.map((b) => (
                  <option value={esc(b.publicId)} selected={b.publicId === chosenBusiness}>
                    {esc(b.name)} (you are {esc(b.role)})
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="f-role">Role the app acts with</label>
              <select id="f-role" name="role">
                {roles.map((role) => (
                  <option value={role} selected={role === chosenRole}>
                    {esc(ROLE_WORDS[role]!)}
                  </option>
                ))}
              </select>
              {lowered ? (
                <p class="notice">
                  {esc(r.app.name)} asked for the {esc(ROLE_NAMES[r.ceiling])} Role; you are {esc(lowered.role)} in{' '}
                  {esc(lowered.name)}, so it is offered {esc(ROLE_NAMES[lowered.roles[0]!])} at most.
                </p>
              ) : (
                ''
              )}
              <p class="hint">Never more than your own Role in the Business you choose.</p>
            </div>
            <div class="row">
              <button type="submit" name="decision" value="approve">
                Connect
              </button>
              <button type="submit" name="decision" value="deny" class="quiet">
                Deny
              </button>
            </div>
          </PostForm>
        )}
      </div>
    </Layout>
  )
}

export function connectRoutes(kit: AppKit, documentFetches: AddressLimit): void {
  const issuer = publicBaseUrl(kit.deps.config)
  const base = {
    ...kit.deps,
    allowPrivate: kit.deps.config.webhookAllowPrivate,
    issuer,
    resources: resourcesOf(issuer).all,
  }
  /** A metadata document this page fetches counts against the visitor's address, as at /oauth/authorize. */
  const judgeDeps = (req: Request) => ({
    ...base,
    mayFetchDocument: () => documentFetches.hit(contextOf(req).ip).allowed,
  })

  kit.personPage('/app/connect', async (c) => {
    const judged = await judgeAuthorization(judgeDeps(c.req), c.url.searchParams)
    if (judged.kind === 'page') return <ProblemPage c={c} words={judged.message} />
    // /oauth/authorize sent such requests back to the app already; one typed here by hand is only shown.
    if (judged.kind === 'redirect')
      return (
        <ProblemPage
          c={c}
          words={new URL(judged.to).searchParams.get('error_description') ?? 'The request is not valid.'}
        />
      )
    return <ConnectPage c={c} r={judged.request} q={c.url.searchParams} form={EMPTY_FORM} />
  })

  kit.personAction(
    '/app/connect',
    async (c, data) => {
      const judged = await judgeAuthorization(judgeDeps(c.req), data)
      if (judged.kind === 'page') return <ProblemPage c={c} words={judged.message} />
      if (judged.kind === 'redirect') return redirect(judged.to)
      const r = judged.request
      if (data.get('decision') !== 'approve')
        return redirect(
          answerUrl(
            r.redirectUri,
            { error: 'access_denied', error_description: 'The person did not connect the app.', state: r.state },
            issuer,
          ),
        )
      const choice = c.businesses.find((b) => b.publicId === data.get('business'))
      const role = data.get('role') ?? ''
      if (!choice || !isGrantRole(role))
        return (
          <ConnectPage
            c={c}
            r={r}
            q={data}
            form={{ values: data, errors: {}, message: 'Choose one of your Businesses and a Role.', code: null }}
          />
        )
      const business = await resolveBusiness(kit.deps.db.read, choice.publicId)
      // The membership is read again now: a Role changed since the page was shown counts; a pending one grants nothing.
      const membership = await findActiveMembership(kit.deps.db.read, c.person.id, business.id)
      if (!membership || !offeredRoles(r.ceiling, asGrant(membership.role)).includes(role)) {
        // §9: a change the person may not make is refused 403 with the words on the page, and nothing is issued.
        throw new Permission(
          'You cannot grant a Role above your own in that Business, nor above what the app asked for.',
        )
      }
      const code = await issueCode(kit.deps.db, kit.deps.clock, {
        appId: r.app.id,
        businessId: business.id,
        personId: c.person.id,
        role,
        redirectUri: r.redirectUri,
        codeChallenge: r.codeChallenge,
        resources: r.resources,
      })
      return redirect(answerUrl(r.redirectUri, { code, state: r.state }, issuer))
    },
    async (c, form) => {
      // Shown again with the refusal above the form, so the person can choose again (the request is judged anew).
      const judged = await judgeAuthorization(judgeDeps(c.req), form.values ?? new URLSearchParams())
      if (judged.kind !== 'ok') return <ProblemPage c={c} words={form.message ?? 'The app could not be connected.'} />
      return <ConnectPage c={c} r={judged.request} q={form.values!} form={form} />
    },
  )
}

function ProblemPage({ c, words }: { c: Signed; words: string }): JSX.Element {
  return (
    <Layout c={c} title="This app cannot be connected" section="">
      <div class="card">
        <h1>This app cannot be connected</h1>
        <p class="notice bad" role="alert">
          {esc(words)}
        </p>
      </div>
    </Layout>
  )
}
