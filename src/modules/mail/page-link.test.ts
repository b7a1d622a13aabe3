// With INVOICING_PUBLIC_URL set, the email of a Send links the document's own page, the one whose first open raises
// document.viewed; without it (or with a message of the Business's own words) no link is added.
import { describe, expect, test } from 'bun:test'
import type { Harness } from '../../../test/harness'
import { mailHarnessForFile } from '../../../test/mail-harness'
import type { TestSmtpServer } from '../../adapters/smtp-test-server'
import { ConfigError, loadConfig } from '../../config'

let smtp: TestSmtpServer
let h: Harness
mailHarnessForFile((made, server) => ((h = made), (smtp = server)), {
  config: { publicUrl: 'https://invoices.example.com' },
  freshMinute: true,
})

async function draft(): Promise<{ key: string; id: number }> {
  const b = await h.business({ email: 'office@shop.example' })
  const clientId = await h.client(b.key)
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: {
      type: 'invoice',
      client_id: clientId,
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }],
    },
  })
  expect(d.status).toBe(201)
  return { key: b.key, id: d.body.id }
}

describe('the link to the document page in a Send', () => {
  test("the default text links INVOICING_PUBLIC_URL + the document's public_url, and that page opens", async () => {
    const d = await draft()
    const sent = await h.request('POST', `/v1/documents/${d.id}/send`, { key: d.key })
    expect(sent.status).toBe(200)
    expect(sent.body.public_url).toStartWith('https://invoices.example.com/p/')
    expect(smtp.received[0]!.mail.text).toContain(sent.body.public_url)
    expect((await h.request('GET', new URL(sent.body.public_url).pathname)).status).toBe(200)
  })

  test("a message of the Business's own words is sent as written, with no link added", async () => {
    const d = await draft()
    const sent = await h.request('POST', `/v1/documents/${d.id}/send`, {
      key: d.key,
      body: { message: 'Our own words.' },
    })
    expect(sent.status).toBe(200)
    expect(smtp.received[0]!.mail.text?.trim()).toBe('Our own words.')
  })
})

describe('INVOICING_PUBLIC_URL', () => {
  test('is read without its trailing slash; unset means no link', () => {
    expect(loadConfig({ INVOICING_PUBLIC_URL: 'https://invoices.example.com/billing/' }).publicUrl).toBe(
      'https://invoices.example.com/billing',
    )
    expect(loadConfig({}).publicUrl).toBeNull()
  })

  test('anything but an http(s) URL without query or fragment is refused at start', () => {
    for (const bad of ['invoices.example.com', 'ftp://x.example', 'https://x.example/?a=1', 'https://x.example/#top']) {
      expect(() => loadConfig({ INVOICING_PUBLIC_URL: bad })).toThrow(ConfigError)
    }
  })
})
