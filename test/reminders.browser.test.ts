// The application's reminder settings (extensions §14) in a real browser (Debian's chromium through playwright-core):
// the schedule shown with its defaults, a refused save naming the row at fault (rows left blank are not steps), a save
// that the API then answers, the reminders the schedule could not send listed with their errors, and a Client kept
// out of reminders from its own page. Screenshots,
// wide (1280) and narrow (390), go to test/screenshots/.
import { describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { shootBothWidths } from './browser'
import type { Harness } from './harness'
import { SHOTS, servedBrowserForFile } from './served-browser'
import { person } from './app-client'
import { remindDue } from '../src/modules/reminders'

let h: Harness
let browser: Browser
let origin: string

servedBrowserForFile((served) => void ({ h, origin, browser } = served))

describe('Settings → Reminders', () => {
  test('the schedule is shown, a refused save names its row, a save reaches the API, and unsent reminders are listed', async () => {
    // No email of its own and no mailbox: the reminder due is refused, and the page must say so.
    const b = await h.business({ name: 'Kontor Süd', email: null })
    const client = await h.client(b.key, { name: 'Acme GmbH', email: 'billing@acme.example', payment_terms: 3 })
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: client,
        lines: [{ description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
      },
    })
    const issued = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
    const owner = await person(h, { email: `owner-${b.id}@kontor.example`, businessId: b.id, role: 'owner' })

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
    page.on('pageerror', (e) => problems.push(String(e)))
    try {
      await page.goto(`${origin}/app`)
      await page.getByLabel('Email').fill(owner.email)
      await page.getByLabel('Password').fill(owner.password)
      await page.getByRole('button', { name: /sign in/i }).click()
      await page.waitForURL(`**/app/b/${b.publicId}`)
      const url = `${origin}/app/b/${b.publicId}/settings/reminders`
      await page.goto(url)
      expect(await page.getByLabel('Remind overdue documents by email').isChecked()).toBe(false)
      expect(await page.locator('#f-steps\\.0\\.days').inputValue()).toBe('7')
      expect(await page.locator('#f-steps\\.2\\.days').inputValue()).toBe('30')
      expect(await page.locator('#f-steps\\.3\\.days').inputValue()).toBe('')

      // Row 1 removed (blank days); rows 2 and 3 the same day: the error is shown on row 3, where it was typed.
      await page.getByLabel('Remind overdue documents by email').check()
      await page.locator('#f-steps\\.0\\.days').fill('')
      await page.locator('#f-steps\\.1\\.days').fill('14')
      await page.locator('#f-steps\\.2\\.days').fill('14')
      await page.locator('#f-steps\\.3\\.days').fill('-3')
      await page.locator('#f-steps\\.3\\.subject').fill('Due soon: {{number}}')
      await page.getByRole('button', { name: 'Save reminders' }).click()
      await page.waitForLoadState('load')
      expect(await page.locator('#step-2 .err').textContent()).toContain("must differ from every other step's days")
      expect(await page.locator('#step-1 .err').count()).toBe(0)
      // What was typed is kept.
      expect(await page.locator('#f-steps\\.3\\.subject').inputValue()).toBe('Due soon: {{number}}')
      await shootBothWidths(page, SHOTS, 'reminders-settings-refused')
      expect((await h.request('GET', '/v1/reminder-settings', { key: b.key })).body.enabled).toBe(false)
      // The refused save's own 422 is what the browser logged; nothing else may be.
      expect(problems.splice(0)).toEqual([expect.stringContaining('422')])

      await page.locator('#f-steps\\.2\\.days').fill('30')
      await page.locator('#f-steps\\.2\\.message').fill('Dear {{client}}, {{amount_due}} is open since {{due_date}}.')
      await page.getByRole('button', { name: 'Save reminders' }).click()
      await page.waitForURL('**/settings/reminders?done=saved')
      expect((await h.request('GET', '/v1/reminder-settings', { key: b.key })).body).toEqual({
        enabled: true,
        steps: [
          { days: -3, subject: 'Due soon: {{number}}', message: null },
          { days: 14, subject: null, message: null },
          { days: 30, subject: null, message: 'Dear {{client}}, {{amount_due}} is open since {{due_date}}.' },
        ],
      })

      // The first step's day is today (due in 3 days), and nothing can send it: the page lists it with its words.
      expect(issued.body.due_date).toBe('2026-03-13')
      expect((await remindDue(h.deps)).refused).toBe(1)
      await page.goto(url)
      const notice = page.locator('#reminder-notices tbody tr')
      expect(await notice.count()).toBe(1)
      expect(await notice.textContent()).toContain(issued.body.document_number)
      expect(await notice.textContent()).toContain('3 days before the due date')
      await shootBothWidths(page, SHOTS, 'reminders-settings')

      // A Client kept out of reminders from its own page.
      await page.goto(`${origin}/app/b/${b.publicId}/clients/${client}/edit`)
      const box = page.getByLabel(/Payment reminders/)
      expect(await box.isChecked()).toBe(true)
      await box.uncheck()
      await page.getByRole('button', { name: 'Save the Client' }).click()
      await page.waitForURL(`**/clients/${client}?done=saved`)
      expect((await h.request('GET', `/v1/clients/${client}`, { key: b.key })).body.reminders).toBe(false)
      await page.goto(`${origin}/app/b/${b.publicId}/clients/${client}/edit`)
      expect(await page.getByLabel(/Payment reminders/).isChecked()).toBe(false)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 90_000)
})
