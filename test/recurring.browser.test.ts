// Recurring invoices in a real browser (Debian's chromium through playwright-core), as a person would: create one in
// the editor (the Draft editor's Lines and live totals), see its next dates, let the background task make its Invoice,
// see the last run and a refused step's error, pause and resume. Every outcome is checked through the API.
// Screenshots of the editor, the schedule and the list, wide (1280) and narrow (390), go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { runRecurringInvoices } from '../src/modules/recurring'
import { person } from './app-client'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served))

describe('recurring invoices in a real browser', () => {
  test('create in the editor, next dates shown, the task makes the Invoice, a refused send shown, pause and resume', async () => {
    const b = await h.business({ name: 'Studio Süd', currency: 'EUR' })
    const clientId = await h.client(b.key, { name: 'Acme GmbH' })
    const p = await person(h, { email: 'owner@studio.example', businessId: b.id, role: 'owner' })
    const api = async (path: string) => {
      const r = await h.request('GET', path, { key: b.key })
      expect(r.status).toBe(200)
      return r.body
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page: Page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(String(e)))
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${r.url()}`))

    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)

    await page.getByRole('link', { name: 'Recurring', exact: true }).click()
    await page.getByRole('link', { name: 'New recurring invoice' }).click()
    await page.waitForURL(/\/recurring\/new/)
    await page.locator('#f-client_id').selectOption(String(clientId))
    const row = page.locator('[data-line="0"]')
    await row.getByLabel('Description').fill('Retainer {{month}} {{year}}')
    await row.getByLabel('Quantity').fill('1')
    await row.getByLabel('Unit price').fill('1000.00')
    await row.getByLabel('VAT %').fill('19')
    await page.getByLabel('Number of Invoices').fill('12')
    await page.locator('#total-total', { hasText: '1,190.00' }).waitFor({ timeout: 15_000 })
    await shootBothWidths(page, SHOTS, 'recurring-editor')
    await page.locator('#save-recurring').click()
    await page.waitForURL(/\/recurring\/\d+\?done=recurring_created/)
    const id = Number(/\/recurring\/(\d+)/.exec(page.url())![1])
    const made = await api(`/v1/recurring-invoices/${id}`)
    expect(made).toMatchObject({
      client_id: clientId,
      frequency: 'month',
      interval: 1,
      count: 12,
      action: 'issue',
      status: 'active',
      next_date: '2026-03-10',
    })
    expect(await page.locator('#next-dates').innerText()).toContain('2026-03-10, 2026-04-10, 2026-05-10')

    // The background task makes today's Invoice; the schedule shows it as its last run.
    await runRecurringInvoices(h.deps)
    await page.reload()
    const run = (await api(`/v1/recurring-invoices/${id}`)).last_run
    expect(run).toMatchObject({ date: '2026-03-10', error: null })
    const doc = await api(`/v1/documents/${run.document_id}`)
    expect(doc).toMatchObject({ status: 'issued', recurring_invoice_id: id, total: '1190.00' })
    expect(doc.lines[0].description).toBe('Retainer March 2026')
    await page.locator(`#last-run a[href$="/documents/${run.document_id}"]`).waitFor()
    await shootBothWidths(page, SHOTS, 'recurring-schedule')

    // Pause, then resume.
    await page.locator('#recurring-pause').click()
    await page.waitForURL(/done=recurring_paused/)
    expect((await api(`/v1/recurring-invoices/${id}`)).status).toBe('paused')
    await page.locator('#recurring-resume').click()
    await page.waitForURL(/done=recurring_resumed/)
    expect((await api(`/v1/recurring-invoices/${id}`)).status).toBe('active')

    // One that emails each Invoice, with no way to send mail: its refused send is shown in the list.
    const send = await h.request('POST', '/v1/recurring-invoices', {
      key: b.key,
      body: {
        client_id: clientId,
        frequency: 'week',
        start_date: '2026-03-10',
        action: 'send',
        lines: [{ description: 'Weekly support', quantity: '1', unit_price: '80.00', vat_rate: '19' }],
      },
    })
    expect(send.status).toBe(201)
    await runRecurringInvoices(h.deps)
    const refused = (await api(`/v1/recurring-invoices/${send.body.id}`)).last_run
    expect(refused.error.code).toBe('no_mail_provider')
    await page.getByRole('link', { name: 'Recurring', exact: true }).click()
    await page.locator(`#recurring-${send.body.id} .err[data-code="no_mail_provider"]`).waitFor()
    await shootBothWidths(page, SHOTS, 'recurring-list')

    expect(problems).toEqual([])
    await context.close()
  }, 90_000)
})
