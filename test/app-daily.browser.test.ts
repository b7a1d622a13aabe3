// In a real browser (Debian's chromium through playwright-core), as a person would: sign in, create a Client and a
// two-rate Invoice (live totals as they type), issue it, record a partial then a final Payment, see it paid, download
// the PDF, email the Receipt through a real SMTP server, and find the dashboard's month income equal to GET
// /v1/reports/income for the month. Every outcome is checked through the API. Screenshots of the dashboard, a document
// and the editor, wide (1280) and narrow (390), are written to test/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'
import { person } from './app-client'
import { startTestSmtpServer, type TestSmtpServer } from '../src/adapters/smtp-test-server'

const SHOTS = join(import.meta.dir, 'screenshots')
const WIDE = { width: 1280, height: 900 }
const NARROW = { width: 390, height: 844 }

let h: Harness
let smtp: TestSmtpServer
let server: ReturnType<typeof Bun.serve>
let browser: Browser
let origin: string

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  smtp = await startTestSmtpServer()
  h = await makeHarness({ config: { mailRelay: smtp.url, rateLimit: 1_000_000 } })
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => h.app.fetch(req) })
  origin = `http://127.0.0.1:${server.port}`
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  await h?.close()
  await smtp?.close()
})

async function shoot(page: Page, name: string) {
  for (const [label, size] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(size)
    // Nothing runs wider than the window: tables scroll inside their own box.
    expect({ name, label, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({
      name,
      label,
      width: size.width,
    })
    await page.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: true })
  }
  await page.setViewportSize(WIDE)
}

describe('daily work in a real browser', () => {
  test('Client, two-rate Invoice, issue, partial and final Payment, PDF, Receipt by email, dashboard income = the API', async () => {
    const b = await h.business({ name: 'Werkstatt Nord', email: 'office@werkstatt.example', currency: 'EUR' })
    await h.bankAccount(b.id, 'Main account')
    const p = await person(h, { email: 'owner@werkstatt.example', name: 'Olga Owner', businessId: b.id, role: 'owner' })
    const api = async (path: string) => {
      const r = await h.request('GET', path, { key: b.key })
      expect(r.status).toBe(200)
      return r.body
    }

    const context = await browser.newContext({ viewport: WIDE, acceptDownloads: true })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
    page.on('pageerror', (e) => problems.push(String(e)))
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.request().method()} ${r.url()}`))
    page.on(
      'request',
      (r) =>
        !r.url().startsWith(origin) && !r.url().startsWith('data:') && problems.push(`outside request: ${r.url()}`),
    )

    // Sign in.
    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)

    // A Client.
    await page.getByRole('link', { name: 'Clients', exact: true }).click()
    await page.getByRole('link', { name: 'New client' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Acme GmbH')
    await page.getByLabel('Email', { exact: true }).fill('billing@acme.example')
    await page.getByLabel('Country (2 letters)').fill('DE')
    await page.getByRole('button', { name: 'Create the Client' }).click()
    await page.waitForURL(/\/clients\/\d+\?/)
    const clientId = Number(/\/clients\/(\d+)/.exec(page.url())![1])
    expect(await api(`/v1/clients/${clientId}`)).toMatchObject({
      name: 'Acme GmbH',
      email: 'billing@acme.example',
      country: 'DE',
    })

    // A two-rate Invoice, totals shown live as the Lines are typed.
    await page.getByRole('link', { name: 'New invoice' }).click()
    await page.waitForURL(/\/documents\/new/)
    const row = (i: number) => page.locator(`[data-line="${i}"]`)
    await row(0).getByLabel('Description').fill('Consulting')
    await row(0).getByLabel('Quantity').fill('3')
    await row(0).getByLabel('Unit price').fill('100.00')
    await row(0).getByLabel('VAT %').fill('19')
    await row(1).getByLabel('Description').fill('Handbook')
    await row(1).getByLabel('Quantity').fill('2')
    await row(1).getByLabel('Unit price').fill('12.50')
    await row(1).getByLabel('VAT %').fill('7')
    await page.locator('#total-total', { hasText: '383.75' }).waitFor({ timeout: 15_000 })
    await shoot(page, 'editor')
    // Enter in a Line's field creates the Draft, as a person expects (not the Client picker's Find above it).
    await row(1).getByLabel('VAT %').press('Enter')
    await page.waitForURL(/\/documents\/\d+\?/)
    const docId = Number(/\/documents\/(\d+)/.exec(page.url())![1])
    expect(await api(`/v1/documents/${docId}`)).toMatchObject({
      status: 'draft',
      client_id: clientId,
      net_total: '325.00',
      vat_total: '58.75',
      total: '383.75',
    })

    // Issue.
    await page.locator('#act-issue').click()
    await page.waitForURL(/done=document_issued/)
    const issued = await api(`/v1/documents/${docId}`)
    expect(issued.status).toBe('issued')
    expect(await page.locator('#doc-title').innerText()).toContain(issued.document_number)

    // A partial Payment, then the rest (the form offers the amount due).
    await page.getByLabel('Amount (EUR)').fill('100.00')
    await page.getByLabel('Method').selectOption('cash')
    await page.locator('#record-payment').click()
    await page.waitForURL(/done=payment_recorded/)
    expect((await api(`/v1/documents/${docId}`)).status).toBe('partially_paid')
    expect(await page.locator('#doc-due').innerText()).toContain('283.75')
    await page.locator('#record-payment').click()
    await page.waitForURL(/done=payment_recorded/)
    expect(await page.locator('#doc-title [data-status]').getAttribute('data-status')).toBe('paid')
    const paid = await api(`/v1/documents/${docId}`)
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '383.75', amount_due: '0.00' })
    const pays = (await api(`/v1/payments?document_id=${docId}`)).data
    expect(pays.map((x: any) => [x.amount, x.recorded_by, x.receipt.receipt_number !== null])).toEqual([
      ['100.00', null, true],
      ['283.75', null, true],
    ])
    await shoot(page, 'document')

    // The PDF, downloaded as a person would.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-pdf').click()])
    const file = await download.path()
    expect(readFileSync(file!).subarray(0, 5).toString()).toBe('%PDF-')
    expect(download.suggestedFilename()).toBe(`${issued.document_number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`)

    // The first Payment's Receipt by email, through the SMTP server.
    await page.locator(`#email-receipt-${pays[0].id}`).click()
    await page.waitForURL(/done=receipt_emailed/)
    expect(smtp.received.length).toBe(1)
    const mail = smtp.received[0]!
    expect(mail.envelope.to).toEqual(['billing@acme.example'])
    expect(mail.mail.subject).toBe(`Receipt ${pays[0].receipt.receipt_number} from Werkstatt Nord`)
    expect(mail.mail.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-')

    // The dashboard's month income is the income report's for the month.
    await page.getByRole('link', { name: 'Home', exact: true }).click()
    const month = h.clock.now().toISOString().slice(0, 7)
    const end = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10)
    const report = await api(`/v1/reports/income?from=${month}-01&to=${end}`)
    expect(report.income).toBe('325.00')
    expect(await page.locator('#month-income [data-amount]').getAttribute('data-amount')).toBe(report.income)
    await shoot(page, 'dashboard')

    expect(problems).toEqual([])
    await context.close()
  }, 180_000)
})
