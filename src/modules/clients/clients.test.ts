// Clients over HTTP against a real temp-file database: every field and rule of the contract's Client sections.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness, type TestResponse, allPages, expectRefusedUnder } from '../../../test/harness'
import { ACME } from '../../../test/documents-kit'
import { setNumbering } from '../business'

let h: Harness
let biz: { id: number; key: string }

beforeAll(async () => {
  h = await makeHarness({ validVat: ['DE123456789', 'EL123456789', 'ATU12345678', 'EE123456789'] })
  biz = await h.business({ currency: 'EUR' })
})
afterAll(() => h.close())
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
beforeEach(() => h.clock.advance(61_000))

const base = ACME

function post(body: unknown, key = biz.key): Promise<TestResponse> {
  return h.request('POST', '/v1/clients', { key, body })
}

function patch(id: number, body: unknown, key = biz.key): Promise<TestResponse> {
  return h.request('PATCH', `/v1/clients/${id}`, { key, body })
}

/** Creates a Client that must be accepted, and answers it. */
async function made(extra: Record<string, unknown> = {}, key = biz.key): Promise<any> {
  const r = await post({ ...base, ...extra }, key)
  expect(r.status).toBe(201)
  return r.body
}

function listAll(key: string, search?: string): Promise<any[]> {
  return allPages(h, '/v1/clients', key, search === undefined ? {} : { search })
}

describe('creating a Client', () => {
  test('a created Client answers every field, with defaults for those not sent', async () => {
    const r = await h.request('POST', '/v1/clients', { key: biz.key, body: base })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      name: 'Acme GmbH',
      legal_name: null,
      contact_person: null,
      email: 'billing@acme.example',
      phone: null,
      address: null,
      city: null,
      postal_code: null,
      country: 'DE',
      vat_number: null,
      currency: 'EUR',
      payment_terms: 30,
      is_active: true,
      vat_verified: false,
      credit_limit: null,
      notes: null,
      preferred_bank_account_ids: [],
    })
    expect(r.body.account_code).toMatch(/^C\d{5}$/)
    expect(r.body.id).toBeInteger()
    expect(r.body.created_at).toBe(h.clock.now().toISOString())
    expect(r.body.updated_at).toBe(r.body.created_at)
  })

  test('every field sent is stored and answered as sent', async () => {
    const body = {
      name: 'Acme',
      legal_name: 'Acme Trading GmbH',
      contact_person: 'Ada Lovelace',
      email: 'ada@acme.example',
      phone: '+49 30 1234567',
      address: 'Hauptstraße 1\nHinterhaus',
      city: 'Berlin',
      postal_code: '10115',
      country: 'DE',
      vat_number: 'DE999999999',
      currency: 'USD',
      payment_terms: 14,
      credit_limit: '2500.00',
      notes: 'pays late in August',
    }
    const c = await made(body)
    expect(c).toMatchObject({ ...body, vat_verified: false })
    const got = await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })
    expect(got.status).toBe(200)
    expect(got.body).toEqual(c)
  })

  test('a VAT number VIES confirms is answered vat_verified true', async () => {
    const r = await post({ ...base, vat_number: 'DE123456789' })
    expect(r.status).toBe(201)
    expect(r.body.vat_verified).toBe(true)
  })

  test('missing email is refused under email', async () => {
    const r = await post({ country: 'DE', name: 'Acme' })
    expectRefusedUnder(r, 'email')
  })

  test('missing email and both names blank are refused per field', async () => {
    const r = await post({ country: 'DE', name: '' })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors)).toContain('email')
  })

  test('an empty body is told every missing field at once: email, country and name together', async () => {
    for (const body of [{}, { name: '' }, { name: ' ', legal_name: null }]) {
      const r = await post(body)
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors).sort()).toEqual(['country', 'email', 'name'])
      expect(r.body.error.errors.name).toEqual(['is required when legal_name is blank'])
    }
    // A name given is not asked for.
    expect(Object.keys((await post({ legal_name: 'Acme AG' })).body.error.errors).sort()).toEqual(['country', 'email'])
  })

  test('an email that SMTP would read as more than one address is refused, on create and on update', async () => {
    const bad = [
      'x<other@evil.example>',
      'a@b.c,d:e;',
      '"a"@b.example',
      'a@b.example>',
      'a;b@c.example',
      'a@b..example',
      'a@-b.example',
      'a@b.example,c@d.example',
      'a@1.2',
    ]
    for (const email of bad) expectRefusedUnder(await post({ ...base, email }), 'email')
    const c = await made()
    for (const email of bad) expectRefusedUnder(await patch(c.id, { email }), 'email')
    for (const email of [
      'a.b+tag@sub.example.co',
      "o'brien@example.ie",
      'müller@bücher.example',
      'x_y-z@a-b.example',
    ]) {
      expect((await post({ ...base, email })).status).toBe(201)
    }
  })

  test('an empty email is refused under email', async () => {
    expectRefusedUnder(await post({ ...base, email: '' }), 'email')
    expectRefusedUnder(await post({ ...base, email: '   ' }), 'email')
  })

  test('an email that is not an email address is refused under email', async () => {
    for (const email of ['not-an-email', 'a@b', '@acme.example', 'a b@acme.example']) {
      expectRefusedUnder(await post({ ...base, email }), 'email')
    }
  })

  test('missing country is refused under country', async () => {
    expectRefusedUnder(await post({ name: 'Acme', email: 'a@acme.example' }), 'country')
  })

  test('a Client with neither name nor legal_name is refused under name', async () => {
    for (const names of [{}, { name: '' }, { name: '  ', legal_name: '' }, { name: null, legal_name: null }]) {
      const r = await post({ email: 'x@acme.example', country: 'DE', ...names })
      expectRefusedUnder(r, 'name')
    }
  })

  test('a blank name takes legal_name', async () => {
    expect((await made({ name: '', legal_name: 'Acme Legal GmbH' })).name).toBe('Acme Legal GmbH')
    expect((await made({ name: null, legal_name: 'Acme Legal GmbH' })).name).toBe('Acme Legal GmbH')
    const onlyLegal = await post({ email: 'x@acme.example', country: 'DE', legal_name: 'Only Legal AG' })
    expect(onlyLegal.status).toBe(201)
    expect(onlyLegal.body.name).toBe('Only Legal AG')
    expect(onlyLegal.body.legal_name).toBe('Only Legal AG')
  })

  test('fields sent empty are left blank (null)', async () => {
    const c = await made({
      legal_name: '',
      contact_person: '',
      phone: '  ',
      address: '',
      city: '',
      postal_code: '',
      vat_number: '',
      notes: '',
      credit_limit: '',
    })
    for (const f of [
      'legal_name',
      'contact_person',
      'phone',
      'address',
      'city',
      'postal_code',
      'vat_number',
      'notes',
      'credit_limit',
    ]) {
      expect(c[f]).toBeNull()
    }
    expect(c.vat_verified).toBe(false)
  })

  test('fields sent null are left blank, and those with defaults take their default', async () => {
    const c = await made({
      legal_name: null,
      contact_person: null,
      phone: null,
      address: null,
      city: null,
      postal_code: null,
      vat_number: null,
      notes: null,
      credit_limit: null,
      currency: null,
      payment_terms: null,
      account_code: null,
      preferred_bank_account_ids: null,
    })
    expect(c).toMatchObject({
      legal_name: null,
      phone: null,
      credit_limit: null,
      currency: 'EUR',
      payment_terms: 30,
      preferred_bank_account_ids: [],
    })
    expect(c.account_code).toMatch(/^C\d{5}$/)
  })
})

describe('field lengths', () => {
  const email255 = 'a'.repeat(243) + '@example.com'
  const cases: Array<[string, number, (n: number) => string]> = [
    ['name', 255, (n) => 'n'.repeat(n)],
    ['legal_name', 255, (n) => 'l'.repeat(n)],
    ['contact_person', 255, (n) => 'p'.repeat(n)],
    ['email', 255, (n) => 'a'.repeat(n - 12) + '@example.com'],
    ['phone', 50, (n) => '1'.repeat(n)],
    ['city', 100, (n) => 'c'.repeat(n)],
    ['postal_code', 20, (n) => '9'.repeat(n)],
  ]

  test('the 255-character email used below is 255 characters', () => {
    expect(email255.length).toBe(255)
  })

  for (const [field, max, value] of cases) {
    test(`a ${field} of ${max} characters is taken; ${max + 1} is refused under ${field}`, async () => {
      const ok = await post({ ...base, [field]: value(max) })
      expect(ok.status).toBe(201)
      expect(ok.body[field]).toBe(value(max))
      const err = expectRefusedUnder(await post({ ...base, [field]: value(max + 1) }), field)
      expect(err.errors[field][0]).toContain(String(max))
    })

    test(`a ${field} over ${max} characters is refused under ${field} on update too`, async () => {
      const c = await made()
      expectRefusedUnder(await patch(c.id, { [field]: value(max + 1) }), field)
    })
  }

  test('an account_code over 100 characters is refused under account_code for its length', async () => {
    const err = expectRefusedUnder(await post({ ...base, account_code: 'C'.repeat(101) }), 'account_code')
    expect(err.errors.account_code[0]).toContain('100')
  })

  // Lengths count characters (an emoji is one, though it is two UTF-16 units) of the value as stored, trimmed.
  const emoji = '😀'
  const charCases: Array<[string, number, (n: number) => string]> = [
    ['name', 255, (n) => emoji.repeat(n)],
    ['legal_name', 255, (n) => emoji.repeat(n)],
    ['contact_person', 255, (n) => emoji.repeat(n)],
    ['email', 255, (n) => emoji.repeat(n - 12) + '@example.com'],
    ['phone', 50, (n) => emoji.repeat(n)],
    ['city', 100, (n) => emoji.repeat(n)],
    ['postal_code', 20, (n) => emoji.repeat(n)],
    ['vat_number', 50, (n) => emoji.repeat(n)],
    // Unbounded once: one Client with a 1 MB address made every page listing its Drafts 100 MB.
    ['address', 1000, (n) => emoji.repeat(n)],
    ['notes', 10000, (n) => emoji.repeat(n)],
  ]
  for (const [field, max, value] of charCases) {
    test(`a ${field} of ${max} emoji is ${max} characters and is taken; ${max + 1} are refused as over ${max} characters`, async () => {
      const ok = await post({ ...base, [field]: value(max) })
      expect(ok.status).toBe(201)
      expect(ok.body[field]).toBe(value(max))
      const err = expectRefusedUnder(await post({ ...base, [field]: value(max + 1) }), field)
      expect(err.errors[field]).toEqual([`must be at most ${max} characters`])
      const c = await made()
      expect((await patch(c.id, { [field]: value(max) })).body[field]).toBe(value(max))
      expect(expectRefusedUnder(await patch(c.id, { [field]: value(max + 1) }), field).errors[field]).toEqual([
        `must be at most ${max} characters`,
      ])
    })
  }

  for (const [field, max, value] of cases) {
    test(`a ${field} is counted as stored: ${max} characters with spaces around are taken and stored trimmed`, async () => {
      const ok = await post({ ...base, [field]: `  ${value(max)} ` })
      expect(ok.status).toBe(201)
      expect(ok.body[field]).toBe(value(max))
      const c = await made()
      expect((await patch(c.id, { [field]: ` ${value(max)}` })).body[field]).toBe(value(max))
      const err = expectRefusedUnder(await post({ ...base, [field]: ` ${value(max + 1)} ` }), field)
      expect(err.errors[field]).toEqual([`must be at most ${max} characters`])
    })
  }

  test('a Client name of 200 emoji (200 characters) is taken, and " " + 255 letters is taken as the 255 letters', async () => {
    expect((await made({ name: emoji.repeat(200) })).name).toBe(emoji.repeat(200))
    expect((await made({ name: ' ' + 'a'.repeat(255) })).name).toBe('a'.repeat(255))
  })

  test('an account_code is counted in characters: 100 emoji are judged by the pattern, not refused for length; 101 are refused for length', async () => {
    const fits = expectRefusedUnder(await post({ ...base, account_code: emoji.repeat(100) }), 'account_code')
    expect(fits.errors.account_code[0]).toContain('pattern')
    const over = expectRefusedUnder(await post({ ...base, account_code: emoji.repeat(101) }), 'account_code')
    expect(over.errors.account_code).toEqual(['must be at most 100 characters'])
    // Spaces around a code are not part of it.
    expect((await made({ account_code: ' C90001 ' })).account_code).toBe('C90001')
  })
})

describe('country and currency', () => {
  test('a country that is not an ISO 3166-1 alpha-2 code is refused under country', async () => {
    for (const country of ['XX', 'D', 'DEU', '', '1A', 'EU', 'UK']) {
      expectRefusedUnder(await post({ ...base, country }), 'country')
    }
  })

  test('a country change to a code that is not ISO alpha-2 is refused under country on update', async () => {
    const c = await made()
    expectRefusedUnder(await patch(c.id, { country: 'ZZ' }), 'country')
    expectRefusedUnder(await patch(c.id, { country: 'DEU' }), 'country')
  })

  test("currency not sent or blank is the Business's currency", async () => {
    const gbp = await h.business({ currency: 'GBP', country: 'GB' })
    expect((await made({}, gbp.key)).currency).toBe('GBP')
    expect((await made({ currency: '' }, gbp.key)).currency).toBe('GBP')
    expect((await made({ currency: null }, gbp.key)).currency).toBe('GBP')
    expect((await made({ currency: 'USD' }, gbp.key)).currency).toBe('USD')
  })

  test('a currency that is not ISO 4217 is refused under currency', async () => {
    for (const currency of ['XYZ', 'EURO', 'E', 'XAU', '123']) {
      expectRefusedUnder(await post({ ...base, currency }), 'currency')
    }
  })
})

describe('payment_terms', () => {
  test('payment_terms defaults to 30 and takes 0 to 999999', async () => {
    expect((await made()).payment_terms).toBe(30)
    expect((await made({ payment_terms: 0 })).payment_terms).toBe(0)
    expect((await made({ payment_terms: 999999 })).payment_terms).toBe(999999)
  })

  test('payment_terms of 1000000, below 0, fractional or written as a string is refused under payment_terms', async () => {
    for (const payment_terms of [1000000, -1, 1.5, '30', true]) {
      expectRefusedUnder(await post({ ...base, payment_terms }), 'payment_terms')
    }
  })
})

describe('credit_limit', () => {
  test("a credit_limit is answered at the currency's scale", async () => {
    expect((await made({ credit_limit: '10.5' })).credit_limit).toBe('10.50')
    expect((await made({ credit_limit: '0' })).credit_limit).toBe('0.00')
    expect((await made({ credit_limit: '1234.56' })).credit_limit).toBe('1234.56')
  })

  test('a credit_limit of 15 digits before the point is kept exactly', async () => {
    expect((await made({ credit_limit: '999999999999999.99' })).credit_limit).toBe('999999999999999.99')
  })

  test('a negative, three-decimal, JSON-number or non-decimal credit_limit is refused under credit_limit', async () => {
    for (const credit_limit of ['-1', '-0.01', '1.005', '10.505', 10.5, 10, 'abc', '1,50', true]) {
      expectRefusedUnder(await post({ ...base, credit_limit }), 'credit_limit')
    }
  })

  test('a credit_limit\'s decimals count as written: "12.500" (a third decimal, even a zero) is refused under credit_limit, on create and update', async () => {
    for (const credit_limit of ['12.500', '0.000', '1.23450e2']) {
      const e = expectRefusedUnder(await post({ ...base, credit_limit }), 'credit_limit')
      expect(e.errors.credit_limit).toEqual(['must have at most 2 decimals'])
    }
    const c = await made({ credit_limit: '12.50' })
    expect(c.credit_limit).toBe('12.50')
    expectRefusedUnder(await patch(c.id, { credit_limit: '12.500' }), 'credit_limit')
    expect((await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })).body.credit_limit).toBe('12.50')
    expectRefusedUnder(await post({ ...base, currency: 'JPY', credit_limit: '10.0' }), 'credit_limit')
  })

  test('a credit_limit of 16 digits before the point is refused under credit_limit', async () => {
    expectRefusedUnder(await post({ ...base, credit_limit: '1000000000000000' }), 'credit_limit')
  })

  test('a 3-decimal currency takes two decimals at most and answers three', async () => {
    const c = await made({ currency: 'KWD', credit_limit: '10.5' })
    expect(c.credit_limit).toBe('10.500')
    expect((await made({ currency: 'KWD', credit_limit: '0' })).credit_limit).toBe('0.000')
    expectRefusedUnder(await post({ ...base, currency: 'KWD', credit_limit: '10.125' }), 'credit_limit')
  })

  test('a 0-decimal currency takes whole credit limits only and answers no decimals', async () => {
    expect((await made({ currency: 'JPY', credit_limit: '150000' })).credit_limit).toBe('150000')
    expectRefusedUnder(await post({ ...base, currency: 'JPY', credit_limit: '10.5' }), 'credit_limit')
  })

  test('null clears the credit_limit on update; not sent keeps it', async () => {
    const c = await made({ credit_limit: '500' })
    expect((await patch(c.id, { notes: 'x' })).body.credit_limit).toBe('500.00')
    const cleared = await patch(c.id, { credit_limit: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body.credit_limit).toBeNull()
    expect((await patch(c.id, { credit_limit: '7.1' })).body.credit_limit).toBe('7.10')
    // Sent empty is left blank, as on create.
    expect((await patch(c.id, { credit_limit: '' })).body.credit_limit).toBeNull()
  })

  test('credit_limit on update is held to the create rules', async () => {
    const c = await made()
    for (const credit_limit of ['-1', '1.005', 10.5]) {
      expectRefusedUnder(await patch(c.id, { credit_limit }), 'credit_limit')
    }
  })

  test('a credit_limit on update is judged by the currency sent with it', async () => {
    const c = await made({ credit_limit: '10.50' })
    expectRefusedUnder(await patch(c.id, { currency: 'JPY', credit_limit: '10.5' }), 'credit_limit')
    const r = await patch(c.id, { currency: 'JPY', credit_limit: '10' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ currency: 'JPY', credit_limit: '10' })
  })

  test('a currency change the kept credit_limit does not fit is refused under currency and changes nothing', async () => {
    const c = await made({ credit_limit: '10.50' })
    expectRefusedUnder(await patch(c.id, { currency: 'JPY' }), 'currency')
    const now = await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })
    expect(now.body).toMatchObject({ currency: 'EUR', credit_limit: '10.50' })
    // A whole credit limit fits a 0-decimal currency, and a 3-decimal one answers three decimals.
    const whole = await made({ credit_limit: '10' })
    expect((await patch(whole.id, { currency: 'JPY' })).body.credit_limit).toBe('10')
    expect((await patch(whole.id, { currency: 'KWD' })).body.credit_limit).toBe('10.000')
  })
})

describe('notes', () => {
  test('notes are kept when not sent and cleared by null', async () => {
    const c = await made({ notes: 'call before delivery' })
    expect(c.notes).toBe('call before delivery')
    expect((await patch(c.id, { city: 'Bonn' })).body.notes).toBe('call before delivery')
    expect((await patch(c.id, { notes: null })).body.notes).toBeNull()
  })
})

describe('preferred bank accounts', () => {
  let own: number[]
  let foreign: number
  beforeAll(async () => {
    own = [await h.bankAccount(biz.id, 'A'), await h.bankAccount(biz.id, 'B'), await h.bankAccount(biz.id, 'C')]
    const other = await h.business()
    foreign = await h.bankAccount(other.id, 'Foreign')
  })

  test('preferred_bank_account_ids are answered ascending and without repeats', async () => {
    const c = await made({ preferred_bank_account_ids: [own[2], own[0], own[2], own[0]] })
    expect(c.preferred_bank_account_ids).toEqual([own[0], own[2]])
  })

  test('on update a list replaces, [] clears, null or not sent keeps', async () => {
    const c = await made({ preferred_bank_account_ids: [own[0]] })
    expect((await patch(c.id, { name: 'Renamed' })).body.preferred_bank_account_ids).toEqual([own[0]])
    expect((await patch(c.id, { preferred_bank_account_ids: null })).body.preferred_bank_account_ids).toEqual([own[0]])
    expect(
      (await patch(c.id, { preferred_bank_account_ids: [own[2], own[1]] })).body.preferred_bank_account_ids,
    ).toEqual([own[1], own[2]])
    expect((await patch(c.id, { preferred_bank_account_ids: [] })).body.preferred_bank_account_ids).toEqual([])
  })

  test("another Business's bank account is refused under its index", async () => {
    const first = expectRefusedUnder(
      await post({ ...base, preferred_bank_account_ids: [foreign] }),
      'preferred_bank_account_ids.0',
    )
    expect(Object.keys(first.errors)).not.toContain('preferred_bank_account_ids.1')
    const second = expectRefusedUnder(
      await post({ ...base, preferred_bank_account_ids: [own[0], foreign] }),
      'preferred_bank_account_ids.1',
    )
    expect(Object.keys(second.errors)).not.toContain('preferred_bank_account_ids.0')
  })

  test('a bank account id that does not exist is refused under its index', async () => {
    expectRefusedUnder(
      await post({ ...base, preferred_bank_account_ids: [own[0], 999999] }),
      'preferred_bank_account_ids.1',
    )
  })

  test("another Business's bank account is refused on update and the list is kept", async () => {
    const c = await made({ preferred_bank_account_ids: [own[1]] })
    expectRefusedUnder(
      await patch(c.id, { preferred_bank_account_ids: [own[0], foreign] }),
      'preferred_bank_account_ids.1',
    )
    const now = await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })
    expect(now.body.preferred_bank_account_ids).toEqual([own[1]])
  })

  test('bank account ids that are not whole numbers are refused', async () => {
    for (const ids of [['1'], [1.5], 'all']) {
      const r = await post({ ...base, preferred_bank_account_ids: ids })
      expect(r.status).toBe(422)
      expect(Object.keys(r.body.error.errors).some((k) => k.startsWith('preferred_bank_account_ids'))).toBe(true)
    }
  })
})

describe('fields the endpoints do not take', () => {
  for (const field of ['id', 'vat_verified', 'foo', 'created_at', 'is_active']) {
    test(`a create body with "${field}" is refused with 422 naming ${field}`, async () => {
      const value = field === 'vat_verified' || field === 'is_active' ? true : field === 'id' ? 5 : 'x'
      const r = await post({ ...base, [field]: value })
      expectRefusedUnder(r, field)
    })
  }

  for (const field of ['id', 'vat_verified', 'foo', 'updated_at']) {
    test(`an update body with "${field}" is refused with 422 naming ${field} and changes nothing`, async () => {
      const c = await made()
      const r = await patch(c.id, {
        name: 'Changed',
        [field]: field === 'vat_verified' ? true : field === 'id' ? 5 : 'x',
      })
      expectRefusedUnder(r, field)
      expect((await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })).body.name).toBe('Acme GmbH')
    })
  }
})

describe('account codes', () => {
  test('account codes run C00001, C00002, ... per Business', async () => {
    const a = await h.business()
    const b = await h.business()
    expect((await made({}, a.key)).account_code).toBe('C00001')
    expect((await made({}, a.key)).account_code).toBe('C00002')
    expect((await made({}, b.key)).account_code).toBe('C00001')
    expect((await made({}, a.key)).account_code).toBe('C00003')
  })

  test('an explicit fitting code is taken and the next code is one above the highest taken', async () => {
    const a = await h.business()
    expect((await made({}, a.key)).account_code).toBe('C00001')
    expect((await made({ account_code: 'C00010' }, a.key)).account_code).toBe('C00010')
    expect((await made({}, a.key)).account_code).toBe('C00011')
    // An unused earlier code may still be taken; it does not move the counter back.
    expect((await made({ account_code: 'C00005' }, a.key)).account_code).toBe('C00005')
    expect((await made({}, a.key)).account_code).toBe('C00012')
  })

  test('an account code sent blank or null takes the next code', async () => {
    const a = await h.business()
    expect((await made({ account_code: '' }, a.key)).account_code).toBe('C00001')
    expect((await made({ account_code: '   ' }, a.key)).account_code).toBe('C00002')
    expect((await made({ account_code: null }, a.key)).account_code).toBe('C00003')
  })

  test('a code held by another Client is refused under account_code', async () => {
    const a = await h.business()
    await made({ account_code: 'C00042' }, a.key)
    expectRefusedUnder(await post({ ...base, account_code: 'C00042' }, a.key), 'account_code')
    // A code is held only within its Business.
    const b = await h.business()
    expect((await made({ account_code: 'C00042' }, b.key)).account_code).toBe('C00042')
  })

  test('a code not fitting the pattern is refused under account_code', async () => {
    const a = await h.business()
    for (const account_code of ['X1', 'C1', 'C0001', 'c00001', 'C123456', 'C00000', 'C99999', 'C0000A', 'KC00001']) {
      expectRefusedUnder(await post({ ...base, account_code }, a.key), 'account_code')
    }
    // Nothing was taken by the refused codes.
    expect((await made({}, a.key)).account_code).toBe('C00001')
  })

  test('a custom client pattern is followed', async () => {
    const a = await h.business()
    await setNumbering(h.deps.db, a.id, 'client', 'K-{NN}')
    expect((await made({}, a.key)).account_code).toBe('K-01')
    expect((await made({}, a.key)).account_code).toBe('K-02')
    expect((await made({ account_code: 'K-07' }, a.key)).account_code).toBe('K-07')
    expect((await made({}, a.key)).account_code).toBe('K-08')
    expectRefusedUnder(await post({ ...base, account_code: 'C00001' }, a.key), 'account_code')
    expectRefusedUnder(await post({ ...base, account_code: 'K-1' }, a.key), 'account_code')
  })

  test('when the counter reaches its largest value the next create is refused numbering_at_its_end and nothing is written', async () => {
    const a = await h.business()
    await setNumbering(h.deps.db, a.id, 'client', 'X{N}')
    const codes: string[] = []
    for (let i = 0; i < 8; i++) codes.push((await made({ name: `Client ${i}` }, a.key)).account_code)
    expect(codes).toEqual(['X1', 'X2', 'X3', 'X4', 'X5', 'X6', 'X7', 'X8'])
    const r = await post({ ...base, name: 'One too many' }, a.key)
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('refusal')
    expect(r.body.error.code).toBe('numbering_at_its_end')
    // The largest value is never taken, not even explicitly.
    expectRefusedUnder(await post({ ...base, account_code: 'X9' }, a.key), 'account_code')
    const all = await listAll(a.key)
    expect(all).toHaveLength(8)
    expect(all.some((c) => c.name === 'One too many')).toBe(false)
    // Refused again the same way: the refusal took nothing.
    expect((await post({ ...base, name: 'One too many' }, a.key)).body.error.code).toBe('numbering_at_its_end')
  })

  test('concurrent creates never share an account code', async () => {
    const a = await h.business()
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post({ ...base, name: `Parallel ${i}` }, a.key)),
    )
    for (const r of answers) expect(r.status).toBe(201)
    const codes = answers.map((r) => r.body.account_code).sort()
    expect(codes).toEqual(Array.from({ length: 10 }, (_, i) => `C${String(i + 1).padStart(5, '0')}`))
  })

  test('two concurrent creates asking for one code: one is saved, the other is refused under account_code', async () => {
    const a = await h.business()
    const [x, y] = await Promise.all([
      post({ ...base, account_code: 'C00077' }, a.key),
      post({ ...base, account_code: 'C00077' }, a.key),
    ])
    const statuses = [x.status, y.status].sort()
    expect(statuses).toEqual([201, 422])
    const refused = x.status === 422 ? x : y
    expectRefusedUnder(refused, 'account_code')
    expect(await listAll(a.key)).toHaveLength(1)
  })

  test('on update a blank or null account_code keeps the current code', async () => {
    const a = await h.business()
    const c = await made({}, a.key)
    expect(c.account_code).toBe('C00001')
    expect((await patch(c.id, { account_code: '' }, a.key)).body.account_code).toBe('C00001')
    expect((await patch(c.id, { account_code: '  ' }, a.key)).body.account_code).toBe('C00001')
    expect((await patch(c.id, { account_code: null }, a.key)).body.account_code).toBe('C00001')
    expect((await patch(c.id, { account_code: 'C00001' }, a.key)).body.account_code).toBe('C00001')
  })

  test('on update a fitting free code is taken; a held or unfitting one is refused under account_code', async () => {
    const a = await h.business()
    const c1 = await made({}, a.key)
    const c2 = await made({}, a.key)
    const moved = await patch(c1.id, { account_code: 'C00020' }, a.key)
    expect(moved.status).toBe(200)
    expect(moved.body.account_code).toBe('C00020')
    expectRefusedUnder(await patch(c1.id, { account_code: c2.account_code }, a.key), 'account_code')
    expectRefusedUnder(await patch(c1.id, { account_code: 'nope' }, a.key), 'account_code')
    expect((await h.request('GET', `/v1/clients/${c1.id}`, { key: a.key })).body.account_code).toBe('C00020')
    // The code taken on update counts as taken for the numbering too.
    expect((await made({}, a.key)).account_code).toBe('C00021')
    // The freed code can be taken by another Client.
    expect((await patch(c2.id, { account_code: 'C00001' }, a.key)).body.account_code).toBe('C00001')
  })
})

describe('updating a Client', () => {
  test('every field is optional: an empty body keeps every value', async () => {
    const c = await made({ legal_name: 'L', phone: '1', city: 'Köln', notes: 'n', credit_limit: '5', payment_terms: 7 })
    h.clock.advance(1000)
    const r = await patch(c.id, {})
    expect(r.status).toBe(200)
    const { updated_at, ...rest } = r.body
    const { updated_at: _before, ...was } = c
    expect(rest).toEqual(was)
  })

  test('a field not sent keeps its value; those sent change', async () => {
    const c = await made({
      legal_name: 'Acme Legal',
      phone: '123',
      city: 'Berlin',
      postal_code: '10115',
      contact_person: 'Ada',
      address: 'Street 1',
    })
    const r = await patch(c.id, { city: 'Hamburg', phone: '', email: 'new@acme.example' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      name: 'Acme GmbH',
      legal_name: 'Acme Legal',
      contact_person: 'Ada',
      address: 'Street 1',
      postal_code: '10115',
      city: 'Hamburg',
      phone: null,
      email: 'new@acme.example',
      account_code: c.account_code,
      currency: 'EUR',
      payment_terms: 30,
    })
  })

  test('an update answers the Client as it now stands, with updated_at moved and created_at kept', async () => {
    const c = await made()
    h.clock.advance(5000)
    const r = await patch(c.id, { name: 'Renamed' })
    expect(r.body.created_at).toBe(c.created_at)
    expect(r.body.updated_at).toBe(h.clock.now().toISOString())
    expect((await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })).body).toEqual(r.body)
  })

  test('a blank name with legal_name takes the legal name', async () => {
    const c = await made()
    const r = await patch(c.id, { name: '', legal_name: 'Acme Holding AG' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ name: 'Acme Holding AG', legal_name: 'Acme Holding AG' })
  })

  test('a blank name alone takes the legal name the Client already has', async () => {
    const c = await made({ legal_name: 'Kept Legal GmbH' })
    const r = await patch(c.id, { name: null })
    expect(r.status).toBe(200)
    expect(r.body.name).toBe('Kept Legal GmbH')
  })

  test('a Client left with neither name nor legal_name is refused under name and changes nothing', async () => {
    const c = await made()
    expectRefusedUnder(await patch(c.id, { name: '' }), 'name')
    const withLegal = await made({ legal_name: 'Legal' })
    expectRefusedUnder(await patch(withLegal.id, { name: '', legal_name: '' }), 'name')
    expect((await h.request('GET', `/v1/clients/${withLegal.id}`, { key: biz.key })).body).toMatchObject({
      name: 'Acme GmbH',
      legal_name: 'Legal',
    })
  })

  test('email cannot be cleared or made invalid on update', async () => {
    const c = await made()
    expectRefusedUnder(await patch(c.id, { email: '' }), 'email')
    expectRefusedUnder(await patch(c.id, { email: null }), 'email')
    expectRefusedUnder(await patch(c.id, { email: 'nope' }), 'email')
  })

  test('currency and payment_terms can be changed, not cleared', async () => {
    const c = await made()
    const r = await patch(c.id, { currency: 'CHF', payment_terms: 60 })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ currency: 'CHF', payment_terms: 60 })
    expectRefusedUnder(await patch(c.id, { currency: null }), 'currency')
    expectRefusedUnder(await patch(c.id, { currency: '' }), 'currency')
    expectRefusedUnder(await patch(c.id, { payment_terms: null }), 'payment_terms')
    expectRefusedUnder(await patch(c.id, { payment_terms: 1000000 }), 'payment_terms')
    expectRefusedUnder(await patch(c.id, { payment_terms: '30' }), 'payment_terms')
    expect((await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })).body).toMatchObject({
      currency: 'CHF',
      payment_terms: 60,
    })
  })

  test('is_active is accepted and only takes booleans', async () => {
    const c = await made()
    expect((await patch(c.id, { is_active: false })).body.is_active).toBe(false)
    expect((await patch(c.id, { name: 'Still inactive' })).body.is_active).toBe(false)
    expect((await patch(c.id, { is_active: true })).body.is_active).toBe(true)
    expectRefusedUnder(await patch(c.id, { is_active: 'false' }), 'is_active')
    expectRefusedUnder(await patch(c.id, { is_active: null }), 'is_active')
  })

  test('a refused update changes nothing, even in the fields that were valid', async () => {
    const c = await made()
    expectRefusedUnder(await patch(c.id, { name: 'Would change', payment_terms: -1 }), 'payment_terms')
    const now = (await h.request('GET', `/v1/clients/${c.id}`, { key: biz.key })).body
    expect(now).toEqual(c)
  })
})

describe('VIES', () => {
  test('a VAT number is checked with VIES on create, the country prefix split off', async () => {
    const before = h.vies.calls.length
    const c = await made({ vat_number: 'DE123456789' })
    expect(c.vat_verified).toBe(true)
    expect(h.vies.calls.slice(before)).toEqual([{ countryCode: 'DE', vatNumber: '123456789' }])
  })

  test("a VAT number without its prefix is checked under the Client's country", async () => {
    const before = h.vies.calls.length
    const c = await made({ country: 'AT', vat_number: 'U12345678' })
    expect(c.vat_verified).toBe(true)
    expect(h.vies.calls.slice(before)).toEqual([{ countryCode: 'AT', vatNumber: 'U12345678' }])
  })

  test("a VAT number that fits no member state's syntax is kept as written, vat_verified false, and VIES is not asked", async () => {
    for (const [country, vat_number] of [
      ['DE', 'DE12345'],
      ['AT', '123456789'],
      ['FR', 'FR123'],
      ['NL', 'NL123456789'],
      ['DE', 'XX123456789'],
    ]) {
      const before = h.vies.calls.length
      const c = await made({ country, vat_number })
      expect(c).toMatchObject({ vat_number, vat_verified: false })
      expect(h.vies.calls.length).toBe(before)
    }
    // Belgian numbers may start with 1 since 2023: the shape is taken, so VIES is asked.
    const before = h.vies.calls.length
    await made({ country: 'BE', vat_number: 'BE1234567894' })
    expect(h.vies.calls.slice(before)).toEqual([{ countryCode: 'BE', vatNumber: '1234567894' }])
  })

  test("a Greek Client's VAT number is checked under VIES prefix EL however it is written", async () => {
    for (const vat_number of ['123456789', 'EL123456789', 'GR123456789']) {
      const before = h.vies.calls.length
      const c = await made({ country: 'GR', vat_number })
      expect(h.vies.calls.slice(before)).toEqual([{ countryCode: 'EL', vatNumber: '123456789' }])
      expect(c.vat_verified).toBe(true)
    }
  })

  test('a VAT number VIES denies is saved with vat_verified false', async () => {
    const c = await made({ vat_number: 'DE000000000' })
    expect(c).toMatchObject({ vat_number: 'DE000000000', vat_verified: false })
  })

  test('a Client with no VAT number is saved without asking VIES', async () => {
    const before = h.vies.calls.length
    await made()
    await made({ vat_number: '' })
    expect(h.vies.calls.length).toBe(before)
  })

  test('a changed vat_number is checked with VIES again', async () => {
    const c = await made({ vat_number: 'DE000000000' })
    const before = h.vies.calls.length
    const r = await patch(c.id, { vat_number: 'DE123456789' })
    expect(r.body.vat_verified).toBe(true)
    expect(h.vies.calls.slice(before)).toEqual([{ countryCode: 'DE', vatNumber: '123456789' }])
  })

  test('an unchanged vat_number is not checked again', async () => {
    const c = await made({ vat_number: 'DE123456789' })
    const before = h.vies.calls.length
    const r = await patch(c.id, { vat_number: 'DE123456789', name: 'Other' })
    expect(r.body.vat_verified).toBe(true)
    expect(h.vies.calls.length).toBe(before)
  })

  test('a cleared vat_number is removed with vat_verified false and VIES is not asked', async () => {
    const c = await made({ vat_number: 'DE123456789' })
    expect(c.vat_verified).toBe(true)
    for (const vat_number of [null, '']) {
      const before = h.vies.calls.length
      const r = await patch(c.id, { vat_number })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ vat_number: null, vat_verified: false })
      expect(h.vies.calls.length).toBe(before)
    }
  })

  test('a changed country re-asks VIES', async () => {
    const c = await made({ country: 'DE', vat_number: '123456789' })
    expect(c.vat_verified).toBe(true)
    const before = h.vies.calls.length
    const r = await patch(c.id, { country: 'EE' })
    expect(r.status).toBe(200)
    expect(h.vies.calls.slice(before)).toEqual([{ countryCode: 'EE', vatNumber: '123456789' }])
    expect(r.body).toMatchObject({ country: 'EE', vat_verified: true })
  })

  test('a refused update does not ask VIES', async () => {
    const c = await made()
    const before = h.vies.calls.length
    expectRefusedUnder(await patch(c.id, { vat_number: 'DE123456789', payment_terms: -5 }), 'payment_terms')
    expect(h.vies.calls.length).toBe(before)
  })
})

describe('listing and searching', () => {
  let lb: { id: number; key: string }
  const made3: any[] = []
  beforeAll(async () => {
    lb = await h.business()
    h.clock.advance(61_000)
    made3.push(await made({ name: 'Über Logistik', email: 'ops@ueber.example', vat_number: 'DE111111111' }, lb.key))
    made3.push(
      await made({ name: 'Zeta', legal_name: 'Zeta Consulting SARL', email: 'z@zeta.example', country: 'FR' }, lb.key),
    )
    made3.push(await made({ name: 'Plain Co', email: 'hello@PLAIN.example', account_code: 'C00555' }, lb.key))
    made3.push(await made({ name: 'Ωmega Ltd', email: 'o@omega.example', country: 'GR' }, lb.key))
    made3.push(await made({ name: '100% Pure_Juice', email: 'j@juice.example' }, lb.key))
  })

  test('a list answers {data, next_cursor} oldest first', async () => {
    const r = await h.request('GET', '/v1/clients', { key: lb.key })
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(['data', 'next_cursor'])
    expect(r.body.data.map((c: any) => c.id)).toEqual(made3.map((c) => c.id))
    expect(r.body.next_cursor).toBeNull()
    expect(r.body.data[0]).toEqual(made3[0])
  })

  const searches: Array<[string, string, number]> = [
    ['name', 'über', 0],
    ['name in another case (non-ASCII)', 'ÜBER', 0],
    ['name in Greek upper and lower case', 'ωMEGA', 3],
    ['legal name', 'zeta consulting', 1],
    ['email', 'PLAIN.EXAMPLE', 2],
    ['VAT number', 'de1111', 0],
    ['account code', 'c00555', 2],
  ]
  for (const [what, q, index] of searches) {
    test(`search matches the ${what} in any case ("${q}")`, async () => {
      const r = await h.request('GET', `/v1/clients?search=${encodeURIComponent(q)}`, { key: lb.key })
      expect(r.status).toBe(200)
      expect(r.body.data.map((c: any) => c.id)).toEqual([made3[index]!.id])
    })
  }

  test('search treats % and _ as plain characters', async () => {
    const pct = await h.request('GET', `/v1/clients?search=${encodeURIComponent('100%')}`, { key: lb.key })
    expect(pct.body.data.map((c: any) => c.id)).toEqual([made3[4].id])
    const under = await h.request('GET', `/v1/clients?search=${encodeURIComponent('e_j')}`, { key: lb.key })
    expect(under.body.data.map((c: any) => c.id)).toEqual([made3[4].id])
    const none = await h.request('GET', `/v1/clients?search=${encodeURIComponent('%')}`, { key: lb.key })
    expect(none.body.data.map((c: any) => c.id)).toEqual([made3[4].id])
    const nothing = await h.request('GET', `/v1/clients?search=${encodeURIComponent('_x_')}`, { key: lb.key })
    expect(nothing.body.data).toEqual([])
  })

  test('search matching nothing answers an empty page', async () => {
    const r = await h.request('GET', '/v1/clients?search=nothing-like-this', { key: lb.key })
    expect(r.body).toEqual({ data: [], next_cursor: null })
  })

  test('search does not match fields it does not cover', async () => {
    const r = await h.request('GET', '/v1/clients?search=FR', { key: lb.key })
    // "FR" is only Zeta's country: not a searched field.
    expect(r.body.data.map((c: any) => c.id)).toEqual([])
  })

  test('search follows an update: the new name matches and the old one no longer does', async () => {
    const c = await made({ name: 'Before Rename', email: 'r@rename.example' }, lb.key)
    await patch(c.id, { name: 'After Rename', vat_number: 'ATU99999999' }, lb.key)
    const old = await h.request('GET', '/v1/clients?search=before', { key: lb.key })
    expect(old.body.data).toEqual([])
    for (const q of ['after rename', 'atu9999']) {
      const found = await h.request('GET', `/v1/clients?search=${encodeURIComponent(q)}`, { key: lb.key })
      expect(found.body.data.map((x: any) => x.id)).toEqual([c.id])
    }
  })

  test('limit 0, 101 or not a whole number is refused with 422 naming limit', async () => {
    for (const limit of ['0', '101', '-1', 'abc', '1.5', '']) {
      const r = await h.request('GET', `/v1/clients?limit=${limit}`, { key: lb.key })
      expectRefusedUnder(r, 'limit')
    }
  })

  test('limit 1 and 100 are taken; limit 1 pages one Client at a time', async () => {
    const hundred = await h.request('GET', '/v1/clients?limit=100', { key: lb.key })
    expect(hundred.status).toBe(200)
    const one = await h.request('GET', '/v1/clients?limit=1', { key: lb.key })
    expect(one.body.data).toHaveLength(1)
    expect(one.body.data[0].id).toBe(made3[0].id)
    expect(one.body.next_cursor).toBeString()
    const next = await h.request('GET', `/v1/clients?limit=1&cursor=${encodeURIComponent(one.body.next_cursor)}`, {
      key: lb.key,
    })
    expect(next.body.data[0].id).toBe(made3[1].id)
  })

  test('a tampered cursor is refused with 422 naming cursor, never read as the first page', async () => {
    const one = await h.request('GET', '/v1/clients?limit=1', { key: lb.key })
    const cursor: string = one.body.next_cursor
    const [payload, mac] = cursor.split('.') as [string, string]
    const forged = Buffer.from(JSON.stringify(['clients', lb.id, 0])).toString('base64url')
    const bad = [
      'garbage',
      '',
      cursor + 'x',
      `${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${forged}.${mac}`,
      `${payload}.${mac}.extra`,
    ]
    for (const c of bad) {
      const r = await h.request('GET', `/v1/clients?cursor=${encodeURIComponent(c)}`, { key: lb.key })
      expectRefusedUnder(r, 'cursor')
    }
  })

  test('a cursor from another Business is refused with 422 naming cursor', async () => {
    const other = await h.business()
    await made({}, other.key)
    await made({}, other.key)
    const theirs = await h.request('GET', '/v1/clients?limit=1', { key: other.key })
    expect(theirs.body.next_cursor).toBeString()
    const r = await h.request('GET', `/v1/clients?cursor=${encodeURIComponent(theirs.body.next_cursor)}`, {
      key: lb.key,
    })
    expectRefusedUnder(r, 'cursor')
  })

  test('a cursor from the bank-accounts list is refused with 422 naming cursor', async () => {
    await h.bankAccount(lb.id, 'One')
    await h.bankAccount(lb.id, 'Two')
    const accounts = await h.request('GET', '/v1/bank-accounts?limit=1', { key: lb.key })
    expect(accounts.status).toBe(200)
    expect(accounts.body.next_cursor).toBeString()
    const r = await h.request('GET', `/v1/clients?cursor=${encodeURIComponent(accounts.body.next_cursor)}`, {
      key: lb.key,
    })
    expectRefusedUnder(r, 'cursor')
  })

  test('a search over 200 characters is refused naming search', async () => {
    expectRefusedUnder(await h.request('GET', `/v1/clients?search=${'a'.repeat(201)}`, { key: lb.key }), 'search')
  })
})

describe('tenant isolation', () => {
  let mine: any
  let theirs: { id: number; key: string }
  beforeAll(async () => {
    h.clock.advance(61_000)
    theirs = await h.business()
    mine = await made({ name: 'Isolated Secret Client', email: 'secret@isolated.example', vat_number: 'DE555555555' })
  })

  test("another Business's Client is 404 on GET", async () => {
    const r = await h.request('GET', `/v1/clients/${mine.id}`, { key: theirs.key })
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
  })

  test("another Business's Client is 404 on PATCH and is left unchanged", async () => {
    const r = await patch(mine.id, { name: 'Hijacked' }, theirs.key)
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    expect((await h.request('GET', `/v1/clients/${mine.id}`, { key: biz.key })).body.name).toBe(
      'Isolated Secret Client',
    )
  })

  test("another Business's Clients are never in its list or search results", async () => {
    await made({ name: 'Their Own' }, theirs.key)
    const all = await listAll(theirs.key)
    expect(all.map((c) => c.name)).toEqual(['Their Own'])
    for (const q of ['isolated', 'secret@', 'de555555555', mine.account_code]) {
      const r = await h.request('GET', `/v1/clients?search=${encodeURIComponent(q)}`, { key: theirs.key })
      expect(r.body.data).toEqual([])
    }
  })

  test("another Business's bank account is refused for a Client on update", async () => {
    const account = await h.bankAccount(theirs.id, 'Theirs')
    expectRefusedUnder(await patch(mine.id, { preferred_bank_account_ids: [account] }), 'preferred_bank_account_ids.0')
  })
})

describe('roles', () => {
  let viewer: string
  let member: string
  let existing: any
  beforeAll(async () => {
    viewer = await h.key(biz.id, 'viewer')
    member = await h.key(biz.id, 'member')
    existing = await made()
  })

  test('a Viewer key can list and get Clients', async () => {
    expect((await h.request('GET', '/v1/clients', { key: viewer })).status).toBe(200)
    const r = await h.request('GET', `/v1/clients/${existing.id}`, { key: viewer })
    expect(r.status).toBe(200)
    expect(r.body.id).toBe(existing.id)
  })

  test('a Viewer key is refused 403 permission on create and nothing is created', async () => {
    const before = (await listAll(viewer)).length
    const r = await post({ ...base, name: 'Viewer made' }, viewer)
    expect(r.status).toBe(403)
    expect(r.body.error.type).toBe('permission')
    expect((await listAll(viewer)).length).toBe(before)
  })

  test('a Viewer key is refused 403 permission on update', async () => {
    const r = await patch(existing.id, { name: 'Viewer changed' }, viewer)
    expect(r.status).toBe(403)
    expect(r.body.error.type).toBe('permission')
    expect((await h.request('GET', `/v1/clients/${existing.id}`, { key: viewer })).body.name).toBe(existing.name)
  })

  test('the Role is asked first: a Viewer gets 403 for a nonexistent id and for an invalid body', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['PATCH', '/v1/clients/999999', { name: 'x' }],
      ['PATCH', '/v1/clients/abc', { name: 'x' }],
      ['PATCH', `/v1/clients/${existing.id}`, { foo: 1, payment_terms: 'x' }],
      ['POST', '/v1/clients', {}],
      ['POST', '/v1/clients', { foo: 'bar' }],
    ]
    for (const [method, path, body] of cases) {
      const r = await h.request(method, path, { key: viewer, body })
      expect(r.status).toBe(403)
      expect(r.body.error.type).toBe('permission')
    }
    const malformed = await h.request('POST', '/v1/clients', {
      key: viewer,
      raw: '{not json',
      headers: { 'content-type': 'application/json' },
    })
    expect(malformed.status).toBe(403)
  })

  test('a Member key can create and update Clients', async () => {
    const c = await made({ name: 'Member made' }, member)
    const r = await patch(c.id, { name: 'Member changed' }, member)
    expect(r.status).toBe(200)
    expect(r.body.name).toBe('Member changed')
  })

  test('a request with no or an unknown key is 401', async () => {
    expect((await h.request('GET', '/v1/clients', {})).status).toBe(401)
    expect((await post(base, 'not-a-key')).status).toBe(401)
  })
})

describe('ids in the path', () => {
  test('a get or update with a non-numeric or out-of-range id is 404', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '01', '1e3', '9999999999999999', '999999']) {
      const g = await h.request('GET', `/v1/clients/${id}`, { key: biz.key })
      expect(g.status).toBe(404)
      expect(g.body.error.type).toBe('not_found')
      const p = await patch(id as unknown as number, { name: 'x' })
      expect(p.status).toBe(404)
      expect(p.body.error.type).toBe('not_found')
    }
  })
})

describe('idempotent create', () => {
  test('the same Idempotency-Key and body replays the first answer and creates nothing again', async () => {
    const a = await h.business()
    const headers = { 'idempotency-key': 'client-create-1' }
    const first = await h.request('POST', '/v1/clients', { key: a.key, body: base, headers })
    expect(first.status).toBe(201)
    const again = await h.request('POST', '/v1/clients', { key: a.key, body: base, headers })
    expect(again.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await listAll(a.key)).toHaveLength(1)
  })
})
