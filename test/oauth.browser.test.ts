// Connecting an app in a real browser (Debian chromium driven by playwright-core): the app sends the person to
// /oauth/authorize, they sign in, choose the Business and Role on the consent page, and the browser lands on the app's
// loopback redirect URI with code, state and iss, which the app (oauth4webapi) exchanges for a working token.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import * as oauth from 'oauth4webapi'
import { type Browser } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'
import { person } from './app-client'
import { createApp } from '../src/modules/oauth'
import { addMember } from '../src/modules/people'
import { publicBaseUrl } from '../src/config'

const SHOTS = join(import.meta.dir, 'screenshots')
let h: Harness
let server: ReturnType<typeof Bun.serve>
let callback: ReturnType<typeof Bun.serve>
const arrived: string[] = []
let browser: Browser
let origin: string

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  h = await makeHarness()
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => h.app.fetch(req) })
  origin = `http://127.0.0.1:${server.port}`
  callback = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      arrived.push(req.url)
      return new Response('<!doctype html><title>App</title><p>Connected.</p>', {
        headers: { 'content-type': 'text/html' },
      })
    },
  })
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  callback?.stop(true)
  await h?.close()
})

describe('connecting an app in a real browser', () => {
  test('authorize, sign in, consent, back to the app with code, state and iss; the token acts as granted', async () => {
    const b = await h.business({ name: 'Werkstatt Nord' })
    const p = await person(h, { email: 'owner@werkstatt.example', name: 'Olga Owner', businessId: b.id, role: 'owner' })
    // The registered loopback URI has no port: the app listens wherever it can (RFC 8252 §7.3).
    const app = await createApp(h.deps.db, h.clock, {
      ownerPersonId: p.id,
      name: 'Ledger Sync',
      redirectUris: ['http://127.0.0.1/cb'],
      public: true,
    })
    const redirect = `http://127.0.0.1:${callback.port}/cb`
    const issuer = new URL(publicBaseUrl(h.deps.config))
    const opts: any = {
      [oauth.customFetch]: (url: string, init: RequestInit) => h.app.fetch(new Request(url, init)),
      [oauth.allowInsecureRequests]: true,
    }
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...opts }),
    )
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(`${origin}/oauth/authorize`)
    url.search = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: redirect,
      response_type: 'code',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      scope: 'member',
    }).toString()

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(String(e)))
    page.on(
      'request',
      (r) =>
        !r.url().startsWith(origin) && !r.url().startsWith(redirect) && problems.push(`outside request: ${r.url()}`),
    )
    await page.goto(url.toString())
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.getByRole('heading', { name: 'Connect Ledger Sync?' }).waitFor()
    await page.locator('#f-business').selectOption({ label: 'Werkstatt Nord (you are owner)' })
    await page.getByLabel('Role the app acts with').selectOption('member')
    await page.screenshot({ path: join(SHOTS, 'oauth-consent.png'), fullPage: true })
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL((u) => u.toString().startsWith(redirect))
    expect(problems).toEqual([])
    await context.close()

    const back = new URL(arrived.find((u) => new URL(u).pathname === '/cb')!)
    expect(back.searchParams.get('iss')).toBe(issuer.toString().replace(/\/$/, ''))
    const client = { client_id: app.client_id }
    const params = oauth.validateAuthResponse(as, client, back, state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirect, verifier, opts),
    )
    const r = await h.request('GET', '/v1/business', { key: tokens.access_token })
    expect(r.status).toBe(200)
    expect(r.body.business_id).toBe(b.publicId)
    expect((await h.request('GET', '/v1/webhooks', { key: tokens.access_token })).status).toBe(403)
  }, 120_000)
  test('an app with one registered address that leaves out redirect_uri: after a refused Role, the consent form still answers the app (CSP form-action names its origin)', async () => {
    const b = await h.business({ name: 'Werkstatt Ost' })
    // An Admin when the page is shown, made a Member before answering it: the page offers only Roles the person holds,
    // so a refused Role comes from a Role lowered in between (the form reads the membership again).
    const p = await person(h, {
      email: 'member@werkstatt-ost.example',
      name: 'Mia Member',
      businessId: b.id,
      role: 'admin',
    })
    const only = `http://127.0.0.1:${callback.port}/only`
    const app = await createApp(h.deps.db, h.clock, {
      ownerPersonId: p.id,
      name: 'Single Address',
      redirectUris: [only],
      public: true,
    })
    const url = new URL(`${origin}/oauth/authorize`)
    url.search = new URLSearchParams({
      client_id: app.client_id,
      response_type: 'code',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
      state: 'st-only',
    }).toString()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const blocked: string[] = []
    page.on('console', (m) => /Content Security Policy/i.test(m.text()) && blocked.push(m.text()))
    await page.goto(url.toString())
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.getByRole('heading', { name: 'Connect Single Address?' }).waitFor()
    // Now a Member, she asks for admin: refused on the page (403), the form shown again.
    await addMember(h.deps, b.id, { email: p.email, role: 'member' })
    await page.getByLabel('Role the app acts with').selectOption('admin')
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.getByText('above your own').waitFor()
    await page.getByLabel('Role the app acts with').selectOption('viewer')
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL((u) => u.toString().startsWith(only), { timeout: 30_000 })
    const back = new URL(page.url())
    expect(back.searchParams.get('state')).toBe('st-only')
    expect(back.searchParams.get('code')).toBeString()
    expect(blocked).toEqual([])
    await context.close()
  }, 120_000)
})
