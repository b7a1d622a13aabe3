// The journal's settings page in a real browser (Debian's chromium through playwright-core): the head an auditor
// notes, the newest entries, and a check run on request, wide (1280) and narrow (390); screenshots go to
// test/screenshots/.
import { expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served))

test('an Admin sees the head (entry, full hash, date) and the newest entries; the check says the chain holds', async () => {
  const b = await h.business({ name: 'Journal Shop', currency: 'EUR' })
  const clientId = await h.client(b.key, { name: 'Acme GmbH', email: 'a@acme.example', country: 'DE' })
  for (let i = 0; i < 3; i++) {
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: clientId,
        lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
      },
    })
    expect((await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })).status).toBe(200)
  }
  const head = (await h.request('GET', '/v1/journal/verify', { key: b.key })).body.head
  const p = await person(h, { email: 'admin@journal.example', businessId: b.id, role: 'admin' })
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(String(e)))
  try {
    await page.goto(`${origin}/app`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByLabel('Password').fill(p.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(`**/app/b/${b.publicId}`)
    await page.goto(`${origin}/app/b/${b.publicId}/settings/journal`)
    const facts = await page.locator('dl.facts').innerText()
    expect(facts).toContain(head.hash)
    expect(facts).toContain(String(head.seq))
    expect(await page.locator('tbody tr').count()).toBe(3)
    await shootBothWidths(page, SHOTS, 'journal')
    await page.getByRole('link', { name: 'Check the chain now' }).click()
    await page.waitForURL('**/settings/journal?verify=1')
    expect(await page.getByRole('status').innerText()).toContain('The chain holds: 3 entries')
    await shootBothWidths(page, SHOTS, 'journal-checked')
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
}, 60_000)
