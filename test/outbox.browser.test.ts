// In a real browser (Debian's chromium through playwright-core): a Test business with no mail server sends a document,
// reminds of it and emails its Receipt from the application's pages, then finds each in its Outbox: the list (newest
// first) and a message page with its headers, body and attachments, the PDF downloadable. Screenshots, wide (1280)
// and narrow (390), go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'

let h: Harness
let browser: Browser
let origin: string

// No INVOICING_MAIL_RELAY: the sandbox's case.
servedBrowserForFile((served) => void ({ h, origin, browser } = served))

describe('the Outbox of a Test business', () => {
  test('Send, Remind and Email the Receipt from the pages land in the Outbox; its list and a message page fit both widths', async () => {
    const b = await h.business({
      name: 'Friedrichstraße Werkstatt Gesellschaft mbH',
      email: 'rechnungen@friedrichstrasse-werkstatt.example',
      isTest: true,
    })
    const client = await h.client(b.key, {
      name: 'Kunde mit einem recht langen Namen AG',
      email: 'buchhaltung@kunde-mit-langem-namen.example',
    })
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: client,
        lines: [{ description: 'Beratung', quantity: '12.5', unit_price: '95.00', vat_rate: '19.00' }],
      },
    })
    const who = await person(h, { email: 'owner@werkstatt.example', businessId: b.id, role: 'owner' })
    const page = await browser.newPage()
    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(who.email)
    await page.getByLabel('Password').fill(who.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/app\/b\//)

    const docPage = `${origin}/app/b/${b.publicId}/documents/${d.body.id}`
    await page.goto(docPage)
    // The Send page says where the email goes, with a link to the Outbox.
    await page.locator('#act-send').click()
    await expect(page.locator('.outbox-note a').getAttribute('href')).resolves.toBe(`/app/b/${b.publicId}/outbox`)
    await page.locator('#send-now').click()
    await page.waitForURL(/done=document_sent/)
    await page.locator('#act-remind').click()
    await page.waitForURL(/done=reminded/)
    const issued = (await h.request('GET', `/v1/documents/${d.body.id}`, { key: b.key })).body
    const paid = await h.request('POST', `/v1/documents/${d.body.id}/payments`, {
      key: b.key,
      body: { amount: issued.total, payment_date: '2026-01-15', payment_method: 'cash' },
    })
    await page.goto(docPage)
    // The document page says where a Send, a reminder and a Receipt go.
    expect(await page.locator('.outbox-note').count()).toBe(2)
    await shootBothWidths(page, SHOTS, 'outbox-document-notes')
    await page.locator(`#email-receipt-${paid.body.id}`).click()
    await page.waitForURL(/done=receipt_emailed/)

    // The Outbox, from the navigation: newest first, the Receipt's email on top.
    await page.getByRole('navigation', { name: 'Business' }).getByRole('link', { name: 'Outbox' }).click()
    await page.waitForURL(/\/outbox$/)
    const subjects = await page.locator('#outbox tbody td.key a').allTextContents()
    expect(subjects).toHaveLength(3)
    expect(subjects[0]).toContain(paid.body.receipt.receipt_number)
    expect(subjects[2]).toContain(issued.document_number)
    await shootBothWidths(page, SHOTS, 'outbox-list')

    // The Send's message: its headers, its text, its PDF.
    await page.locator('#outbox tbody td.key a').nth(2).click()
    await page.waitForURL(/\/outbox\/\d+$/)
    const headers = await page.locator('#message-headers').textContent()
    expect(headers).toContain('rechnungen@friedrichstrasse-werkstatt.example')
    expect(headers).toContain('buchhaltung@kunde-mit-langem-namen.example')
    expect(await page.locator('pre.mail-body').first().textContent()).toContain(issued.document_number)
    const pdfLink = page.locator('#attachments a').first()
    expect(await pdfLink.textContent()).toBe(`${issued.document_number}.pdf`)
    await shootBothWidths(page, SHOTS, 'outbox-message')
    const download = await page.request.get(`${origin}${await pdfLink.getAttribute('href')}`)
    expect(download.status()).toBe(200)
    expect(download.headers()['content-type']).toBe('application/pdf')
    expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-')
    await page.close()
  }, 120_000)
})
