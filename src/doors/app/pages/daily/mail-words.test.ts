// Issue 32, item 5 in part: with no mail server and no mailbox, a Send's refusal names the real cause (the relay the
// operator has not set, or the missing address) with the remedy's link, and "Email the Receipt" is closed with its
// reason on the document page and the Receipts list instead of failing after the click.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { issuedFor, makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, person } from '../../../../../test/app-client'

setDefaultTimeout(60_000)

let h: Harness
beforeAll(async () => {
  // No INVOICING_MAIL_RELAY: this service runs no mail server.
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
})
afterAll(() => h.close())

/** An Invoice of one line issued for a new Client of the Business, through the API. */
async function issuedInvoice(b: { id: number; key: string }): Promise<any> {
  const s = { bizId: b.id, key: b.key, clientId: await h.client(b.key) }
  return issuedFor(h, s, { lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }] })
}

describe('a Send with nothing to send through', () => {
  test('names the missing relay when the Business has an address, with the mailbox page as remedy_url', async () => {
    const b = await h.business({ email: 'billing@has-address.example' })
    const doc = await issuedInvoice(b)
    const r = await h.request('POST', `/v1/documents/${doc.id}/send`, { key: b.key })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('no_mail_provider')
    expect(r.body.error.message).toContain('INVOICING_MAIL_RELAY')
    expect(r.body.error.message).not.toContain('needs an email address')
    expect(r.body.error.remedy_url).toEndWith('/app/settings/mailbox')
  })

  test('on the document page, "Email the Receipt" is closed with that reason, not open to fail', async () => {
    const b = await h.business({ email: 'billing@receipt.example' })
    const doc = await issuedInvoice(b)
    await h.request('POST', `/v1/documents/${doc.id}/payments`, {
      key: b.key,
      body: { amount: doc.total, payment_date: '2026-03-10', payment_method: 'cash' },
    })
    const who = await person(h, { email: 'owner@receipt.example', businessId: b.id, role: 'owner' })
    const browser = new AppClient(h)
    expect((await browser.signIn(who.email, who.password)).status).toBe(303)
    const page = await browser.get(`/app/b/${b.publicId}/documents/${doc.id}`)
    const m =
      /<div class="action closed"><button[^>]*disabled[^>]*>\s*Email the Receipt\s*<\/button>\s*<span class="why"[^>]*>([^<]*)</.exec(
        page.text,
      )
    expect(m).not.toBeNull()
    expect(m![1]).toContain('Nothing to send the Receipt through')

    // The Receipts list closes its "Email" the same way.
    const list = await browser.get(`/app/b/${b.publicId}/receipts`)
    const e =
      /<div class="action closed"><button[^>]*disabled[^>]*>\s*Email\s*<\/button>\s*<span class="why"[^>]*>([^<]*)</.exec(
        list.text,
      )
    expect(e).not.toBeNull()
    expect(e![1]).toContain('Nothing to send the Receipt through')
  })
})
