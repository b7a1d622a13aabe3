// /docs in a real browser: the reference renders under its Content-Security-Policy, and the page sends nothing to
// any host but this service (Scalar's default would send "try it" requests, key included, through its public proxy).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Browser } from 'playwright-core'
import { tmpdir } from 'node:os'
import { servedInBrowser, type ServedBrowser } from '../../../test/served-browser'

let browser: Browser
let base: string
let served: ServedBrowser

beforeAll(async () => {
  served = await servedInBrowser(tmpdir(), {})
  ;({ browser, origin: base } = served)
}, 60_000)
afterAll(() => served?.close())

test('/docs renders the reference and every request the page makes goes to this service', async () => {
  const page = await browser.newPage()
  const elsewhere: string[] = []
  const violations: string[] = []
  page.on('request', (r) => {
    const url = r.url()
    if (!url.startsWith(base) && !url.startsWith('data:')) elsewhere.push(url)
  })
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  const res = await page.goto(`${base}/docs`)
  expect(res?.headers()['content-security-policy']).toContain("connect-src 'self'")
  // The document's title, drawn by Scalar from /openapi.json: the page works under its CSP.
  await page.getByText('invoicing API', { exact: false }).first().waitFor({ timeout: 30_000 })
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined)
  expect(elsewhere).toEqual([])
  // Nothing the page needs was refused (a refused third-party request would be listed above first).
  expect(violations.filter((v) => !/https?:\/\/(?!127\.0\.0\.1)/.test(v))).toEqual([])
  await page.close()
}, 90_000)
