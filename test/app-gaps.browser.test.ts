// In a real browser (Debian's chromium through playwright-core), the gaps a new user met in the application:
// every list page readable on a phone (390 px: no table wider than its box), the Receipt list naming documents by
// number and Client; Business setup with its logo, brand colour and e-invoice fields; the editor's Client and Product
// pickers past 300 of each (and the credited Invoice); the mailbox asked part by part. Screenshots, wide (1280) and
// narrow (390), go to test/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, type Page } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'
import { person } from './app-client'
import { solidPng } from './png'

const SHOTS = join(import.meta.dir, 'screenshots')
const WIDE = { width: 1280, height: 900 }
const NARROW = { width: 390, height: 844 }

let h: Harness
let server: ReturnType<typeof Bun.serve>
let browser: Browser
let origin: string

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  h = await makeHarness({ config: { rateLimit: 1_000_000, webhookAllowPrivate: true } })
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => h.app.fetch(req) })
  origin = `http://127.0.0.1:${server.port}`
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  await h?.close()
})

/** Opens a signed-in browser page for `email`; every console error, failed answer or outside request is collected. */
async function signedIn(
  email: string,
  password: string,
  businessPublicId: string,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: WIDE })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(String(e)))
  page.on(
    'request',
    (r) => !r.url().startsWith(origin) && !r.url().startsWith('data:') && problems.push(`outside request: ${r.url()}`),
  )
  await page.goto(`${origin}/app`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: /sign in/i }).click()
  await page.waitForURL(`**/app/b/${businessPublicId}`)
  return { context, page, problems }
}

/** Each table box whose content is wider than the box (a reader would have to scroll sideways inside it). */
function clippedTables(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.table-wrap')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map(
        (el) =>
          `${el.querySelector('table')?.id || el.querySelector('table')?.className || 'table'}: ${el.scrollWidth} > ${el.clientWidth}`,
      ),
  )
}

/** Screenshots wide and narrow; answers what ran wider than the window or its table box at either width. */
async function shoot(page: Page, name: string): Promise<string[]> {
  const wrong: string[] = []
  for (const [label, size] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(size)
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    if (width !== size.width) wrong.push(`${name} ${label}: page ${width} px wide`)
    for (const t of await clippedTables(page)) wrong.push(`${name} ${label}: ${t}`)
    await page.screenshot({ path: join(SHOTS, `gaps-${name}-${label}.png`), fullPage: true })
    // The last table at phone width alone, to read it at full size.
    const table = page.locator('.table-wrap').last()
    if (label === 'narrow' && (await table.count()))
      await table.screenshot({ path: join(SHOTS, `gaps-${name}-table-narrow.png`) })
  }
  await page.setViewportSize(WIDE)
  return wrong
}

/** A Business with Clients, Products, issued Invoices with Payments (so every list has rows), and its Owner. */
async function seeded() {
  const b = await h.business({
    name: 'Kontor Süd',
    email: 'office@kontor.example',
    currency: 'EUR',
    address: 'Marktplatz 1',
    city: 'München',
    postalCode: '80331',
    vatNumber: 'DE123456789',
  })
  const bank = await h.bankAccount(b.id, 'Main account')
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await h.request(method, path, { key: b.key, body })
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
    return r.body
  }
  const clients: number[] = []
  for (const [name, email] of [
    ['Bäckerei Hoffmann und Söhne Kommanditgesellschaft', 'buchhaltung.rechnungseingang@baeckerei-hoffmann.example'],
    ['Acme GmbH', 'billing@acme.example'],
  ] as const) {
    clients.push(
      (
        await api('POST', '/v1/clients', {
          name,
          email,
          country: 'DE',
          address: 'Weg 2',
          city: 'Köln',
          postal_code: '50667',
        })
      ).id,
    )
  }
  await api('POST', '/v1/products', {
    name: 'Beratungsleistung Senior (Stundensatz, vor Ort beim Kunden)',
    type: 'service',
    price: '1250.00',
    currency: 'EUR',
    vat_rate: '19',
    unit: 'hour',
    code: 'BER-SEN-001',
  })
  const docs: number[] = []
  for (const clientId of clients) {
    const d = await api('POST', '/v1/documents', {
      type: 'invoice',
      client_id: clientId,
      lines: [{ description: 'Consulting', quantity: '3', unit_price: '1234567.89', vat_rate: '19' }],
    })
    await api('POST', `/v1/documents/${d.id}/issue`)
    await api('POST', `/v1/documents/${d.id}/payments`, {
      amount: '1000000.00',
      payment_date: '2026-03-10',
      payment_method: 'bank_transfer',
      bank_account_id: bank,
      reference: 'Überweisung 2026-03 Rechnung',
    })
    docs.push(d.id)
  }
  const owner = await person(h, {
    email: `owner-${b.id}@kontor.example`,
    name: 'Olga Owner',
    businessId: b.id,
    role: 'owner',
  })
  return { b, clients, docs, owner, api }
}

describe('list pages on a phone', () => {
  test('documents, a document with its Payments, Clients, a Client statement, Products, Receipts and reports: no table wider than its box at 390 px', async () => {
    const s = await seeded()
    const { context, page, problems } = await signedIn(s.owner.email, s.owner.password, s.b.publicId)
    const wrong: string[] = []
    const base = `${origin}/app/b/${s.b.publicId}`
    for (const [name, path] of [
      ['documents', '/documents'],
      ['document', `/documents/${s.docs[0]}`],
      ['clients', '/clients'],
      ['client', `/clients/${s.clients[0]}?from=2026-01-01&to=2026-12-31`],
      ['products', '/products'],
      ['receipts', '/receipts'],
      ['reports', '/reports?from=2026-01-01&to=2026-12-31'],
      ['dashboard', ''],
    ] as const) {
      await page.goto(base + path)
      wrong.push(...(await shoot(page, name)))
      if (name === 'client') {
        // The statement in words: the document's type and the Payment's method, not the API's codes.
        const statement = await page.locator('#st-h').locator('..').innerText()
        expect(statement).toContain('Invoice INV-2026-0001')
        expect(statement).toContain('Bank transfer')
        expect(statement).not.toContain('bank_transfer')
      }
    }
    expect(wrong).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 120_000)
})

describe('settings lists on a phone', () => {
  test('members, API keys, webhooks, Connected apps and bank accounts: no table wider than its box at 390 px', async () => {
    const s = await seeded()
    await s.api('POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/invoicing/events/receiver/for-kontor-sued',
      events: ['document.issued', 'payment.recorded'],
    })
    const { context, page, problems } = await signedIn(s.owner.email, s.owner.password, s.b.publicId)
    const wrong: string[] = []
    for (const name of ['members', 'keys', 'webhooks', 'connected-apps', 'bank-accounts']) {
      await page.goto(`${origin}/app/b/${s.b.publicId}/settings/${name}`)
      wrong.push(...(await shoot(page, `settings-${name}`)))
    }
    expect(wrong).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 120_000)
})

describe('the Receipt list', () => {
  test("names each Receipt's document by its number and its Client, linking to the document", async () => {
    const s = await seeded()
    const { context, page } = await signedIn(s.owner.email, s.owner.password, s.b.publicId)
    await page.goto(`${origin}/app/b/${s.b.publicId}/receipts`)
    for (const docId of s.docs) {
      const doc = await s.api('GET', `/v1/documents/${docId}`)
      const receipt = (await s.api('GET', `/v1/payments?document_id=${docId}`)).data[0].receipt
      const row = page.locator(`tr[data-receipt="${receipt.id}"]`)
      await expect(
        row.getByRole('link', { name: `Invoice ${doc.document_number}` }).getAttribute('href'),
      ).resolves.toBe(`/app/b/${s.b.publicId}/documents/${docId}`)
      expect(await row.locator('td[data-label="Client"]').innerText()).toBe(doc.client.name)
      expect(await row.innerText()).not.toContain('document ')
    }
    await context.close()
  }, 60_000)
})

describe('Business setup', () => {
  test('an Owner uploads a logo (shown on the page), sets the brand colour and an electronic address, sees a bad one refused under its field, then removes the logo', async () => {
    const s = await seeded()
    const { context, page, problems } = await signedIn(s.owner.email, s.owner.password, s.b.publicId)
    await page.goto(`${origin}/app/b/${s.b.publicId}/settings/business`)
    const logoFile = join(h.dir, 'logo.png')
    await Bun.write(logoFile, solidPng(240, 80, [31, 111, 235]))
    await page.getByLabel('Image file').setInputFiles(logoFile)
    await page.getByRole('button', { name: 'Upload the logo' }).click()
    await page.waitForURL(/done=logo_saved/)
    // The image is shown, loaded from the service itself (the CSP allows nothing else).
    await page.locator('#logo-preview').waitFor()
    expect(
      await page.locator('#logo-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    ).toBe(240)
    expect((await s.api('GET', '/v1/business')).has_logo).toBe(true)

    await page.getByLabel('Colour of the PDFs’ top band and titles').fill('#1F6FEB')
    await page.getByLabel('Electronic address: scheme').selectOption('0088')
    await page.getByLabel('Electronic address: identifier').fill('4000001123452')
    await page.getByLabel('Contact name').fill('Petra Buchhalter')
    await page.getByLabel('Contact phone').fill('+49 89 1234567')
    await page.getByLabel('E-invoice attached when a document is sent').selectOption('xrechnung-cii')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForURL(/done=saved/)
    expect(await s.api('GET', '/v1/business')).toMatchObject({
      brand_color: '#1F6FEB',
      electronic_address: { scheme: '0088', value: '4000001123452' },
      contact: { name: 'Petra Buchhalter', phone: '+49 89 1234567' },
      einvoice_format: 'xrechnung-cii',
    })
    await page.locator('svg.swatch').waitFor()
    const wrongFirst = await shoot(page, 'business-setup')

    // A bad colour and an address without a scheme: the service's words under each field, nothing saved.
    await page.getByLabel('Colour of the PDFs’ top band and titles').fill('blue')
    await page.getByLabel('Electronic address: scheme').selectOption('')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.locator('#f-brand_color-err').waitFor()
    expect(await page.locator('#f-brand_color-err').innerText()).toContain('#RRGGBB')
    expect(await page.locator('#f-electronic_address-err').innerText()).toContain('CEF EAS')
    expect(await page.getByLabel('Colour of the PDFs’ top band and titles').inputValue()).toBe('blue')
    expect((await s.api('GET', '/v1/business')).brand_color).toBe('#1F6FEB')
    const wrong = await shoot(page, 'business-setup-refused')

    await page.goto(`${origin}/app/b/${s.b.publicId}/settings/business`)
    await page.getByRole('button', { name: 'Remove the logo' }).click()
    await page.waitForURL(/done=logo_removed/)
    await page.locator('#no-logo').waitFor()
    expect((await s.api('GET', '/v1/business')).has_logo).toBe(false)
    expect([...wrongFirst, ...wrong]).toEqual([])
    // The refused save answered 422 on purpose; a browser logs that as a console error.
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([])
    await context.close()
  }, 120_000)
})

describe("the editor's pickers", () => {
  test('with 310 Clients and Products, a person types part of an email and of a code, picks from the matches and makes the Draft', async () => {
    const { createClient } = await import('../src/modules/clients')
    const { createProduct } = await import('../src/modules/products')
    const b = await h.business({ name: 'Großhandel Nord', currency: 'EUR' })
    const clients: number[] = []
    const products: number[] = []
    for (let i = 1; i <= 310; i++) {
      const n = String(i).padStart(4, '0')
      clients.push(
        (
          await createClient(h.deps, { id: b.id, currency: 'EUR' }, {
            name: `Kunde ${n} GmbH`,
            email: `einkauf-${n}@kunde.example`,
            country: 'DE',
          } as never)
        ).id,
      )
      products.push(
        (
          await createProduct(h.deps, b.id, {
            name: `Artikel ${n}`,
            type: 'product',
            price: `${i}.50`,
            currency: 'EUR',
            vat_rate: '19',
            code: `ART-${n}`,
          } as never)
        ).id,
      )
    }
    const owner = await person(h, {
      email: 'owner@grosshandel-nord.example',
      name: 'Otto Owner',
      businessId: b.id,
      role: 'owner',
    })
    const { context, page, problems } = await signedIn(owner.email, owner.password, b.publicId)
    await page.goto(`${origin}/app/b/${b.publicId}/documents/new?type=invoice`)

    await page.getByLabel('Find a Client').fill('einkauf-0305')
    await page.locator(`#f-client_id option[value="${clients[304]}"]`).waitFor({ state: 'attached', timeout: 15_000 })
    await page.getByLabel('Client', { exact: true }).selectOption(String(clients[304]))

    await page.getByLabel('Find a Product for line 1').fill('ART-0307')
    await page
      .locator(`#f-line-0-product option[value="${products[306]}"]`)
      .waitFor({ state: 'attached', timeout: 15_000 })
    await page.locator('#f-line-0-product').selectOption(String(products[306]))
    await page.locator('[data-line="0"]').getByLabel('Quantity').fill('2')
    // The live totals take the Product's price.
    await page.locator('#total-net', { hasText: '615.00' }).waitFor({ timeout: 15_000 })
    // Searching again keeps what was chosen selected.
    await page.getByLabel('Find a Client').fill('kunde 00')
    await page
      .locator('#f-client_id option', { hasText: 'Kunde 0001 GmbH' })
      .waitFor({ state: 'attached', timeout: 15_000 })
    expect(await page.locator('#f-client_id').inputValue()).toBe(String(clients[304]))
    const wrong = await shoot(page, 'editor-picker')

    await page.getByRole('button', { name: 'Create the Draft' }).click()
    await page.waitForURL(/\/documents\/\d+\?/)
    const id = Number(/\/documents\/(\d+)/.exec(page.url())![1])
    const doc = (await h.request('GET', `/v1/documents/${id}`, { key: b.key })).body
    expect(doc).toMatchObject({
      client_id: clients[304],
      net_total: '615.00',
      lines: [{ product_id: products[306], quantity: '2' }],
    })

    // Issued, the Invoice offers a Credit Note with itself chosen as the credited Invoice (no id to type).
    await page.locator('#act-issue').click()
    await page.waitForURL(/done=document_issued/)
    await page.locator('#new-credit-note').click()
    await page.waitForURL(/type=credit_note/)
    expect(await page.getByLabel('Credited Invoice', { exact: true }).inputValue()).toBe(String(id))
    wrong.push(...(await shoot(page, 'credit-note-editor')))
    expect(wrong).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 180_000)
})

describe('the mailbox page', () => {
  test('an Owner connects an SMTP mailbox part by part; the password field comes back empty and a blank one keeps the stored password', async () => {
    const s = await seeded()
    const { context, page, problems } = await signedIn(s.owner.email, s.owner.password, s.b.publicId)
    await page.goto(`${origin}/app/b/${s.b.publicId}/settings/mailbox`)
    await page.getByLabel('Server (host)').fill('smtp.kontor.example')
    await page.getByLabel('Port').fill('465')
    await page.getByLabel('Security').selectOption('tls')
    await page.getByLabel('Username').fill('office@kontor.example')
    await page.getByLabel('Password').fill('s3cret: not shown')
    await page.getByLabel('From address').fill('office@kontor.example')
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.waitForURL(/done=saved/)
    expect(await page.locator('#mail-provider').innerText()).toContain('office@kontor.example')
    expect(await page.getByLabel('Password').inputValue()).toBe('')
    expect(await page.content()).not.toContain('s3cret')
    expect(await page.getByLabel('Server (host)').inputValue()).toBe('smtp.kontor.example')
    const wrong = await shoot(page, 'mailbox')

    await page.getByLabel('Port').fill('587')
    await page.getByLabel('Security').selectOption('starttls')
    await page.getByRole('button', { name: 'Save the mailbox' }).click()
    await page.waitForURL(/done=saved/)
    const { smtpMailboxShown } = await import('../src/modules/mailbox')
    expect(await smtpMailboxShown(h.deps.db.read, h.deps.db.secrets, s.b.id)).toEqual({
      host: 'smtp.kontor.example',
      port: 587,
      security: 'starttls',
      username: 'office@kontor.example',
      hasPassword: true,
      from: 'office@kontor.example',
    })
    expect(wrong).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
})
