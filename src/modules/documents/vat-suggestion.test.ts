// The suggested VAT rate and the EU-business judgement (vat-suggestion.ts) on a real database: what is counted (this
// Business's live Products and Lines above 0), how a tie falls, the country's standard rate, and whom K or AE fits.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { getBusiness } from '../business'
import { crossBorderEuBusiness, usualVatRate } from './vat-suggestion'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

async function product(key: string, vat_rate: string): Promise<number> {
  const r = await h.request('POST', '/v1/products', {
    key,
    body: { name: `P ${vat_rate}`, type: 'product', price: '1.00', currency: 'EUR', vat_rate },
  })
  expect(r.status).toBe(201)
  return r.body.id
}

const usual = async (id: number) => usualVatRate(h.deps.db.read, await getBusiness(h.deps.db.read, id))

describe('the usual VAT rate', () => {
  test("with nothing in use it is the country's standard rate, and none for a country the table does not know", async () => {
    expect(await usual((await h.business({ country: 'AT' })).id)).toBe('20.00')
    expect(await usual((await h.business({ country: 'FI' })).id)).toBe('25.50')
    expect(await usual((await h.business({ country: 'US', currency: 'USD' })).id)).toBeNull()
  })

  test('a Non-VAT Payer has none, whatever its Products say', async () => {
    const b = await h.business({ country: 'DE', isVatPayer: false })
    await product(b.key, '19')
    expect(await usual(b.id)).toBeNull()
  })

  test("only this Business's live Products count: another Business's and a deleted one are not seen", async () => {
    const mine = await h.business({ country: 'DE' })
    const theirs = await h.business({ country: 'DE' })
    for (let i = 0; i < 3; i++) await product(theirs.key, '7')
    const gone = await product(mine.key, '10')
    expect(await usual(mine.id)).toBe('10.00')
    expect((await h.request('DELETE', `/v1/products/${gone}`, { key: mine.key })).status).toBe(204)
    expect(await usual(mine.id)).toBe('19.00')
  })

  test('Lines count beside Products; a tie goes to the higher rate; 0 is never counted', async () => {
    const b = await h.business({ country: 'DE' })
    await product(b.key, '7')
    await product(b.key, '0')
    await product(b.key, '0')
    const client = await h.client(b.key)
    const line = (vat_rate: string) => ({ description: 'W', quantity: '1', unit_price: '1.00', vat_rate })
    const doc = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: { type: 'invoice', client_id: client, lines: [line('5.5'), line('0')] },
    })
    expect(doc.status).toBe(201)
    expect(await usual(b.id)).toBe('7.00')
    await h.request('PATCH', `/v1/documents/${doc.body.id}`, {
      key: b.key,
      body: { lines: [line('5.5'), line('5.5'), line('0')] },
    })
    expect(await usual(b.id)).toBe('5.50')
    await product(b.key, '7')
    expect(await usual(b.id)).toBe('7.00')
    await product(b.key, '5.5')
    await product(b.key, '7')
    // 7% three times, 5.5% three times: the higher.
    expect(await usual(b.id)).toBe('7.00')
  })
})

describe('a business Client in another EU country', () => {
  const seller = { country: 'DE', isVatPayer: true }
  test('is an EU Client abroad with a VAT number, of a VAT-registered seller in the EU (Greece as GR)', () => {
    expect(crossBorderEuBusiness(seller, { country: 'FR', vatNumber: 'FR40303265045' })).toBe(true)
    expect(crossBorderEuBusiness(seller, { country: 'GR', vatNumber: 'EL094259216' })).toBe(true)
  })
  test('is not one at home, outside the EU, without a VAT number, or of a Non-VAT Payer or a seller outside the EU', () => {
    expect(crossBorderEuBusiness(seller, { country: 'DE', vatNumber: 'DE136695976' })).toBe(false)
    expect(crossBorderEuBusiness(seller, { country: 'CH', vatNumber: 'CHE-123.456.789' })).toBe(false)
    expect(crossBorderEuBusiness(seller, { country: 'FR', vatNumber: null })).toBe(false)
    expect(crossBorderEuBusiness(seller, { country: 'FR', vatNumber: '  ' })).toBe(false)
    expect(crossBorderEuBusiness({ country: 'DE', isVatPayer: false }, { country: 'FR', vatNumber: 'FR1' })).toBe(false)
    expect(crossBorderEuBusiness({ country: 'GB', isVatPayer: true }, { country: 'FR', vatNumber: 'FR1' })).toBe(false)
  })
})
