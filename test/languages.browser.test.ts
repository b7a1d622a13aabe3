// In a real browser (chromium through playwright-core): a person sets the Business's language on the setup page and a
// Client's on its form (extensions §18), each checked through the API; the Client then reads its document's page in
// its language. Screenshots of the setup page, the Client form and the page, wide and narrow, go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import { type Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served))

describe('languages in the application', () => {
  test("the Business's and a Client's language are chosen from a list, saved as the API answers them, and the Client's page speaks it", async () => {
    const b = await h.business({ name: 'Werkstatt Nord', email: 'office@werkstatt.example', currency: 'EUR' })
    const p = await person(h, { email: 'owner@werkstatt.example', name: 'Olga Owner', businessId: b.id, role: 'owner' })
    const api = async (path: string) => {
      const r = await h.request('GET', path, { key: b.key })
      expect(r.status).toBe(200)
      return r.body
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(String(e)))
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${r.url()}`))

    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)

    // The Business: German.
    await page.goto(`${origin}/app/b/${b.publicId}/settings/business`)
    await page.getByLabel('Language of documents').selectOption('de')
    await page.locator('#business-form').getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/settings\/business\?/)
    expect((await api('/v1/business')).language).toBe('de')
    expect(await page.getByLabel('Language of documents').inputValue()).toBe('de')
    await shootBothWidths(page, SHOTS, 'settings-language')

    // A Client: French; then back to the Business's.
    await page.goto(`${origin}/app/b/${b.publicId}/clients`)
    await page.getByRole('link', { name: 'New client' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Client Paris')
    await page.getByLabel('Email', { exact: true }).fill('compta@paris.example')
    await page.getByLabel('Country (2 letters)').fill('FR')
    const language = page.getByLabel('Language of documents')
    expect(await language.locator('option').first().innerText()).toBe('The Business’s (German (Deutsch))')
    await language.selectOption('fr')
    await shootBothWidths(page, SHOTS, 'client-language')
    await page.getByRole('button', { name: 'Create the Client' }).click()
    await page.waitForURL(/\/clients\/\d+\?/)
    const clientId = Number(/\/clients\/(\d+)/.exec(page.url())![1])
    expect((await api(`/v1/clients/${clientId}`)).language).toBe('fr')

    // Its Invoice's page speaks French, the status, the bank details and the QR code's label too.
    await h.bankAccount(b.id, 'Compte principal')
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: clientId,
        lines: [{ description: 'Révision', quantity: '1', unit_price: '1234.50', vat_rate: '20.00' }],
      },
    })
    const inv = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
    expect(inv.body.language).toBe('fr')
    await page.goto(`${origin}${new URL(inv.body.public_url, origin).pathname}`)
    expect(await page.locator('h1').innerText()).toBe(`Facture ${inv.body.document_number}`)
    expect((await page.locator('body').innerText()).replace(/\s+/g, ' ')).toContain('Total TTC 1 481,40 €')
    expect(await page.locator('#status').innerText()).toBe('En cours')
    expect(await page.locator('#pdf').innerText()).toBe('Télécharger le PDF')
    expect(await page.locator('#bank-details h2').innerText()).toBe('Payer par virement bancaire')
    expect(await page.getByRole('img', { name: 'Code QR EPC pour payer par virement SEPA' }).count()).toBe(1)
    await shootBothWidths(page, SHOTS, 'public-page-fr')

    // Back to the Business's language: the Client's is cleared, the issued Invoice keeps French.
    await page.goto(`${origin}/app/b/${b.publicId}/clients/${clientId}/edit`)
    await page.getByLabel('Language of documents').selectOption('')
    await page.getByRole('button', { name: /save/i }).click()
    await page.waitForURL(/\/clients\/\d+\?/)
    expect((await api(`/v1/clients/${clientId}`)).language).toBeNull()
    expect((await api(`/v1/documents/${inv.body.id}`)).language).toBe('fr')
    expect(problems).toEqual([])
    await context.close()
  }, 120_000)
})
