// The application's CSV import in a real browser (Debian's chromium through playwright-core), as a person would
// (extensions §19): a file with a refused row is listed row by row and creates nothing; the corrected file imports
// every row, checked through the API. Screenshots of the upload form and of the refused rows, wide (1280) and
// narrow (390), go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import { allPages, type Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served))

const file = (text: string) => ({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(text) })

describe('importing in the application', () => {
  test('a file with refused rows lists them and creates nothing; the corrected file imports every row', async () => {
    const b = await h.business({ name: 'Import Werk', currency: 'EUR' })
    const p = await person(h, { email: 'owner@import.example', name: 'Ida Owner', businessId: b.id, role: 'owner' })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(String(e)))
    page.on('request', (r) => !r.url().startsWith(origin) && problems.push(`outside request: ${r.url()}`))

    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)
    await page.getByRole('link', { name: 'Clients', exact: true }).click()
    await page.getByRole('link', { name: 'Import from CSV' }).click()
    await page.waitForURL(/\/clients\/import$/)
    await shootBothWidths(page, SHOTS, 'import-form')

    const refused =
      '\uFEFFname;email;country;address\n"Acme; GmbH";billing@acme.example;DE;"Hauptstraße 1\n10115 Berlin"\n' +
      'Nobody;not-an-email;DE;\n;;XX;\n'
    await page.getByLabel('CSV file').setInputFiles(file(refused))
    await page.getByRole('button', { name: 'Import Clients' }).click()
    await page.locator('#import-refused').waitFor()
    const rows = await page.locator('#refused-rows tbody tr').allInnerTexts()
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      'Row 2 email must be an email address',
      // As the create endpoint answers a body its schema refuses: the schema's faults and the body rule's.
      'Row 3 email is required',
      'Row 3 name is required when legal_name is blank',
    ])
    expect(await page.locator('#import-refused').innerText()).toContain('Nothing was imported')
    await shootBothWidths(page, SHOTS, 'import-refused')
    expect(await allPages(h, '/v1/clients', b.key, {})).toHaveLength(0)

    await page
      .getByLabel('CSV file')
      .setInputFiles(
        file(
          'name;email;country;address\n"Acme; GmbH";billing@acme.example;DE;"Hauptstraße 1\n10115 Berlin"\nBeta SARL;ap@beta.example;FR;\n',
        ),
      )
    await page.getByRole('button', { name: 'Import Clients' }).click()
    await page.waitForURL(/\/clients\?done=clients_imported/)
    expect(await page.locator('[role=status]').innerText()).toContain('imported')
    const made = await allPages(h, '/v1/clients', b.key, {})
    expect(made.map((c: { name: string; address: string | null }) => [c.name, c.address])).toEqual([
      ['Acme; GmbH', 'Hauptstraße 1\n10115 Berlin'],
      ['Beta SARL', null],
    ])
    expect(await page.getByRole('link', { name: 'Acme; GmbH' }).count()).toBe(1)
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)

  test('Products import through their own page; a Viewer is not offered the form', async () => {
    const b = await h.business({ name: 'Produkt Werk', currency: 'EUR' })
    const p = await person(h, { email: 'owner@produkt.example', name: 'Pia Owner', businessId: b.id, role: 'owner' })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)
    await page.goto(`${origin}/app/b/${b.publicId}/products/import`)
    await page
      .getByLabel('CSV file')
      .setInputFiles(file('name,type,price,currency,vat_rate\nConsulting hour,service,120.00,EUR,19\n'))
    await page.getByRole('button', { name: 'Import Products' }).click()
    await page.waitForURL(/\/products\?done=products_imported/)
    const [made] = await allPages(h, '/v1/products', b.key, {})
    expect(made).toMatchObject({ name: 'Consulting hour', price: '120.00', vat_rate: '19.00' })
    await context.close()

    const viewer = await person(h, {
      email: 'viewer@produkt.example',
      name: 'Vic Viewer',
      businessId: b.id,
      role: 'viewer',
    })
    const vc = await browser.newContext()
    const vp = await vc.newPage()
    await vp.goto(`${origin}/app`)
    await vp.getByLabel('Email').fill(viewer.email)
    await vp.getByLabel('Password').fill(viewer.password)
    await vp.getByRole('button', { name: /sign in/i }).click()
    await vp.waitForURL(`**/app/b/${b.publicId}`)
    const r = await vp.goto(`${origin}/app/b/${b.publicId}/products/import`)
    expect(r!.status()).toBe(403)
    await vc.close()
  }, 60_000)
})
