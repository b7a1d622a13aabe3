// In a real browser (Debian's chromium through playwright-core): the page a Client opens by its link shows status,
// amount due, the PDF and the bank details and fits a 390 px phone; the application's Credit Note page (its Invoice
// linked, refunds, the Client's link) fits both widths. Screenshots, wide (1280) and narrow (390), go to
// test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'

let h: Harness
let browser: Browser
let origin: string
let biz: { id: number; publicId: string; key: string }
let clientId: number

servedBrowserForFile(async (served) => {
  ;({ h, origin, browser } = served)
  // A Test business: its numbers (TEST-INV-…) are the longest a page shows.
  biz = await h.business({ name: 'Friedrichstraße Werkstatt Gesellschaft mbH', isTest: true })
  await h.bankAccount(biz.id, 'Hauptkonto bei der Commerzbank')
  clientId = await h.client(biz.key, { name: 'Kunde mit einem recht langen Namen AG' })
})

async function issuedInvoice(): Promise<any> {
  const d = await h.request('POST', '/v1/documents', {
    key: biz.key,
    body: {
      type: 'invoice',
      client_id: clientId,
      lines: [
        {
          description: 'Beratung und Konzeption der neuen Webseite',
          quantity: '12.5',
          unit_price: '95.00',
          vat_rate: '19.00',
        },
        { description: 'Hosting', quantity: '1', unit_price: '50.00', vat_rate: '19.00' },
      ],
    },
  })
  return (await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: biz.key })).body
}

describe("the Client's page", () => {
  test('shows status, amount due, the PDF and the bank details, and fits 390 px', async () => {
    const invoice = await issuedInvoice()
    const path = new URL(invoice.public_url).pathname
    const page = await browser.newPage()
    await page.goto(`${origin}${path}`)
    await expect(page.locator('#status').textContent()).resolves.toBe('Open')
    expect(await page.locator('#amount-due').textContent()).toContain(`${invoice.amount_due} EUR`)
    expect(await page.locator('#bank-details').textContent()).toContain('DE89370400440532013000')
    await shootBothWidths(page, SHOTS, 'client-page')
    const pdf = await fetch(`${origin}${await page.locator('#pdf').getAttribute('href')}`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
    await page.close()
  }, 60_000)

  test('a paid Invoice says Paid and asks for nothing; a cancelled one shows no amount due', async () => {
    const paid = await issuedInvoice()
    await h.request('POST', `/v1/documents/${paid.id}/payments`, {
      key: biz.key,
      body: { amount: paid.total, payment_date: '2026-03-10', payment_method: 'cash' },
    })
    const cancelled = await issuedInvoice()
    await h.request('POST', `/v1/documents/${cancelled.id}/cancel`, { key: biz.key })
    const page = await browser.newPage()
    await page.goto(`${origin}${new URL(paid.public_url).pathname}`)
    expect(await page.locator('#status').textContent()).toBe('Paid')
    expect(await page.locator('#bank-details').count()).toBe(0)
    await page.goto(`${origin}${new URL(cancelled.public_url).pathname}`)
    expect(await page.locator('#status').textContent()).toBe('Cancelled')
    expect(await page.locator('#amount-due').count()).toBe(0)
    await page.close()
  }, 60_000)
})

describe('the Credit Note page in the application', () => {
  test("links its Invoice, records a refund and shows the Client's link, at both widths", async () => {
    const who = await person(h, { email: 'owner@werkstatt.example', businessId: biz.id, role: 'owner' })
    const invoice = await issuedInvoice()
    const cn = await h.request('POST', '/v1/documents', {
      key: biz.key,
      body: { type: 'credit_note', client_id: clientId, credited_document_id: invoice.id },
    })
    await h.request('POST', `/v1/documents/${cn.body.id}/issue`, { key: biz.key })
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    const page = await context.newPage()
    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(who.email)
    await page.getByLabel('Password').fill(who.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${biz.publicId}`)
    await page.goto(`${origin}/app/b/${biz.publicId}/documents/${cn.body.id}`)
    expect(await page.locator('#credits-invoice').textContent()).toContain(invoice.document_number)
    await page.getByLabel('Method').selectOption('cash')
    await Promise.all([page.waitForNavigation(), page.locator('#record-refund').click()])
    expect(await page.locator('#h-refunds').count()).toBe(1)
    expect(await page.locator('#doc-owed').textContent()).toContain('0.00')
    expect(await page.locator('#client-link').inputValue()).toBe(
      cn.body.public_url ?? (await h.request('GET', `/v1/documents/${cn.body.id}`, { key: biz.key })).body.public_url,
    )
    // "Copy" puts the Client's link on the clipboard in one click (the application's own script, CSP 'self').
    await page.locator('#copy-client-link').click()
    await page.waitForFunction(() => document.getElementById('copy-client-link')?.textContent?.includes('Copied'))
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await page.locator('#client-link').inputValue(),
    )
    await shootBothWidths(page, SHOTS, 'credit-note-page')
    await page.goto(`${origin}/app/b/${biz.publicId}/documents/${invoice.id}`)
    expect(await page.locator('#credit-notes').textContent()).toContain('TEST-CN-')
    await shootBothWidths(page, SHOTS, 'invoice-with-credit-note')
    await context.close()
  }, 90_000)
})
