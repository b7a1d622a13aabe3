import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'

let h: Harness
let biz: { id: number; key: string }

beforeAll(async () => {
  h = await makeHarness({ validVat: ['DE123456789'] })
  biz = await h.business({ currency: 'EUR' })
})
afterAll(() => h.close())

const base = { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }

describe('creating a Client', () => {
  test('a created Client answers every field, with defaults for those not sent', async () => {
    const r = await h.request('POST', '/v1/clients', { key: biz.key, body: base })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      name: 'Acme GmbH',
      legal_name: null,
      email: 'billing@acme.example',
      country: 'DE',
      currency: 'EUR',
      payment_terms: 30,
      is_active: true,
      vat_verified: false,
      credit_limit: null,
      preferred_bank_account_ids: [],
    })
    expect(r.body.account_code).toMatch(/^C\d{5}$/)
  })

  test('a VAT number VIES confirms is answered vat_verified true', async () => {
    const r = await h.request('POST', '/v1/clients', { key: biz.key, body: { ...base, vat_number: 'DE123456789' } })
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(true)
  })

  test('missing email and both names blank are refused per field', async () => {
    const r = await h.request('POST', '/v1/clients', { key: biz.key, body: { country: 'DE', name: '' } })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors)).toContain('email')
  })

  test('credit_limit as a JSON number or with a third decimal is refused under credit_limit', async () => {
    for (const credit_limit of [10.5, '10.505']) {
      const r = await h.request('POST', '/v1/clients', { key: biz.key, body: { ...base, credit_limit } })
      expect(r.status).toBe(422)
      expect(r.body.error.errors.credit_limit).toBeArray()
    }
  })
})
