// The application door (/app): server-rendered pages for people, with its own sessions, CSRF and security headers.
// The API pipeline never sees these paths; the pages run the same operations as the API, through the same runner.
import type { Deps } from '../../deps'
import type { OperationContext } from '../../platform/operation'
import { serviceSecret } from '../../db/meta'
import { htmlResponse, SECURITY_HEADERS } from './http'
import { AppKit } from './kit'
import { Router } from './router'
import { STYLESHEET_PATH } from './layout'
import { STYLESHEET } from './styles'
import { signInRoutes } from './pages/sign-in'
import { homeRoutes } from './pages/home'
import { profileRoutes } from './pages/profile'
import { invitationsRoutes } from './pages/invitations'
import { settingsRoutes } from './pages/settings'
import { connectRoutes, consentTargets } from './pages/connect'
import { AddressLimit } from '../oauth/address-limit'
import { appsRoutes } from './pages/apps'
import { dailyRoutes } from './pages/daily'
import { HTMX_PATH } from './layout'
import { COPY_SCRIPT, COPY_SCRIPT_PATH } from './copy-script'
// Imported as text: the bundler embeds it in the binary, so the application needs no node_modules at run time.
import HTMX_SOURCE from 'htmx.org/dist/htmx.min.js' with { type: 'text' }

export type AppDoor = (req: Request) => Promise<Response>

export { isAppPath } from './paths'

/**
 * What the application shares with the other doors: the runner's context of operations (the API's cursors and kept
 * pages) and the count of metadata documents fetched per address.
 */
export interface AppDoorShared {
  context: OperationContext
  documentFetches: AddressLimit
}

/** Every page of the application, in the order they are matched. */
export function pageRoutes(kit: AppKit, documentFetches: AddressLimit): void {
  signInRoutes(kit)
  // The dashboard is a Business's home page: registered before the home routes' own.
  dailyRoutes(kit)
  homeRoutes(kit)
  profileRoutes(kit)
  invitationsRoutes(kit)
  appsRoutes(kit)
  settingsRoutes(kit)
  connectRoutes(kit, documentFetches)
}

export async function appDoor(deps: Deps, shared: AppDoorShared): Promise<AppDoor> {
  const router = new Router()
  const kit = new AppKit(deps, router, await serviceSecret(deps.db, 'csrf_secret'), shared.context)
  const css = new TextEncoder().encode(STYLESHEET)
  router.add(
    'GET',
    STYLESHEET_PATH,
    async () =>
      new Response(css, {
        headers: {
          'content-type': 'text/css; charset=utf-8',
          'cache-control': 'public, max-age=3600',
          ...SECURITY_HEADERS,
        },
      }),
  )
  // htmx, for the pages that update a part of themselves (the editor's live totals): served from the binary, never a CDN.
  const htmx = new TextEncoder().encode(HTMX_SOURCE)
  router.add(
    'GET',
    HTMX_PATH,
    async () =>
      new Response(htmx, {
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=86400',
          ...SECURITY_HEADERS,
        },
      }),
  )
  const copy = new TextEncoder().encode(COPY_SCRIPT)
  router.add(
    'GET',
    COPY_SCRIPT_PATH,
    async () =>
      new Response(copy, {
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=3600',
          ...SECURITY_HEADERS,
        },
      }),
  )
  pageRoutes(kit, shared.documentFetches)

  return async (req) => {
    const url = new URL(req.url)
    const found = router.match(req.method.toUpperCase(), url.pathname)
    if ('handler' in found) {
      const res = await found.handler(req, found.params)
      return url.pathname === '/app/connect' ? letConsentAnswerTheApp(res, req) : res
    }
    if (found.allowed.length > 0) {
      const res = await kit.bare(405, 'Not allowed', 'This page does not take that kind of request.')
      res.headers.set('allow', [...new Set(found.allowed)].join(', '))
      return res
    }
    return kit.bare(404, 'Not found', 'There is no such page.')
  }
}

/**
 * The consent page's form answers with a redirect to the app's registered address; browsers hold that redirect to the
 * page's CSP form-action, so a page that shows the consent form (its request judged sound: the address is one the app
 * registered, named by redirect_uri or the app's only one) names that one origin beside 'self'. Any other page of
 * /app/connect keeps form-action 'self'.
 */
function letConsentAnswerTheApp(res: Response, req: Request): Response {
  const to = consentTargets.get(req)
  const csp = res.headers.get('content-security-policy')
  if (!to || !csp || !(res.headers.get('content-type') ?? '').startsWith('text/html')) return res
  res.headers.set(
    'content-security-policy',
    csp.replace("form-action 'self'", `form-action 'self' ${new URL(to).origin}`),
  )
  return res
}

export { htmlResponse }
