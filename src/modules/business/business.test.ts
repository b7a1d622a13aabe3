// GET /v1/business and the bank accounts (extensions §2): fields, tenancy, Roles and paging.
import { beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness, harnessForFile } from '../../../test/harness'
import { createBusiness, updateBusiness } from './business.service'
import { createApiKey } from './api-keys'

let h: Harness
harnessForFile((made) => (h = made))

const BUSINESS_FIELDS = [
  'business_id',
  'name',
  'legal_name',
  'country',
  'currency',
  'vat_number',
  'company_id',
  'is_vat_payer',
  'is_test',
  'plan',
  'email',
  'address',
  'city',
  'postal_code',
  'electronic_address',
  'contact',
  'tax_registration_id',
  'einvoice_format',
  'mail_provider',
  'has_logo',
  'brand_color',
  // extensions §18
  'language',
  'created_at',
]

describe('GET /v1/business', () => {
  test('answers the Business the key belongs to with every field of extensions §2', async () => {
    const row = await createBusiness(h.deps.db, h.clock, {
      name: 'Muster GmbH',
      legalName: 'Muster Handels GmbH',
      country: 'DE',
      currency: 'EUR',
      vatNumber: 'DE123456789',
      companyId: 'HRB 12345',
      email: 'office@muster.example',
      address: 'Hauptstr. 1',
      city: 'Berlin',
      postalCode: '10115',
      plan: 'pro_plus',
    })
    const { key } = await createApiKey(h.deps.db, h.clock, row.id, { name: 'reader', role: 'viewer' })
    const r = await h.request('GET', '/v1/business', { key })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual([...BUSINESS_FIELDS].sort())
    expect(r.body).toEqual({
      business_id: row.publicId,
      name: 'Muster GmbH',
      legal_name: 'Muster Handels GmbH',
      country: 'DE',
      currency: 'EUR',
      vat_number: 'DE123456789',
      company_id: 'HRB 12345',
      is_vat_payer: true,
      is_test: false,
      plan: 'pro_plus',
      email: 'office@muster.example',
      address: 'Hauptstr. 1',
      city: 'Berlin',
      postal_code: '10115',
      // The e-invoice defaults: EM with the Business email, that email as the contact's, UBL attached to a Send.
      electronic_address: { scheme: 'EM', value: 'office@muster.example' },
      contact: { name: null, phone: null, email: 'office@muster.example' },
      tax_registration_id: null,
      einvoice_format: 'ubl',
      mail_provider: null,
      has_logo: false,
      brand_color: null,
      language: 'en',
      created_at: '2026-03-10T09:00:00.000Z',
    })
    expect(r.body.business_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  test('each key sees its own Business and no other', async () => {
    const a = await h.business({ name: 'Alpha' })
    const b = await h.business({ name: 'Beta' })
    expect((await h.request('GET', '/v1/business', { key: a.key })).body.business_id).toBe(a.publicId)
    expect((await h.request('GET', '/v1/business', { key: b.key })).body.business_id).toBe(b.publicId)
  })

  test('a Non-VAT Payer answers vat_number null even with a VAT number on file', async () => {
    const b = await h.business({ vatNumber: 'DE987654321', isVatPayer: false })
    const r = await h.request('GET', '/v1/business', { key: b.key })
    expect(r.body.is_vat_payer).toBe(false)
    expect(r.body.vat_number).toBeNull()
    // Becoming a VAT payer shows the number again.
    await updateBusiness(h.deps.db, h.clock, b.id, { isVatPayer: true })
    expect((await h.request('GET', '/v1/business', { key: b.key })).body.vat_number).toBe('DE987654321')
  })

  test('a Test business answers is_test true, and a Test business on the free plan still answers', async () => {
    const b = await h.business({ isTest: true, plan: 'free' })
    const r = await h.request('GET', '/v1/business', { key: b.key })
    expect(r.status).toBe(200)
    expect(r.body.is_test).toBe(true)
    expect(r.body.plan).toBe('free')
  })

  test('a Business with an address of its own sends through the service mail server when one is set up', async () => {
    const withRelay = await makeHarness({ config: { mailRelay: 'smtp://relay.example:25' } })
    try {
      const b = await withRelay.business({ email: 'office@shop.example' })
      const r = await withRelay.request('GET', '/v1/business', { key: b.key })
      expect(r.body.mail_provider).toEqual({ kind: 'service', address: 'office@shop.example' })
      const noEmail = await withRelay.business()
      expect((await withRelay.request('GET', '/v1/business', { key: noEmail.key })).body.mail_provider).toBeNull()
    } finally {
      await withRelay.close()
    }
  })

  test('every Role reads it', async () => {
    const b = await h.business()
    for (const role of ['admin', 'member', 'viewer'] as const) {
      expect((await h.request('GET', '/v1/business', { key: await h.key(b.id, role) })).status).toBe(200)
    }
  })
})

describe('bank accounts', () => {
  test('list and get answer each account with id, name, iban, bic, currency and created_at', async () => {
    const b = await h.business()
    const id = await h.bankAccount(b.id, 'Operating')
    const list = await h.request('GET', '/v1/bank-accounts', { key: b.key })
    expect(list.status).toBe(200)
    expect(list.body).toEqual({
      data: [
        {
          id,
          name: 'Operating',
          iban: 'DE89370400440532013000',
          bic: null,
          currency: null,
          created_at: '2026-03-10T09:00:00.000Z',
        },
      ],
      next_cursor: null,
    })
    const one = await h.request('GET', `/v1/bank-accounts/${id}`, { key: await h.key(b.id, 'viewer') })
    expect(one.status).toBe(200)
    expect(one.body).toEqual(list.body.data[0])
  })

  test("another Business's account is 404 and never listed", async () => {
    const mine = await h.business()
    const theirs = await h.business()
    const theirAccount = await h.bankAccount(theirs.id)
    await h.bankAccount(mine.id)
    const r = await h.request('GET', `/v1/bank-accounts/${theirAccount}`, { key: mine.key })
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    const list = await h.request('GET', '/v1/bank-accounts', { key: mine.key })
    expect(list.body.data.map((a: { id: number }) => a.id)).not.toContain(theirAccount)
  })

  test('an unknown or malformed account id is 404', async () => {
    const b = await h.business()
    for (const id of ['999999', 'abc', '0', '-1']) {
      const r = await h.request('GET', `/v1/bank-accounts/${id}`, { key: b.key })
      expect(r.status).toBe(404)
      expect(r.body.error.type).toBe('not_found')
    }
  })
})

describe('paging (the bank account list)', () => {
  let b: { id: number; key: string }
  const ids: number[] = []

  beforeAll(async () => {
    b = await h.business()
    for (let i = 1; i <= 5; i++) ids.push(await h.bankAccount(b.id, `Account ${i}`))
  })

  test('limit pages the list oldest first; the last page answers next_cursor null', async () => {
    const seen: number[] = []
    const sizes: number[] = []
    let cursor: string | null = null
    do {
      const r = await h.request(
        'GET',
        `/v1/bank-accounts?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: b.key },
      )
      expect(r.status).toBe(200)
      sizes.push(r.body.data.length)
      seen.push(...r.body.data.map((a: { id: number }) => a.id))
      cursor = r.body.next_cursor
    } while (cursor)
    expect(sizes).toEqual([2, 2, 1])
    expect(seen).toEqual(ids)
  })

  test('a page that ends exactly at the last record answers next_cursor null', async () => {
    const r = await h.request('GET', '/v1/bank-accounts?limit=5', { key: b.key })
    expect(r.body.data.length).toBe(5)
    expect(r.body.next_cursor).toBeNull()
  })

  test('the default page holds up to 25', async () => {
    const r = await h.request('GET', '/v1/bank-accounts', { key: b.key })
    expect(r.body.data.map((a: { id: number }) => a.id)).toEqual(ids)
    expect(r.body.next_cursor).toBeNull()
  })

  test('a record created during a walk comes at its end', async () => {
    const first = await h.request('GET', '/v1/bank-accounts?limit=3', { key: b.key })
    const added = await h.bankAccount(b.id, 'Late')
    const rest = await h.request(
      'GET',
      `/v1/bank-accounts?limit=100&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: b.key },
    )
    expect([...first.body.data, ...rest.body.data].map((a: { id: number }) => a.id)).toEqual([...ids, added])
    ids.push(added)
  })

  for (const limit of ['0', '101', 'abc', '-1', '2.5', '']) {
    test(`limit=${limit} is 422 invalid_request naming limit`, async () => {
      const r = await h.request('GET', `/v1/bank-accounts?limit=${limit}`, { key: b.key })
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toEqual(['limit'])
    })
  }

  test('limit 1 and 100 are accepted', async () => {
    expect((await h.request('GET', '/v1/bank-accounts?limit=1', { key: b.key })).body.data.length).toBe(1)
    expect((await h.request('GET', '/v1/bank-accounts?limit=100', { key: b.key })).status).toBe(200)
  })

  test('a forged, altered, foreign or other-list cursor is 422 naming cursor, never read as the first page', async () => {
    const page = await h.request('GET', '/v1/bank-accounts?limit=2', { key: b.key })
    const good: string = page.body.next_cursor
    const [payload, mac] = good.split('.')
    const altered = Buffer.from(JSON.stringify(['bank-accounts', b.id, 1])).toString('base64url') + '.' + mac
    const other = await h.business()
    await h.bankAccount(other.id)
    await h.bankAccount(other.id)
    const foreign: string = (await h.request('GET', '/v1/bank-accounts?limit=1', { key: other.key })).body.next_cursor
    const clientCursor = await (async () => {
      for (let i = 0; i < 2; i++)
        await h.request('POST', '/v1/clients', { key: b.key, body: { name: `C${i}`, email: 'c@d.de', country: 'DE' } })
      return (await h.request('GET', '/v1/clients?limit=1', { key: b.key })).body.next_cursor as string
    })()
    expect(foreign).toBeString()
    expect(clientCursor).toBeString()
    for (const cursor of [
      'abc',
      'abc.def',
      `${payload}.${mac}x`,
      `${payload}x.${mac}`,
      `${good}.more`,
      altered,
      foreign,
      clientCursor,
      '',
    ]) {
      const r = await h.request('GET', `/v1/bank-accounts?cursor=${encodeURIComponent(cursor)}`, { key: b.key })
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toEqual(['cursor'])
    }
  })
})
