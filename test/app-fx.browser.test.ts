// In a real browser (Debian's chromium through playwright-core): a person writes a Draft in USD for a EUR Business,
// sets its exchange rate in the editor, issues it and reads the rate and the VAT in EUR on the document page
// (extensions §16). Every outcome is checked through the API; the editor and the document page are shot wide (1280)
// and narrow (390) into test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served), {
  config: { rateLimit: 1_000_000 },
  referenceRates: false,
})

describe('the exchange rate in a real browser', () => {
  test('set in the editor, fixed at issue, shown on the document with the VAT in EUR', async () => {
    const b = await h.business({ name: 'Studio Süd', currency: 'EUR' })
    const clientId = await h.client(b.key, { name: 'Acme Inc', currency: 'USD', country: 'US' })
    const p = await person(h, { email: 'owner@studio.example', businessId: b.id, role: 'owner' })
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(String(e)))
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`))

    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)

    await page.goto(`${origin}/app/b/${b.publicId}/documents/new?type=invoice&client_id=${clientId}`)
    await page.getByLabel('Currency').fill('USD')
    await page.getByLabel(/Exchange rate/).fill('0.9123')
    const row = page.locator('[data-line="0"]')
    await row.getByLabel('Description').fill('Design sprint')
    await row.getByLabel('Quantity').fill('1')
    await row.getByLabel('Unit price').fill('1000.00')
    await row.getByLabel('VAT %').fill('19')
    await page.locator('#total-total', { hasText: '1,190.00' }).waitFor({ timeout: 15_000 })
    await shootBothWidths(page, SHOTS, 'fx-editor')
    await page.locator('#save-draft').click()
    await page.waitForURL(/\/documents\/\d+\?/)
    const docId = Number(/\/documents\/(\d+)/.exec(page.url())![1])

    await page.locator('#act-issue').click()
    await page.waitForURL(/done=document_issued/)
    const doc = (await h.request('GET', `/v1/documents/${docId}`, { key: b.key })).body
    // 190.00 USD × 0.9123 = 173.337 → 173.34 EUR
    expect(doc).toMatchObject({
      status: 'issued',
      exchange_rate: '0.9123',
      accounting_currency: 'EUR',
      vat_total_accounting: '173.34',
    })
    expect(await page.locator('#doc-rate').innerText()).toBe('1 USD = 0.9123 EUR')
    expect(await page.locator('#doc-vat-accounting').innerText()).toContain('173.34')
    await shootBothWidths(page, SHOTS, 'fx-document')
    // The reports page states the converted block beside the other currencies.
    await page.goto(`${origin}/app/b/${b.publicId}/reports?from=2026-03-01&to=2026-03-31`)
    expect(await page.locator('#report-income-converted').innerText()).toContain('173.34')
    await shootBothWidths(page, SHOTS, 'fx-reports')
    expect(problems).toEqual([])
    await context.close()
  }, 90_000)
})
