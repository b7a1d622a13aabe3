// /docs in a real browser, as a reader sees it: the reference lists the operations of /openapi.json by tag and opens
// them, shows no button for a hosted service (Ask AI, Deploy, Share, Generate MCP), sends "Test Request" to this service,
// asks no host but this service for anything, and fits a phone's width. Screenshots of both widths are left in the temp folder for a person to look at.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type Page } from 'playwright-core'
import type { Harness } from '../../../test/harness'
import { servedInBrowser, type ServedBrowser } from '../../../test/served-browser'

let h: Harness
let browser: Browser
let base: string
let served: ServedBrowser

beforeAll(async () => {
  served = await servedInBrowser(tmpdir(), {})
  ;({ h, browser, origin: base } = served)
}, 60_000)
afterAll(() => served?.close())

const HOSTED = /\b(ask ai|deploy|share|generate mcp)\b/i

/** Opens /docs at a width, recording every URL the page asks for, and waits for the reference to be drawn. */
async function openDocs(width: number): Promise<{ page: Page; asked: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  const asked: string[] = []
  page.on('request', (r) => asked.push(r.url()))
  await page.goto(`${base}/docs`)
  // The title comes from /openapi.json: Scalar fetched the document and drew it.
  await page.getByRole('heading', { name: 'invoicing API' }).waitFor({ timeout: 60_000 })
  // No wait for "network idle": Scalar's page never reports it here. Requests are recorded to the end of each test.
  return { page, asked }
}

function outsiders(asked: string[]): string[] {
  return asked.filter((u) => !u.startsWith(base + '/') && !u.startsWith('data:') && !u.startsWith('blob:'))
}

async function hostedServiceControls(page: Page): Promise<string[]> {
  const labels = await page.evaluate(() =>
    [...document.querySelectorAll('button, a, [role="button"], [role="menuitem"]')].map((e) =>
      `${e.textContent ?? ''} ${e.getAttribute('aria-label') ?? ''} ${e.getAttribute('title') ?? ''}`.trim(),
    ),
  )
  return labels.filter((l) => HOSTED.test(l))
}

describe('/docs in chromium', () => {
  test('wide (1280): every tag of the document is in the sidebar, a group opens onto its operations, no hosted-service button, "Test Request" answered by this service, no other host asked', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body
    const tags = new Set<string>()
    const clientSummaries: string[] = []
    for (const ops of Object.values(
      doc.paths as Record<string, Record<string, { tags?: string[]; summary?: string }>>,
    )) {
      for (const op of Object.values(ops)) {
        for (const t of op.tags ?? []) tags.add(t)
        if (op.tags?.includes('Clients') && op.summary) clientSummaries.push(op.summary)
      }
    }
    expect(tags.size).toBeGreaterThan(5)
    expect(clientSummaries.length).toBeGreaterThan(3)

    const { page, asked } = await openDocs(1280)
    const sidebar = page.locator('aside, nav').first()
    for (const tag of tags) await sidebar.locator(`text="${tag}" >> visible=true`).first().waitFor({ timeout: 30_000 })
    // A group opens onto its operations, each under its summary.
    await sidebar.getByText('Clients', { exact: true }).first().click()
    for (const summary of clientSummaries)
      await page.getByText(summary, { exact: true }).first().waitFor({ timeout: 30_000 })

    expect(await hostedServiceControls(page)).toEqual([])
    expect((await page.evaluate(() => document.body.innerText)).match(new RegExp(HOSTED.source, 'gi')) ?? []).toEqual(
      [],
    )
    await page.screenshot({ path: join(tmpdir(), 'invoicing-docs-1280.png') })

    // "Test Request" sends to this service itself (no proxy) and shows its answer.
    const answered = page.waitForResponse((r) => r.url() === `${base}/health`, { timeout: 60_000 })
    await page.getByText('Liveness: the service answers').first().click()
    await page
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click()
    await page.getByRole('button', { name: /^Send/ }).first().click()
    expect((await answered).status()).toBe(200)
    await page.getByText('200 OK').first().waitFor({ timeout: 30_000 })

    expect(outsiders(asked)).toEqual([])
    expect(asked.some((u) => u.startsWith(`${base}/openapi.json`))).toBe(true)
    await page.close()
  }, 120_000)

  test('narrow (390): the reference is drawn without sideways scrolling, its menu lists the groups, no hosted-service button, no other host asked', async () => {
    const { page, asked } = await openDocs(390)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await hostedServiceControls(page)).toEqual([])
    await page.screenshot({ path: join(tmpdir(), 'invoicing-docs-390.png') })
    // The sidebar folds into a menu: opened, it lists the operations' groups.
    await page
      .getByRole('button', { name: /open menu/i })
      .first()
      .click()
    await page.locator('text="Clients" >> visible=true').first().waitFor({ timeout: 30_000 })
    await page.screenshot({ path: join(tmpdir(), 'invoicing-docs-390-menu.png') })
    expect(outsiders(asked)).toEqual([])
    await page.close()
  }, 120_000)
})
