// Getting paid by bank transfer in a real browser (Debian's chromium through playwright-core), as a person would:
// upload a CAMT.053 statement on the Bank page, see one credit matched and one listed unmatched, match that one by
// hand; every outcome is checked through the API. The public page's EPC QR code is screenshotted and read back with
// zbarimg. Screenshots of the Bank page and the public page, wide (1280) and narrow (390), go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import { issuedFor, type Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'
import { addBankAccount } from '../src/modules/business'
import { camtFile } from '../src/modules/banking/camt.testkit'
import { qrCodesOfImage } from '../src/modules/banking/qr.testkit'

const IBAN = 'DE89370400440532013000'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served))

describe('the Bank page', () => {
  test('a statement uploaded records the matched Payment; the unmatched entry is matched by hand; the QR code of the public page scans', async () => {
    const b = await h.business({ name: 'Werkstatt Süd', currency: 'EUR' })
    await addBankAccount(h.deps.db, h.clock, b.id, { name: 'Giro', iban: IBAN, bic: 'COBADEFFXXX' })
    const clientId = await h.client(b.key, { name: 'Acme GmbH' })
    const s = { bizId: b.id, key: b.key, clientId }
    const line = (price: string) => ({ description: 'Work', quantity: '1', unit_price: price, vat_rate: '19.00' })
    const byRef = await issuedFor(h, s, { lines: [line('100.00')] })
    const byHand = await issuedFor(h, s, { lines: [line('200.00')] })
    const open = await issuedFor(h, s, { lines: [line('50.00')] })
    const p = await person(h, { email: 'owner@sued.example', name: 'Olga', businessId: b.id, role: 'owner' })
    const file = join(h.dir, 'statement.xml')
    writeFileSync(
      file,
      camtFile({
        version: 8,
        iban: IBAN,
        entries: [
          { amount: '119.00', structured: byRef.payment_reference, debtor: 'Acme GmbH' },
          { amount: '238.00', text: ['Sammelüberweisung März'], debtor: 'Acme GmbH' },
        ],
      }),
    )

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

    await page.getByRole('link', { name: 'Bank', exact: true }).click()
    await page.getByLabel('Statement file (XML)').setInputFiles(file)
    await page.getByRole('button', { name: 'Import the statement' }).click()
    await page.waitForURL(/\/bank\?done=statement_imported/)
    expect(await page.locator('#unmatched tbody tr[data-entry]').count()).toBe(1)
    const afterImport = await h.request('GET', `/v1/documents/${byRef.id}`, { key: b.key })
    expect(afterImport.body).toMatchObject({ status: 'paid', amount_due: '0.00' })
    await shootBothWidths(page, SHOTS, 'bank-unmatched')

    const row = page.locator('#unmatched tbody tr[data-entry]')
    await row.locator('select[name=document_id]').selectOption(String(byHand.id))
    await row.getByRole('button', { name: 'Match' }).click()
    await page.waitForURL(/\/bank\?done=entry_matched/)
    expect(await page.locator('#unmatched tbody tr[data-entry]').count()).toBe(0)
    const matched = await h.request('GET', `/v1/documents/${byHand.id}`, { key: b.key })
    expect(matched.body).toMatchObject({ status: 'paid', amount_due: '0.00' })
    const payments = await h.request('GET', '/v1/payments', { key: b.key })
    expect(payments.body.data.map((x: any) => [x.document_id, x.amount, x.payment_method])).toEqual([
      [byRef.id, '119.00', 'bank_transfer'],
      [byHand.id, '238.00', 'bank_transfer'],
    ])
    await shootBothWidths(page, SHOTS, 'bank-matched')

    // The Client's page of the open Invoice: its reference and a code a banking app scans.
    // The page around the block is the public door's (its Lines table may run wider than a phone): the block itself
    // fits the window at both widths.
    await page.goto(`${origin}${new URL(open.public_url, origin).pathname}`)
    for (const [width, label] of [
      [1280, 'wide'],
      [390, 'narrow'],
    ] as const) {
      await page.setViewportSize({ width, height: 844 })
      const right = await page.evaluate(() => document.querySelector('section.pay')!.getBoundingClientRect().right)
      expect(right).toBeLessThanOrEqual(width)
      await page.screenshot({ path: join(SHOTS, `public-pay-by-transfer-${label}.png`), fullPage: true })
    }
    const codes = qrCodesOfImage(join(SHOTS, 'public-pay-by-transfer-wide.png'))
    expect(codes).toHaveLength(1)
    expect(codes[0]!.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Werkstatt Süd',
      IBAN,
      'EUR59.50',
      '',
      open.payment_reference,
    ])
    expect(problems).toEqual([])
    await context.close()
  }, 120_000)
})
