// An issued document never changes: the seller (name, legal name, VAT number, company id, address, email and the bank
// accounts it shows) is kept as it stood at issue, in its JSON, PDF text, XML and webhook body, while a Draft shows the
// Business as it now stands. Also the migration that snapshots documents issued before the column existed.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../../test/harness'
import { deliveryContext } from '../../jobs/webhooks'
import { addBankAccount, updateBusiness } from '../business'
import { dispatchOutbox } from '../webhooks/delivery'

let h: Harness
let files = 0

beforeAll(async () => {
  h = await makeHarness({ config: { webhookAllowPrivate: true } })
})
afterAll(() => h.close())
beforeEach(() => h.clock.advance(61_000))

const AT_ISSUE = {
  name: 'Old Trading',
  legalName: 'Old Legal GmbH',
  vatNumber: 'DE123456789',
  companyId: 'HRB 1111',
  email: 'old@seller.example',
  address: 'Altstrasse 1',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
  electronicAddressScheme: '9930',
  electronicAddress: 'DE123456789',
  contactName: 'Old Contact',
  contactPhone: '+49 30 111',
  taxRegistrationId: '11/111/11111',
}
const CHANGED = {
  name: 'New Trading',
  legalName: 'New Legal SE',
  vatNumber: 'DE999999999',
  companyId: 'HRB 2222',
  email: 'new@seller.example',
  address: 'Neuweg 9',
  city: 'Hamburg',
  postalCode: '20095',
  country: 'AT',
  electronicAddressScheme: '0088',
  electronicAddress: '4006381333931',
  contactName: 'New Contact',
  contactPhone: '+43 1 222',
  taxRegistrationId: '22/222/22222',
}

function pdfText(bytes: Uint8Array): string {
  const file = join(h.dir, `seller-${++files}.pdf`)
  require('node:fs').writeFileSync(file, bytes)
  const p = Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', file, '-'])
  if (p.exitCode !== 0) throw new Error(p.stderr.toString())
  return p.stdout.toString()
}

/** An Invoice of these Lines created for the Client and issued through the API: both answers. */
async function issueInvoice(key: string, clientId: number, lines: Record<string, unknown>[]) {
  const created = await h.request('POST', '/v1/documents', {
    key,
    body: { type: 'invoice', client_id: clientId, lines },
  })
  const issued = await h.request('POST', `/v1/documents/${created.body.id}/issue`, { key })
  return { created, issued }
}

/** What the seller showed at issue in both the PDF and the XML, and what it shows since (none of it may appear). */
const SHOWN_AT_ISSUE = [
  'Old Legal GmbH',
  'Altstrasse 1',
  'DE123456789',
  'HRB 1111',
  'old@seller.example',
  'DE89370400440532013000',
]
const SHOWN_SINCE = ['New Legal', 'Neuweg', 'DE999999999', 'HRB 2222', 'new@seller.example', 'AT611904300234573201']

async function get(key: string, path: string): Promise<{ status: number; text: string; bytes: Uint8Array }> {
  const res = await h.app.fetch(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }))
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { status: res.status, text: new TextDecoder().decode(bytes), bytes }
}

describe('the seller snapshot of an issued document', () => {
  test('after every Business field changes, the issued document still shows the seller at issue in its JSON, PDF, XML and webhook body; a Draft shows the new one', async () => {
    const b = await h.business({ currency: 'EUR', ...AT_ISSUE })
    const first = await addBankAccount(h.deps.db, h.clock, b.id, {
      name: 'Old account',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      currency: 'EUR',
    })
    const hook = await h.request('POST', '/v1/webhooks', {
      key: b.key,
      body: { url: 'http://127.0.0.1:9/hook', events: ['document.issued'] },
    })
    expect(hook.status).toBe(201)
    const clientId = await h.client(b.key, {
      name: 'Buyer AG',
      address: 'Marktplatz 2',
      city: 'Hamburg',
      postal_code: '20095',
      vat_number: 'DE987654321',
    })
    const lines = [{ description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }]
    const { created, issued } = await issueInvoice(b.key, clientId, lines)
    expect(issued.status).toBe(200)
    expect(issued.body.seller).toEqual({
      name: 'Old Trading',
      legal_name: 'Old Legal GmbH',
      vat_number: 'DE123456789',
      company_id: 'HRB 1111',
      email: 'old@seller.example',
      address: 'Altstrasse 1',
      city: 'Berlin',
      postal_code: '10115',
      country: 'DE',
      bank_accounts: [
        { id: first.id, name: 'Old account', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', currency: 'EUR' },
      ],
      electronic_address: { scheme: '9930', value: 'DE123456789' },
      contact: { name: 'Old Contact', phone: '+49 30 111', email: 'old@seller.example' },
      tax_registration_id: '11/111/11111',
    })

    // Every field changes, and a second account in the document's currency appears (a document naming none shows the Business's).
    await updateBusiness(h.deps.db, h.clock, b.id, CHANGED)
    await addBankAccount(h.deps.db, h.clock, b.id, {
      name: 'New account',
      iban: 'AT611904300234573201',
      currency: 'EUR',
    })

    const json = await h.request('GET', `/v1/documents/${created.body.id}`, { key: b.key })
    expect(json.body.seller).toEqual(issued.body.seller)

    const pdf = pdfText((await get(b.key, `/v1/documents/${created.body.id}/pdf`)).bytes)
    for (const old of SHOWN_AT_ISSUE) expect(pdf).toContain(old)
    for (const now of [...SHOWN_SINCE, 'Austria']) expect(pdf).not.toContain(now)

    const xml = await get(b.key, `/v1/documents/${created.body.id}/xml`)
    expect(xml.status).toBe(200)
    for (const old of [...SHOWN_AT_ISSUE, 'Old Contact', '+49 30 111', '11/111/11111']) expect(xml.text).toContain(old)
    for (const now of SHOWN_SINCE) expect(xml.text).not.toContain(now)

    // The webhook body is built after the change, from what the API answers: the seller at issue.
    await dispatchOutbox(deliveryContext(h.deps))
    const rows = await h.deps.db.read.all<{ body: string }>(
      sql`SELECT m.body FROM webhook_deliveries d JOIN webhook_messages m ON m.message_id = d.message_id WHERE d.event_type = 'document.issued' AND d.business_id = ${b.id}`,
    )
    expect(rows).toHaveLength(1)
    expect(JSON.parse(rows[0]!.body).data.document.seller).toEqual(issued.body.seller)

    // The public page names the seller at issue.
    const page = await h.app.fetch(new Request(issued.body.public_url))
    const html = await page.text()
    expect(html).toContain('Old Legal GmbH')
    expect(html).not.toContain('New Legal SE')

    // A Draft shows the Business as it now stands, both accounts included.
    const draft = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: { type: 'invoice', client_id: clientId, lines },
    })
    expect(draft.body.seller).toMatchObject({
      name: 'New Trading',
      legal_name: 'New Legal SE',
      vat_number: 'DE999999999',
      company_id: 'HRB 2222',
      email: 'new@seller.example',
      address: 'Neuweg 9',
      country: 'AT',
    })
    expect(draft.body.seller.bank_accounts.map((a: { name: string }) => a.name)).toEqual(['Old account', 'New account'])
    const draftPdf = pdfText((await get(b.key, `/v1/documents/${draft.body.id}/pdf`)).bytes)
    expect(draftPdf).toContain('New Legal SE')
    expect(draftPdf).toContain('AT611904300234573201')
  })

  test('a Non-VAT Payer issues with no VAT number, and becoming a VAT payer later does not add one to the issued document', async () => {
    const b = await h.business({ currency: 'EUR', ...AT_ISSUE, isVatPayer: false })
    const clientId = await h.client(b.key)
    const { created, issued } = await issueInvoice(b.key, clientId, [
      {
        description: 'x',
        quantity: '1',
        unit_price: '10',
        vat_rate: '0',
        vat_category: 'E',
        vat_exemption_code: 'VATEX-EU-132',
      },
    ])
    expect(issued.body.seller.vat_number).toBeNull()
    await updateBusiness(h.deps.db, h.clock, b.id, { isVatPayer: true })
    expect(
      (await h.request('GET', `/v1/documents/${created.body.id}`, { key: b.key })).body.seller.vat_number,
    ).toBeNull()
    expect(pdfText((await get(b.key, `/v1/documents/${created.body.id}/pdf`)).bytes)).not.toContain('DE123456789')
  })
})

describe('migration 0009', () => {
  test('snapshots a document issued before it from the Business as it stands, with the accounts the document shows', async () => {
    // Without the e-invoice fields of migration 0010, which a 0009 snapshot cannot hold (it reads them as their defaults).
    const b = await h.business({
      currency: 'EUR',
      ...AT_ISSUE,
      electronicAddressScheme: null,
      electronicAddress: null,
      contactName: null,
      contactPhone: null,
      taxRegistrationId: null,
    })
    const eur = await addBankAccount(h.deps.db, h.clock, b.id, {
      name: 'EUR',
      iban: 'DE89370400440532013000',
      currency: 'EUR',
    })
    await addBankAccount(h.deps.db, h.clock, b.id, { name: 'USD', iban: 'DE02120300000000202051', currency: 'USD' })
    const clientId = await h.client(b.key)
    const { created, issued } = await issueInvoice(b.key, clientId, [
      { description: 'x', quantity: '1', unit_price: '10', vat_rate: '19' },
    ])
    // As a document issued before the column: no snapshot. The migration's own statement is run on it again.
    await h.deps.db.write((tx) =>
      tx.run(sql`UPDATE documents SET seller_snapshot = NULL WHERE id = ${created.body.id}`),
    )
    const file = require('node:fs').readFileSync(
      join(import.meta.dir, '../../../migrations/0009_document_seller_snapshot.sql'),
      'utf8',
    ) as string
    const update = file.split('--> statement-breakpoint')[1]!
    await h.deps.db.write((tx) => tx.run(sql.raw(update)))
    const after = await h.request('GET', `/v1/documents/${created.body.id}`, { key: b.key })
    expect(after.body.seller).toEqual(issued.body.seller)
    expect(after.body.seller.bank_accounts.map((a: { id: number }) => a.id)).toEqual([eur.id])
  })
})
