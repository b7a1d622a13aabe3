// In a real browser (Debian's chromium through playwright-core), the smaller points of issue 32 item 9 that only a
// page's layout shows: every list's filter row stands on one line, labels level and controls one height, at 1280 and
// at 390 px; the K-or-AE hint beside a Line's category follows the chosen Client and the Line's own category; a new
// Product's VAT rate is filled in; a Credit Note's page shows no due date. Screenshots, wide (1280) and narrow (390),
// go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { person } from './app-client'
import { shootBothWidths } from './browser'
import { SHOTS, servedBrowserForFile, type ServedBrowser } from './served-browser'

let s: ServedBrowser
let page: Page
let base: string
let ids: { paris: number; berlin: number; invoice: number; note: number }

servedBrowserForFile(async (served) => {
  s = served
  const h = s.h
  const b = await h.business({ currency: 'EUR', country: 'DE' })
  const who = await person(h, { email: 'owner@filters.example', businessId: b.id, role: 'owner' })
  const berlin = await h.client(b.key, { name: 'Berlin GmbH' })
  const paris = await h.client(b.key, { name: 'Paris SARL', country: 'FR', vat_number: 'FR40303265045' })
  const lines = [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' }]
  const invoice = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: { type: 'invoice', client_id: berlin, lines },
  })
  await h.request('POST', `/v1/documents/${invoice.body.id}/issue`, { key: b.key })
  const note = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: { type: 'credit_note', client_id: berlin, credited_document_id: invoice.body.id, lines },
  })
  await h.request('POST', `/v1/documents/${note.body.id}/issue`, { key: b.key })
  ids = { paris, berlin, invoice: invoice.body.id, note: note.body.id }

  page = await (await s.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  await page.goto(`${s.origin}/app`)
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: /sign in/i }).click()
  await page.waitForURL(`**/app/b/${b.publicId}`)
  base = `${s.origin}/app/b/${b.publicId}`
})

/**
 * What is out of line in the page's filter row at the window's width: its controls (fields, buttons, links) grouped
 * into the rows they wrap into, each row's controls one height with one bottom edge, its visible labels' words level,
 * and nothing past the row's right edge.
 */
function filterRowFaults(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const form = document.querySelector('form.filters')
    if (!form) return ['no filter row']
    const faults: string[] = []
    const edge = form.getBoundingClientRect().right
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect()
      return r.width > 1 && r.height > 1
    }
    const controls = [...form.querySelectorAll('input:not([type=hidden]), select, button, a')].filter(shown)
    const rows = new Map<number, Element[]>()
    for (const el of controls) {
      const bottom = Math.round(el.getBoundingClientRect().bottom)
      const key = [...rows.keys()].find((k) => Math.abs(k - bottom) <= 1) ?? bottom
      rows.set(key, [...(rows.get(key) ?? []), el])
    }
    const name = (el: Element) => `${el.tagName.toLowerCase()}[${el.getAttribute('name') ?? el.textContent?.trim()}]`
    for (const row of rows.values()) {
      const heights = row.map((el) => Math.round(el.getBoundingClientRect().height))
      if (Math.max(...heights) - Math.min(...heights) > 1)
        faults.push(`heights ${row.map((el, i) => `${name(el)}=${heights[i]}`).join(' ')}`)
      const words = row
        .map((el) => el.closest('label'))
        .filter((l): l is HTMLLabelElement => !!l && !l.classList.contains('sr'))
        .map((l) => Math.round(l.getBoundingClientRect().top))
      if (words.length && Math.max(...words) - Math.min(...words) > 1) faults.push(`label tops ${words.join(' ')}`)
    }
    for (const el of controls)
      if (el.getBoundingClientRect().right > edge + 1) faults.push(`${name(el)} runs past the row`)
    return faults
  })
}

describe('the list pages in a real browser', () => {
  test("every list's filter row stands on one line: labels level, controls one height and one edge, wide and narrow", async () => {
    const lists: Array<[string, string]> = [
      ['filters-documents', '/documents'],
      ['filters-products', '/products'],
      ['filters-clients', '/clients'],
      ['filters-client-statement', `/clients/${ids.berlin}`],
      ['filters-reports', '/reports'],
    ]
    const faults: string[] = []
    for (const [name, path] of lists) {
      await page.goto(base + path)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        for (const f of await filterRowFaults(page)) faults.push(`${path} at ${width}: ${f}`)
      }
      await shootBothWidths(page, SHOTS, name)
    }
    expect(faults).toEqual([])
  }, 120_000)

  test("a Credit Note's page shows no due date; its Invoice's does", async () => {
    await page.goto(`${base}/documents/${ids.invoice}`)
    expect(await page.locator('#due-date').count()).toBe(1)
    await page.goto(`${base}/documents/${ids.note}`)
    expect(await page.locator('#credits-invoice').count()).toBe(1)
    expect(await page.locator('#due-date').count()).toBe(0)
    expect(await page.getByText('Due', { exact: true }).count()).toBe(0)
    await shootBothWidths(page, SHOTS, 'credit-note-page')
  }, 60_000)

  test('a new Credit Note opened from its Invoice shows the totals of the Lines it starts with, before anything is typed', async () => {
    await page.goto(`${base}/documents/new?type=credit_note&credited_document_id=${ids.invoice}`)
    await page.waitForFunction(() => document.getElementById('totals')?.textContent?.includes('119.00'))
    expect(await page.locator('#totals').textContent()).not.toContain('Totals appear as you fill in the Lines')
  }, 60_000)
})

describe('VAT on the forms in a real browser', () => {
  test("a new Product's VAT rate is the country's standard rate", async () => {
    await page.goto(`${base}/products/new`)
    expect(await page.getByLabel('VAT rate (%)').inputValue()).toBe('19.00')
    await shootBothWidths(page, SHOTS, 'product-new')
  }, 60_000)

  test("the K-or-AE hint beside a Line's category shows while the Client is an EU business abroad, and leaves a Line that is K or AE", async () => {
    await page.goto(`${base}/documents/new?type=invoice`)
    const hint = (i: number) => page.locator(`[data-line="${i}"] .eu-hint`)
    const category = (i: number) => page.locator(`[data-line="${i}"]`).getByLabel('Category')
    expect(await hint(0).isVisible()).toBe(false)

    await page.locator('#f-client_id').selectOption(String(ids.paris))
    await hint(0).waitFor({ state: 'visible' })
    expect(await hint(0).innerText()).toContain(
      'K (Intra-EU supply, VAT exempt) for goods, AE (Reverse charge) for services',
    )
    expect(await hint(1).isVisible()).toBe(true)
    expect(await page.locator('[data-line="0"]').getByLabel('VAT %').inputValue()).toBe('19.00')
    await shootBothWidths(page, SHOTS, 'editor-eu-hint')

    // The person's choice is theirs: the hint leaves the Line they made K, and stays on the other.
    await category(0).selectOption('K')
    await hint(0).waitFor({ state: 'hidden' })
    expect(await hint(1).isVisible()).toBe(true)
    expect(await category(0).inputValue()).toBe('K')

    await page.locator('#f-client_id').selectOption(String(ids.berlin))
    await hint(1).waitFor({ state: 'hidden' })
    expect(await category(0).inputValue()).toBe('K')
  }, 60_000)
})
