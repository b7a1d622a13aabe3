// Products over HTTP against a real temp-file database: every field and rule of the contract's Product sections.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makeHarness, type Harness, type TestResponse, allPages, expectRefusedUnder } from '../../../test/harness'
import { products } from '../../db/schema'
import { eraseDeletedProducts } from '.'

let h: Harness
let biz: { id: number; key: string }

beforeAll(async () => {
  h = await makeHarness()
  biz = await h.business({ currency: 'EUR' })
})
afterAll(() => h.close())
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
beforeEach(() => h.clock.advance(61_000))

const base = { name: 'Widget', type: 'product', price: '10.00', currency: 'EUR' }
const DAY = 24 * 60 * 60 * 1000

function post(body: unknown, key = biz.key, headers?: Record<string, string>): Promise<TestResponse> {
  return h.request('POST', '/v1/products', { key, body, headers })
}

function patch(id: number | string, body: unknown, key = biz.key): Promise<TestResponse> {
  return h.request('PATCH', `/v1/products/${id}`, { key, body })
}

function get(id: number | string, key = biz.key): Promise<TestResponse> {
  return h.request('GET', `/v1/products/${id}`, { key })
}

function del(id: number | string, key = biz.key): Promise<TestResponse> {
  return h.request('DELETE', `/v1/products/${id}`, { key })
}

/** Creates a Product that must be accepted, and answers it. */
async function made(extra: Record<string, unknown> = {}, key = biz.key): Promise<any> {
  const r = await post({ ...base, ...extra }, key)
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

function listAll(key: string, search?: string): Promise<any[]> {
  return allPages(h, '/v1/products', key, search === undefined ? {} : { search })
}

/** The stored row, deleted or not: the API never shows a deleted one. */
async function rawRow(id: number) {
  return h.deps.db.read.select().from(products).where(eq(products.id, id)).get()
}

async function countRows(): Promise<number> {
  return (await h.deps.db.read.select({ id: products.id }).from(products).all()).length
}

describe('creating a Product', () => {
  test('a created Product answers every field, with the contract defaults for those not sent', async () => {
    const r = await post(base)
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      name: 'Widget',
      description: null,
      type: 'product',
      price: '10.00',
      currency: 'EUR',
      vat_rate: '0.00',
      vat_included: false,
      price_without_vat: '10.00',
      price_with_vat: '10.00',
      unit: 'pcs',
      track_inventory: false,
      stock_quantity: null,
      minimum_stock: null,
      category: null,
      sku: null,
      barcode: null,
      is_active: true,
      is_archived: false,
      notes: null,
    })
    expect(r.body.id).toBeInteger()
    expect(r.body.code).toMatch(/^P\d{5}$/)
    expect(r.body.created_at).toBe(h.clock.now().toISOString())
    expect(r.body.updated_at).toBe(r.body.created_at)
  })

  test('every field sent is stored and answered as sent, and GET answers the same Product', async () => {
    const body = {
      name: 'Consulting hour',
      type: 'service',
      price: '119.00',
      currency: 'EUR',
      vat_rate: '19.00',
      vat_included: true,
      code: 'CONS-1',
      unit: 'hour',
      track_inventory: true,
      stock_quantity: 12,
      minimum_stock: 3,
      description: 'Senior consultant, remote',
      category: 'Services',
      sku: 'SKU-CONS-1',
      barcode: '4006381333931',
      notes: 'billed in 15-minute steps',
      is_active: false,
    }
    const p = await made(body)
    const { vat_included, track_inventory, is_active, ...strings } = body
    expect(p).toMatchObject({
      ...strings,
      vat_included,
      track_inventory,
      is_active,
      is_archived: false,
      price_without_vat: '100.00',
      price_with_vat: '119.00',
    })
    const got = await get(p.id)
    expect(got.status).toBe(200)
    expect(got.body).toEqual(p)
  })

  test.each(['name', 'type', 'price', 'currency'])(
    'a create without %s is refused under %s and nothing is created',
    async (field) => {
      const before = await countRows()
      const body: Record<string, unknown> = { ...base }
      delete body[field]
      expectRefusedUnder(await post(body), field)
      expect(await countRows()).toBe(before)
    },
  )

  test('a blank name is refused under name', async () => {
    expectRefusedUnder(await post({ ...base, name: '' }), 'name')
    expectRefusedUnder(await post({ ...base, name: '   ' }), 'name')
  })

  test.each(['bundle', 'Product', 'SERVICE', ''])(
    'type %p is refused: only product or service are sent',
    async (type) => {
      expectRefusedUnder(await post({ ...base, type }), 'type')
    },
  )

  test('both sendable types are accepted', async () => {
    expect((await made({ type: 'product' })).type).toBe('product')
    expect((await made({ type: 'service' })).type).toBe('service')
  })

  test.each(['ABC', 'XAU', 'XXX', 'EU', 'EURO', ''])(
    'currency %p is refused under currency: not one the service computes in',
    async (currency) => {
      expectRefusedUnder(await post({ ...base, currency }), 'currency')
    },
  )

  test('a currency sent as a JSON number is refused under currency', async () => {
    expectRefusedUnder(await post({ ...base, currency: 978 }), 'currency')
  })

  test('a field the endpoint does not take is refused under its name and nothing is created', async () => {
    const before = await countRows()
    const e = expectRefusedUnder(await post({ ...base, colour: 'red' }), 'colour')
    expect(e.errors.colour[0]).toBe('is not a field this endpoint takes')
    // is_archived belongs to update only.
    expectRefusedUnder(await post({ ...base, is_archived: true }), 'is_archived')
    expect(await countRows()).toBe(before)
  })

  test('unit is pcs when not sent or null, and kept as sent otherwise', async () => {
    expect((await made()).unit).toBe('pcs')
    expect((await made({ unit: null })).unit).toBe('pcs')
    expect((await made({ unit: 'kg' })).unit).toBe('kg')
  })
})

describe('price', () => {
  test.each([
    ['10.5', '10.5'],
    ['10.50', '10.50'],
    ['10', '10'],
    ['1e3', '1000'],
    ['1.5E+2', '150'],
    ['1e-2', '0.01'],
    ['007.50', '7.50'],
    ['-0', '0'],
    ['-0.00', '0.00'],
    ['0', '0'],
  ])('price %p is read to its last decimal as stored: %p, on create and on GET', async (price, stored) => {
    const p = await made({ price })
    expect(p.price).toBe(stored)
    expect((await get(p.id)).body.price).toBe(stored)
  })

  test('999999999999999.99 (15 digits before the point) is accepted and answered exactly', async () => {
    const p = await made({ price: '999999999999999.99', vat_rate: '19.00' })
    expect(p.price).toBe('999999999999999.99')
    expect(p.price_without_vat).toBe('999999999999999.99')
    // 999999999999999.99 × 1.19 = 1189999999999999.9881
    expect(p.price_with_vat).toBe('1189999999999999.99')
  })

  test.each(['1000000000000000', '1000000000000000.00', '1e15', '9999999999999999.9'])(
    'price %p has more than 15 digits before the point and is refused under price',
    async (price) => {
      const e = expectRefusedUnder(await post({ ...base, price }), 'price')
      expect(e.errors.price[0]).toContain('15 digits')
    },
  )

  test.each([
    ['1.001', 'EUR'],
    ['0.005', 'EUR'],
    ['1e-3', 'EUR'],
    ['1.5', 'JPY'],
    ['0.1', 'JPY'],
    ['1.2345', 'KWD'],
    ['1.23456', 'CLF'],
    // Decimals count as written: trailing zeros beyond the scale are refused, not dropped.
    ['10.500', 'EUR'],
    ['10.0', 'JPY'],
    ['1.2340', 'KWD'],
  ])('price %p has more decimals than %s takes and is refused under price, never rounded', async (price, currency) => {
    const before = await countRows()
    const e = expectRefusedUnder(await post({ ...base, price, currency }), 'price')
    expect(e.errors.price[0]).toContain(currency)
    expect(await countRows()).toBe(before)
  })

  test('a price at its currency scale is accepted for JPY (0), KWD (3) and CLF (4)', async () => {
    expect((await made({ price: '1500', currency: 'JPY' })).price).toBe('1500')
    expect((await made({ price: '1.234', currency: 'KWD' })).price).toBe('1.234')
    expect((await made({ price: '0.0001', currency: 'CLF' })).price).toBe('0.0001')
  })

  test.each([10, 10.5, 0])('a price sent as the JSON number %p is refused under price', async (price) => {
    const e = expectRefusedUnder(await post({ ...base, price }), 'price')
    expect(e.errors.price[0]).toContain('not a JSON number')
  })

  test.each(['-1', '-0.01'])('a negative price %p is refused under price', async (price) => {
    expectRefusedUnder(await post({ ...base, price }), 'price')
  })

  test.each(['1,5', '', ' ', '1.', '.5', '0x10', 'NaN', 'Infinity', '€10'])(
    'a price that is not a decimal (%p) is refused under price',
    async (price) => {
      expectRefusedUnder(await post({ ...base, price }), 'price')
    },
  )

  test('a price with an exponent of more than three digits is refused as invalid_request under price', async () => {
    const e = expectRefusedUnder(await post({ ...base, price: '1e1000' }), 'price')
    expect(e.errors.price[0]).toContain('exponent')
    expectRefusedUnder(await post({ ...base, price: '1e-1000' }), 'price')
  })

  test.each([
    // [price, currency, vat_rate, vat_included, price_without_vat, price_with_vat]
    ['119.00', 'EUR', '19', true, '100.00', '119.00'],
    ['100', 'EUR', '19', false, '100.00', '119.00'],
    ['10.00', 'EUR', '19', true, '8.40', '10.00'],
    ['10.5', 'EUR', '0', false, '10.50', '10.50'],
    // 10.5 × 1.19 = 12.495: a tie, rounded half away from zero.
    ['10.5', 'EUR', '19', false, '10.50', '12.50'],
    // 0.05 / 2 = 0.025: a tie when VAT is divided out.
    ['0.05', 'EUR', '100', true, '0.03', '0.05'],
    ['1100', 'JPY', '10', true, '1000', '1100'],
    ['999', 'JPY', '19', false, '999', '1189'],
    ['5', 'JPY', '100', true, '3', '5'],
    ['10.000', 'KWD', '19', true, '8.403', '10.000'],
    ['1.2', 'KWD', '5', false, '1.200', '1.260'],
    ['1e3', 'EUR', '7', false, '1000.00', '1070.00'],
  ])(
    '%p %s at %p%% (included %p) answers price_without_vat %p and price_with_vat %p at the currency scale',
    async (price, currency, vat_rate, vat_included, without, withVat) => {
      const p = await made({ price, currency, vat_rate, vat_included })
      expect(p.price_without_vat).toBe(without)
      expect(p.price_with_vat).toBe(withVat)
    },
  )
})

describe('vat_rate', () => {
  test.each([
    ['19', '19.00'],
    ['7.5', '7.50'],
    ['0', '0.00'],
    ['100', '100.00'],
    ['100.00', '100.00'],
    ['1e1', '10.00'],
    ['-0', '0.00'],
    ['5.25', '5.25'],
  ])('vat_rate %p is answered as the two-decimal string %p', async (vat_rate, answered) => {
    expect((await made({ vat_rate })).vat_rate).toBe(answered)
  })

  test('vat_rate not sent or null is 0.00', async () => {
    expect((await made()).vat_rate).toBe('0.00')
    expect((await made({ vat_rate: null })).vat_rate).toBe('0.00')
  })

  test.each(['100.01', '-1', '101', '1000', '19.001', 'abc', '', '1e1000'])(
    'vat_rate %p is refused under vat_rate',
    async (vat_rate) => {
      expectRefusedUnder(await post({ ...base, vat_rate }), 'vat_rate')
    },
  )

  test('vat_rate sent as a JSON number is refused under vat_rate', async () => {
    const e = expectRefusedUnder(await post({ ...base, vat_rate: 19 }), 'vat_rate')
    expect(e.errors.vat_rate[0]).toContain('not a JSON number')
  })
})

describe('stock fields', () => {
  for (const field of ['stock_quantity', 'minimum_stock']) {
    test(`${field} takes 0 to 2147483647 and null`, async () => {
      expect((await made({ [field]: 0 }))[field]).toBe(0)
      expect((await made({ [field]: 2147483647 }))[field]).toBe(2147483647)
      expect((await made({ [field]: null }))[field]).toBeNull()
    })

    test.each([2147483648, -1, 1.5, '5', 1e20])(`${field} %p is refused under ${field}`, async (value) => {
      expectRefusedUnder(await post({ ...base, [field]: value }), field)
    })

    test(`${field} over the limit is refused on update too and the Product keeps its value`, async () => {
      const p = await made({ [field]: 5 })
      expectRefusedUnder(await patch(p.id, { [field]: 2147483648 }), field)
      expectRefusedUnder(await patch(p.id, { [field]: -1 }), field)
      expect((await get(p.id)).body[field]).toBe(5)
    })
  }
})

describe('field lengths', () => {
  // Limits count characters (an emoji is one, though two UTF-16 units) of the value as stored, trimmed.
  const emoji = '😀'
  const cases: Array<[string, number]> = [
    ['name', 255],
    ['code', 100],
    ['unit', 50],
    ['description', 5000],
    ['category', 255],
    ['sku', 255],
    ['barcode', 255],
    ['notes', 5000],
  ]
  for (const [field, max] of cases) {
    test(`a ${field} of ${max} emoji is ${max} characters and is taken, spaces around it are not counted; ${max + 1} are refused under ${field}`, async () => {
      const b = await h.business({ currency: 'EUR' })
      const p = await made({ [field]: emoji.repeat(max) }, b.key)
      expect(p[field]).toBe(emoji.repeat(max))
      const err = expectRefusedUnder(await post({ ...base, [field]: emoji.repeat(max + 1) }, b.key), field)
      expect(err.errors[field]).toEqual([`must be at most ${max} characters`])
      const other = await made({}, b.key)
      const padded = ` ${'x'.repeat(max)}  `
      expect((await patch(other.id, { [field]: padded }, b.key)).body[field]).toBe('x'.repeat(max))
      expect(
        expectRefusedUnder(await patch(other.id, { [field]: emoji.repeat(max + 1) }, b.key), field).errors[field],
      ).toEqual([`must be at most ${max} characters`])
    })
  }

  test('a name of only spaces is empty as stored and refused under name, on create and update', async () => {
    expectRefusedUnder(await post({ ...base, name: '   ' }), 'name')
    const p = await made()
    expectRefusedUnder(await patch(p.id, { name: ' ' }), 'name')
    expect((await get(p.id)).body.name).toBe(base.name)
  })
})

describe('codes', () => {
  test('a code is assigned in the P00001 shape when not sent, null or blank', async () => {
    for (const extra of [{}, { code: null }, { code: '' }, { code: '   ' }]) {
      const p = await made(extra)
      expect(p.code).toBe(`P${String(p.id).padStart(5, '0')}`)
    }
  })

  test('a code sent is kept (trimmed)', async () => {
    expect((await made({ code: '  ART-77 ' })).code).toBe('ART-77')
  })

  test('a code held by another Product of the Business is refused under code', async () => {
    await made({ code: 'DUP-1' })
    const before = await countRows()
    expectRefusedUnder(await post({ ...base, code: 'DUP-1' }), 'code')
    expectRefusedUnder(await post({ ...base, code: ' DUP-1 ' }), 'code')
    expect(await countRows()).toBe(before)
  })

  test('the same code in another Business is fine', async () => {
    const other = await h.business()
    await made({ code: 'SHARED-1' })
    expect((await made({ code: 'SHARED-1' }, other.key)).code).toBe('SHARED-1')
  })

  test("a deleted Product's code can be used again at once", async () => {
    const p = await made({ code: 'REUSE-1' })
    expect((await del(p.id)).status).toBe(204)
    const again = await made({ code: 'REUSE-1' })
    expect(again.code).toBe('REUSE-1')
    expect(again.id).not.toBe(p.id)
  })

  test('a hand-typed code in the assigned shape never collides with an assigned one', async () => {
    const probe = await made()
    const typed = await made({ code: `P${String(probe.id + 2).padStart(5, '0')}` })
    expect(typed.id).toBe(probe.id + 1)
    // The next Product would be assigned the code typed by hand; it steps aside instead.
    const assigned = await made()
    expect(assigned.id).toBe(probe.id + 2)
    expect(assigned.code).not.toBe(typed.code)
    expect(assigned.code).toBe(`${typed.code}-2`)
  })

  test('simultaneous creates with one code: one is created, the others are refused under code (never a 500)', async () => {
    const other = await h.business()
    const body = { ...base, code: 'RACE-1' }
    const rs = await Promise.all([1, 2, 3].map(() => post(body, other.key)))
    expect(rs.map((r) => r.status).sort()).toEqual([201, 422, 422])
    for (const r of rs.filter((r) => r.status === 422)) expectRefusedUnder(r, 'code')
    expect((await listAll(other.key)).map((p) => p.code)).toEqual(['RACE-1'])
  })

  test("on update the Product's own code may be sent again; another Product's is refused under code", async () => {
    const a = await made({ code: 'OWN-A' })
    await made({ code: 'OWN-B' })
    const same = await patch(a.id, { code: 'OWN-A', name: 'Renamed' })
    expect(same.status).toBe(200)
    expect(same.body.code).toBe('OWN-A')
    expect(same.body.name).toBe('Renamed')
    expectRefusedUnder(await patch(a.id, { code: 'OWN-B' }), 'code')
    expect((await get(a.id)).body.code).toBe('OWN-A')
    const changed = await patch(a.id, { code: 'OWN-C' })
    expect(changed.body.code).toBe('OWN-C')
    // The old code is free again.
    expect((await made({ code: 'OWN-A' })).code).toBe('OWN-A')
  })

  test("a blank or null code on update keeps the Product's code", async () => {
    const p = await made({ code: 'KEEP-1' })
    expect((await patch(p.id, { code: '' })).body.code).toBe('KEEP-1')
    expect((await patch(p.id, { code: null })).body.code).toBe('KEEP-1')
  })
})

describe('updating a Product', () => {
  test('only the fields sent change; updated_at moves, created_at stays', async () => {
    const p = await made({ description: 'first', sku: 'S-1', vat_rate: '19', unit: 'box', stock_quantity: 4 })
    h.clock.advance(5_000)
    const r = await patch(p.id, { name: 'Widget Pro' })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ...p, name: 'Widget Pro', updated_at: h.clock.now().toISOString() })
    expect(r.body.created_at).toBe(p.created_at)
    expect((await get(p.id)).body).toEqual(r.body)
  })

  test('every updatable field can be changed and is answered as it now stands', async () => {
    const p = await made()
    const body = {
      name: 'Changed',
      type: 'service',
      price: '2000',
      currency: 'JPY',
      vat_rate: '10',
      vat_included: true,
      unit: 'day',
      track_inventory: true,
      stock_quantity: 9,
      minimum_stock: 1,
      description: 'd',
      category: 'c',
      sku: 's',
      barcode: 'b',
      notes: 'n',
      is_active: false,
      is_archived: true,
    }
    const r = await patch(p.id, body)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ ...body, vat_rate: '10.00', price_without_vat: '1818', price_with_vat: '2000' })
  })

  test('optional text fields sent null are cleared', async () => {
    const p = await made({ description: 'd', category: 'c', sku: 's', barcode: 'b', notes: 'n' })
    const r = await patch(p.id, { description: null, category: null, sku: null, barcode: null, notes: null })
    expect(r.body).toMatchObject({ description: null, category: null, sku: null, barcode: null, notes: null })
  })

  test("vat_rate or unit sent null keep the Product's values", async () => {
    const p = await made({ vat_rate: '19', unit: 'hour' })
    const r = await patch(p.id, { vat_rate: null, unit: null })
    expect(r.status).toBe(200)
    expect(r.body.vat_rate).toBe('19.00')
    expect(r.body.unit).toBe('hour')
  })

  test('vat_rate on update follows the create rules', async () => {
    const p = await made({ vat_rate: '19' })
    expect((await patch(p.id, { vat_rate: '7' })).body.vat_rate).toBe('7.00')
    expectRefusedUnder(await patch(p.id, { vat_rate: '100.01' }), 'vat_rate')
    expectRefusedUnder(await patch(p.id, { vat_rate: '-1' }), 'vat_rate')
    expectRefusedUnder(await patch(p.id, { vat_rate: 7 }), 'vat_rate')
    expect((await get(p.id)).body.vat_rate).toBe('7.00')
  })

  test('a price on update is read to its last decimal and follows the create rules', async () => {
    const p = await made({ price: '10.00' })
    expect((await patch(p.id, { price: '12.5' })).body.price).toBe('12.5')
    expect((await patch(p.id, { price: '1e3' })).body.price).toBe('1000')
    expectRefusedUnder(await patch(p.id, { price: '1.001' }), 'price')
    expectRefusedUnder(await patch(p.id, { price: 12 }), 'price')
    expectRefusedUnder(await patch(p.id, { price: '-1' }), 'price')
    expectRefusedUnder(await patch(p.id, { price: '1000000000000000' }), 'price')
    expectRefusedUnder(await patch(p.id, { price: '1e1000' }), 'price')
    expect((await get(p.id)).body.price).toBe('1000')
  })

  test("a price sent alone is held to the Product's own currency", async () => {
    const p = await made({ price: '1500', currency: 'JPY' })
    const e = expectRefusedUnder(await patch(p.id, { price: '1.5' }), 'price')
    expect(e.errors.price[0]).toContain('JPY')
    expect((await get(p.id)).body.price).toBe('1500')
  })

  test('a price sent with a currency is held to the currency sent with it', async () => {
    const p = await made({ price: '10.55', currency: 'EUR' })
    expectRefusedUnder(await patch(p.id, { price: '1.5', currency: 'JPY' }), 'price')
    const r = await patch(p.id, { price: '1500', currency: 'JPY' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ price: '1500', currency: 'JPY', price_without_vat: '1500', price_with_vat: '1500' })
    const k = await patch(p.id, { price: '1.234', currency: 'KWD' })
    expect(k.body).toMatchObject({ price: '1.234', currency: 'KWD' })
  })

  test('a currency sent alone that the stored price has too many decimals for is refused under currency', async () => {
    const p = await made({ price: '10.55', currency: 'EUR' })
    const before = (await get(p.id)).body
    const e = expectRefusedUnder(await patch(p.id, { currency: 'JPY' }), 'currency')
    expect(Object.keys(e.errors)).not.toContain('price')
    expect((await get(p.id)).body).toEqual(before)
  })

  test('a currency sent alone is judged on the price as stored: "10.00" EUR has two decimals, so JPY is refused and nothing is rewritten', async () => {
    const p = await made({ price: '10.00', currency: 'EUR', vat_rate: '10' })
    const before = (await get(p.id)).body
    const e = expectRefusedUnder(await patch(p.id, { currency: 'JPY' }), 'currency')
    expect(Object.keys(e.errors)).toEqual(['currency'])
    expect((await get(p.id)).body).toEqual(before)
  })

  test('a currency sent alone that the stored price fits is accepted and the price is kept as stored: "10" EUR is "10" JPY', async () => {
    const p = await made({ price: '10', currency: 'EUR', vat_rate: '10' })
    const r = await patch(p.id, { currency: 'JPY' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ price: '10', currency: 'JPY', price_without_vat: '10', price_with_vat: '11' })
    expect((await get(p.id)).body.price).toBe('10')
  })

  test('a price on update with trailing zeros beyond the scale is refused under price and the stored price is kept', async () => {
    const p = await made({ price: '10.50', currency: 'EUR' })
    const e = expectRefusedUnder(await patch(p.id, { price: '10.500' }), 'price')
    expect(e.errors.price[0]).toBe('must have at most 2 decimals for EUR')
    expectRefusedUnder(await patch(p.id, { price: '10.0', currency: 'JPY' }), 'price')
    expect((await get(p.id)).body).toMatchObject({ price: '10.50', currency: 'EUR' })
  })

  test('a currency sent alone to a larger scale keeps the price as written', async () => {
    const p = await made({ price: '10.5', currency: 'EUR' })
    const r = await patch(p.id, { currency: 'KWD' })
    expect(r.body).toMatchObject({ price: '10.5', currency: 'KWD', price_without_vat: '10.500' })
  })

  test('an unknown currency on update is refused under currency', async () => {
    const p = await made()
    expectRefusedUnder(await patch(p.id, { currency: 'ABC' }), 'currency')
    expectRefusedUnder(await patch(p.id, { currency: 'ABC', price: '1.00' }), 'currency')
    expect((await get(p.id)).body.currency).toBe('EUR')
  })

  test('is_archived: true archives the Product and false brings it back', async () => {
    const p = await made()
    const a = await patch(p.id, { is_archived: true })
    expect(a.status).toBe(200)
    expect(a.body.is_archived).toBe(true)
    expect((await get(p.id)).body.is_archived).toBe(true)
    expect((await patch(p.id, { is_archived: false })).body.is_archived).toBe(false)
  })

  test('is_active is set by update', async () => {
    const p = await made()
    expect((await patch(p.id, { is_active: false })).body.is_active).toBe(false)
    expect((await patch(p.id, { is_active: true })).body.is_active).toBe(true)
  })

  test('a blank name or an unsendable type is refused on update and nothing changes', async () => {
    const p = await made()
    expectRefusedUnder(await patch(p.id, { name: '  ' }), 'name')
    expectRefusedUnder(await patch(p.id, { type: 'bundle' }), 'type')
    expect((await get(p.id)).body).toMatchObject({ name: 'Widget', type: 'product' })
  })

  test('a field the endpoint does not take is refused on update and nothing changes', async () => {
    const p = await made()
    expectRefusedUnder(await patch(p.id, { name: 'X', colour: 'red' }), 'colour')
    expectRefusedUnder(await patch(p.id, { id: 99 }), 'id')
    expect((await get(p.id)).body.name).toBe('Widget')
  })

  test('a refused update changes no field, even those that were valid', async () => {
    const p = await made()
    expectRefusedUnder(await patch(p.id, { name: 'Valid name', price: '1.001' }), 'price')
    expect((await get(p.id)).body).toEqual(p)
  })

  test('the search follows an update: the old name no longer matches, the new one does', async () => {
    const other = await h.business()
    const p = await made({ name: 'Oldname Lamp' }, other.key)
    await patch(p.id, { name: 'Newname Lamp', sku: 'ZX-9' }, other.key)
    expect(await listAll(other.key, 'oldname')).toEqual([])
    expect((await listAll(other.key, 'newname')).map((x) => x.id)).toEqual([p.id])
    expect((await listAll(other.key, 'zx-9')).map((x) => x.id)).toEqual([p.id])
  })
})

describe('a type the service does not know (stored before it was added)', () => {
  let p: any
  let other: { id: number; key: string }
  beforeAll(async () => {
    other = await h.business()
    p = await made({ name: 'Gift box' }, other.key)
    await h.deps.db.write((tx) => tx.update(products).set({ type: 'bundle' }).where(eq(products.id, p.id)))
  })

  test('GET answers the unknown type as it is stored', async () => {
    const r = await get(p.id, other.key)
    expect(r.status).toBe(200)
    expect(r.body.type).toBe('bundle')
  })

  test('the list and the search answer the unknown type as it is stored', async () => {
    expect((await listAll(other.key)).find((x) => x.id === p.id)?.type).toBe('bundle')
    expect((await listAll(other.key, 'gift')).map((x) => x.type)).toEqual(['bundle'])
  })

  test('an update of another field keeps the unknown type', async () => {
    const r = await patch(p.id, { name: 'Gift box XL' }, other.key)
    expect(r.status).toBe(200)
    expect(r.body.type).toBe('bundle')
  })
})

describe('a currency withdrawn since the Product was stored', () => {
  let p: any
  let other: { id: number; key: string }
  beforeAll(async () => {
    other = await h.business()
    p = await made({ name: 'Kuna thing', price: '10.5', vat_rate: '25' }, other.key)
    await h.deps.db.write((tx) => tx.update(products).set({ currency: 'HRK' }).where(eq(products.id, p.id)))
  })

  test('GET answers it with its prices at two decimals', async () => {
    const r = await get(p.id, other.key)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      currency: 'HRK',
      price: '10.5',
      price_without_vat: '10.50',
      price_with_vat: '13.13',
    })
  })

  test('a price sent alone is held to two decimals rather than failing the request', async () => {
    const r = await patch(p.id, { price: '12.25' }, other.key)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ currency: 'HRK', price: '12.25' })
    expectRefusedUnder(await patch(p.id, { price: '1.001' }, other.key), 'price')
  })

  test('other fields can be changed and a computable currency can be set', async () => {
    expect((await patch(p.id, { name: 'Renamed' }, other.key)).status).toBe(200)
    const r = await patch(p.id, { currency: 'EUR' }, other.key)
    expect(r.status).toBe(200)
    expect(r.body.currency).toBe('EUR')
    expectRefusedUnder(await patch(p.id, { currency: 'HRK' }, other.key), 'currency')
  })
})

describe('listing and searching', () => {
  let key: string
  let all: any[]
  beforeAll(async () => {
    h.clock.advance(61_000)
    key = (await h.business()).key
    all = []
    all.push(await made({ name: 'Red Apple', code: 'FRUIT-1', sku: 'SKU-APL' }, key))
    all.push(await made({ name: 'Banana', code: 'FRUIT-2', description: 'Yellow and CURVED', is_active: false }, key))
    all.push(await made({ name: 'Äpfelsaft', code: 'JUICE-1', category: 'Drinks', notes: 'organic' }, key))
    all.push(await made({ name: 'Plain 100% cotton', code: 'TEX_1', sku: 'tex-sku' }, key))
    all.push(await made({ name: 'Archived thing', code: 'OLD-1' }, key))
    await patch(all[4].id, { is_archived: true }, key)
    all[4] = (await get(all[4].id, key)).body
  })

  test('the list holds every Product, inactive and archived included, oldest first', async () => {
    const listed = await listAll(key)
    expect(listed.map((p) => p.id)).toEqual(all.map((p) => p.id))
    expect(listed.find((p) => p.name === 'Banana').is_active).toBe(false)
    expect(listed.find((p) => p.name === 'Archived thing').is_archived).toBe(true)
    expect(listed).toEqual(all)
  })

  test.each([
    ['apple', ['Red Apple']],
    ['RED APPLE', ['Red Apple']],
    ['fruit-', ['Red Apple', 'Banana']],
    ['juice-1', ['Äpfelsaft']],
    ['sku-apl', ['Red Apple']],
    ['TEX-SKU', ['Plain 100% cotton']],
    ['curved', ['Banana']],
    ['yellow and curved', ['Banana']],
    ['ÄPFEL', ['Äpfelsaft']],
    ['äpfel', ['Äpfelsaft']],
    ['archived', ['Archived thing']],
  ])('search %p matches name, code, SKU or description in any case', async (q, names) => {
    expect((await listAll(key, q)).map((p) => p.name)).toEqual(names)
  })

  test('search does not look at category or notes', async () => {
    expect(await listAll(key, 'drinks')).toEqual([])
    expect(await listAll(key, 'organic')).toEqual([])
  })

  test('search characters are literal, never wildcards', async () => {
    expect((await listAll(key, '100%')).map((p) => p.name)).toEqual(['Plain 100% cotton'])
    expect((await listAll(key, '%')).map((p) => p.name)).toEqual(['Plain 100% cotton'])
    expect((await listAll(key, 'tex_')).map((p) => p.name)).toEqual(['Plain 100% cotton'])
    expect(await listAll(key, '_')).toHaveLength(1)
  })

  test('a blank search lists everything', async () => {
    expect((await listAll(key, '   ')).length).toBe(all.length)
  })

  test('paging: limit sets the page size and the cursor walks every Product exactly once', async () => {
    const seen: number[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const q = new URLSearchParams({ limit: '2' })
      if (cursor) q.set('cursor', cursor)
      const r = await h.request('GET', `/v1/products?${q}`, { key })
      expect(r.status).toBe(200)
      expect(r.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...r.body.data.map((p: any) => p.id))
      cursor = r.body.next_cursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(all.map((p) => p.id))
  })

  test('the default page size is 25 with a cursor to the rest', async () => {
    const many = await h.business()
    for (let i = 0; i < 26; i++) await made({ name: `Bulk ${i}` }, many.key)
    h.clock.advance(61_000)
    const first = await h.request('GET', '/v1/products', { key: many.key })
    expect(first.body.data).toHaveLength(25)
    expect(first.body.next_cursor).toBeString()
    const second = await h.request('GET', `/v1/products?cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      key: many.key,
    })
    expect(second.body.data.map((p: any) => p.name)).toEqual(['Bulk 25'])
    expect(second.body.next_cursor).toBeNull()
  })

  test('search is applied on every page of a walk', async () => {
    const r1 = await h.request('GET', '/v1/products?limit=1&search=fruit', { key })
    expect(r1.body.data.map((p: any) => p.name)).toEqual(['Red Apple'])
    const r2 = await h.request(
      'GET',
      `/v1/products?limit=1&search=fruit&cursor=${encodeURIComponent(r1.body.next_cursor)}`,
      { key },
    )
    expect(r2.body.data.map((p: any) => p.name)).toEqual(['Banana'])
    expect(r2.body.next_cursor).toBeNull()
  })

  test.each(['0', '101', 'abc', '-1', '1.5'])('limit %p is refused under limit', async (limit) => {
    expectRefusedUnder(await h.request('GET', `/v1/products?limit=${limit}`, { key }), 'limit')
  })

  test('a cursor the list did not give is refused under cursor, never read as the first page', async () => {
    expectRefusedUnder(await h.request('GET', '/v1/products?cursor=garbage', { key }), 'cursor')
    // A genuine cursor of another Business's Product list.
    const other = await h.business()
    await made({}, other.key)
    await made({}, other.key)
    const theirs = await h.request('GET', '/v1/products?limit=1', { key: other.key })
    expectRefusedUnder(
      await h.request('GET', `/v1/products?cursor=${encodeURIComponent(theirs.body.next_cursor)}`, { key }),
      'cursor',
    )
  })
})

describe('deleting a Product', () => {
  test('DELETE answers 204 with no body; then GET, PATCH and DELETE answer 404 and lists skip it', async () => {
    const other = await h.business()
    const keep = await made({ name: 'Keeper' }, other.key)
    const p = await made({ name: 'Doomed', code: 'DOOM-1' }, other.key)
    const r = await del(p.id, other.key)
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
    for (const res of [
      await get(p.id, other.key),
      await patch(p.id, { name: 'x' }, other.key),
      await del(p.id, other.key),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error.type).toBe('not_found')
    }
    expect((await listAll(other.key)).map((x) => x.id)).toEqual([keep.id])
    expect(await listAll(other.key, 'doom')).toEqual([])
    expect((await get(keep.id, other.key)).status).toBe(200)
  })

  test('DELETE of an id that never existed is 404', async () => {
    const r = await del(99999999)
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
  })

  test('a deleted Product is kept hidden 29 days and erased for good after 30 days', async () => {
    const p = await made({ name: 'Erase me' })
    const survivor = await made({ name: 'Not deleted' })
    const deletedAt = h.clock.now().getTime()
    expect((await del(p.id)).status).toBe(204)
    expect((await rawRow(p.id))?.deletedAt).toBe(new Date(deletedAt).toISOString())

    h.clock.set(new Date(deletedAt + 29 * DAY))
    await eraseDeletedProducts({ db: h.deps.db, clock: h.clock })
    expect(await rawRow(p.id)).toBeDefined()
    expect((await get(p.id)).status).toBe(404)

    h.clock.set(new Date(deletedAt + 30 * DAY + 1000))
    const erased = await eraseDeletedProducts({ db: h.deps.db, clock: h.clock })
    expect(erased).toBeGreaterThanOrEqual(1)
    expect(await rawRow(p.id)).toBeUndefined()
    // Products not deleted are never erased, however old.
    expect((await rawRow(survivor.id))?.deletedAt).toBeNull()
    expect((await get(survivor.id)).status).toBe(200)
  })

  test('the erasure job takes only Products deleted more than 30 days before now', async () => {
    const older = await made({ name: 'Deleted first' })
    await del(older.id)
    const t0 = h.clock.now().getTime()
    h.clock.advance(10 * DAY)
    const newer = await made({ name: 'Deleted later' })
    await del(newer.id)
    h.clock.set(new Date(t0 + 30 * DAY + 1000))
    await eraseDeletedProducts({ db: h.deps.db, clock: h.clock })
    expect(await rawRow(older.id)).toBeUndefined()
    expect(await rawRow(newer.id)).toBeDefined()
  })
})

describe('tenant isolation', () => {
  let mine: any
  let theirs: { id: number; key: string }
  beforeAll(async () => {
    h.clock.advance(61_000)
    theirs = await h.business()
    mine = await made({
      name: 'Isolated Secret Product',
      code: 'SECRET-1',
      sku: 'SECRET-SKU',
      description: 'hidden recipe',
    })
  })

  test("another Business's Product is 404 on GET", async () => {
    const r = await get(mine.id, theirs.key)
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
  })

  test("another Business's Product is 404 on PATCH and is left unchanged", async () => {
    const r = await patch(mine.id, { name: 'Hijacked', price: '0.00' }, theirs.key)
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    expect((await get(mine.id)).body).toEqual(mine)
  })

  test("another Business's Product is 404 on DELETE and is not deleted", async () => {
    const r = await del(mine.id, theirs.key)
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    expect((await get(mine.id)).status).toBe(200)
    expect((await rawRow(mine.id))?.deletedAt).toBeNull()
  })

  test("another Business's Products are never in its list or search results", async () => {
    await made({ name: 'Their Own' }, theirs.key)
    expect((await listAll(theirs.key)).map((p) => p.name)).toEqual(['Their Own'])
    for (const q of ['isolated', 'secret-1', 'secret-sku', 'hidden recipe', mine.code]) {
      expect(await listAll(theirs.key, q)).toEqual([])
    }
  })

  test("another Business's code does not make a code taken", async () => {
    expect((await made({ code: 'SECRET-1' }, theirs.key)).code).toBe('SECRET-1')
  })
})

describe('roles', () => {
  let viewer: string
  let member: string
  let existing: any
  let foreign: any
  beforeAll(async () => {
    h.clock.advance(61_000)
    viewer = await h.key(biz.id, 'viewer')
    member = await h.key(biz.id, 'member')
    existing = await made({ name: 'Role target' })
    foreign = await made({}, (await h.business()).key)
  })

  test('a Viewer key can list and get Products', async () => {
    expect((await h.request('GET', '/v1/products', { key: viewer })).status).toBe(200)
    const r = await get(existing.id, viewer)
    expect(r.status).toBe(200)
    expect(r.body).toEqual(existing)
  })

  test("a Viewer's create is 403 permission and nothing is created", async () => {
    const before = await countRows()
    const r = await post(base, viewer)
    expect(r.status).toBe(403)
    expect(r.body.error.type).toBe('permission')
    expect(await countRows()).toBe(before)
  })

  test("a Viewer's update and delete are 403 permission and the Product is unchanged", async () => {
    for (const r of [await patch(existing.id, { name: 'Viewer changed' }, viewer), await del(existing.id, viewer)]) {
      expect(r.status).toBe(403)
      expect(r.body.error.type).toBe('permission')
    }
    expect((await get(existing.id)).body).toEqual(existing)
  })

  test('the Role is asked before the record is looked up: nonexistent, foreign or malformed ids and invalid bodies are 403 too', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['PATCH', '/v1/products/99999999', { name: 'x' }],
      ['DELETE', '/v1/products/99999999', undefined],
      ['PATCH', `/v1/products/${foreign.id}`, { name: 'x' }],
      ['DELETE', `/v1/products/${foreign.id}`, undefined],
      ['PATCH', '/v1/products/abc', { name: 'x' }],
      ['DELETE', '/v1/products/abc', undefined],
      ['PATCH', `/v1/products/${existing.id}`, { price: 12, colour: 'red' }],
      ['POST', '/v1/products', {}],
      ['POST', '/v1/products', { ...base, price: '1.001' }],
    ]
    for (const [method, path, body] of cases) {
      const r = await h.request(method, path, { key: viewer, body })
      expect({ method, path, status: r.status, type: r.body?.error?.type }).toEqual({
        method,
        path,
        status: 403,
        type: 'permission',
      })
    }
  })

  test('a Member key can create, update and delete Products', async () => {
    const p = await made({ name: 'Member made' }, member)
    const r = await patch(p.id, { name: 'Member changed' }, member)
    expect(r.status).toBe(200)
    expect(r.body.name).toBe('Member changed')
    expect((await del(p.id, member)).status).toBe(204)
  })

  test('a request with no or an unknown key is 401', async () => {
    expect((await h.request('GET', '/v1/products', {})).status).toBe(401)
    expect((await post(base, 'not-a-key')).status).toBe(401)
  })
})

describe('ids in the path', () => {
  test('a get, update or delete with a non-numeric or out-of-range id is 404', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '01', '1e3', '9999999999999999']) {
      for (const r of [await get(id), await patch(id, { name: 'x' }), await del(id)]) {
        expect(r.status).toBe(404)
        expect(r.body.error.type).toBe('not_found')
      }
    }
  })
})

describe('idempotent create', () => {
  test('the same Idempotency-Key and body replays the first answer byte for byte and creates nothing again', async () => {
    const a = await h.business()
    const headers = { 'idempotency-key': 'product-create-1' }
    const body = { ...base, price: '10.5', vat_rate: '19' }
    const first = await post(body, a.key, headers)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    h.clock.advance(60_000)
    const again = await post(body, a.key, headers)
    expect(again.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await listAll(a.key)).toHaveLength(1)
  })

  test('the same key with another body is 422 idempotency and nothing is created', async () => {
    const a = await h.business()
    const headers = { 'idempotency-key': 'product-create-2' }
    expect((await post(base, a.key, headers)).status).toBe(201)
    const r = await post({ ...base, name: 'Other' }, a.key, headers)
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('idempotency')
    expect(await listAll(a.key)).toHaveLength(1)
  })

  test('a refused create keeps no key: corrected, it is performed under the same key', async () => {
    const a = await h.business()
    const headers = { 'idempotency-key': 'product-create-3' }
    expectRefusedUnder(await post({ ...base, price: '1.001' }, a.key, headers), 'price')
    const r = await post(base, a.key, headers)
    expect(r.status).toBe(201)
    expect(r.headers.get('idempotent-replayed')).toBeNull()
    expect(await listAll(a.key)).toHaveLength(1)
  })
})
