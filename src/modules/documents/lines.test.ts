// Line input rules over HTTP: texts counted in characters as stored, decimals counted as written, and every Line
// error, whether the request schema or lines.ts raises it, naming the Line by its place counted from 1.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness, type TestResponse } from '../../../test/harness'
import { acmeClient, consultingLine as line } from '../../../test/documents-kit'

let h: Harness
let key: string
let clientId: number

beforeAll(async () => {
  h = await makeHarness()
  const b = await h.business({ currency: 'EUR' })
  key = b.key
  clientId = (await acmeClient(h, key)).id
})
afterAll(() => h.close())
// The clock is fixed, so each test opens a fresh rate-limit minute.
beforeEach(() => h.clock.advance(61_000))

const emoji = '😀'
function create(lines: unknown[]): Promise<TestResponse> {
  return h.request('POST', '/v1/documents', { key, body: { type: 'invoice', client_id: clientId, lines } })
}

async function made(lines: unknown[]): Promise<any> {
  const r = await create(lines)
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

/** The errors of a 422 invalid_request. */
function errorsOf(r: TestResponse): Record<string, string[]> {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  return r.body.error.errors
}

describe('Line texts are counted in characters as stored', () => {
  test('notes of 300 and of 500 emoji are taken as written; 501 emoji are refused under lines.N.notes', async () => {
    const d = await made([line({ notes: emoji.repeat(300) }), line({ notes: emoji.repeat(500) })])
    expect(d.lines.map((l: any) => l.notes)).toEqual([emoji.repeat(300), emoji.repeat(500)])
    expect(errorsOf(await create([line(), line({ notes: emoji.repeat(501) })]))).toEqual({
      'lines.1.notes': ['Line 2: must be at most 500 characters'],
    })
  })

  test('notes of 500 letters with spaces around are taken and stored trimmed', async () => {
    const d = await made([line({ notes: `  ${'n'.repeat(500)} ` })])
    expect(d.lines[0].notes).toBe('n'.repeat(500))
  })

  test('a description of 1000 emoji and a unit of 50 emoji are taken; one more of either is refused under the Line field', async () => {
    const d = await made([line({ description: emoji.repeat(1000), unit: emoji.repeat(50) })])
    expect(d.lines[0]).toMatchObject({ description: emoji.repeat(1000), unit: emoji.repeat(50) })
    expect(errorsOf(await create([line({ description: emoji.repeat(1001), unit: emoji.repeat(51) })]))).toEqual({
      'lines.0.description': ['Line 1: must be at most 1000 characters'],
      'lines.0.unit': ['Line 1: must be at most 50 characters'],
    })
  })

  test('a Line kept through a currency change keeps its emoji notes: lines.ts counts them as the schema does', async () => {
    const d = await made([line({ notes: emoji.repeat(500), unit: emoji.repeat(50) })])
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, { key, body: { currency: 'USD' } })
    expect(r.status).toBe(200)
    expect(r.body.lines[0]).toMatchObject({ notes: emoji.repeat(500), unit: emoji.repeat(50) })
  })

  test("a Product's name and unit of emoji fill a Line within its limits", async () => {
    const p = await h.request('POST', '/v1/products', {
      key,
      body: { name: emoji.repeat(255), type: 'service', price: '5.00', currency: 'EUR', unit: emoji.repeat(50) },
    })
    expect(p.status).toBe(201)
    const d = await made([{ product_id: p.body.id, quantity: '2' }])
    expect(d.lines[0]).toMatchObject({ description: emoji.repeat(255), unit: emoji.repeat(50), net_amount: '10.00' })
  })
})

describe('Line errors name the Line by its place counted from 1', () => {
  test('errors the request schema raises (length, a JSON number, a field the Line does not take) say "Line N:" under lines.(N-1).field', async () => {
    const errors = errorsOf(
      await create([line(), line({ notes: 'n'.repeat(501), unit: 'u'.repeat(51) }), line({ quantity: 2, tip: 'x' })]),
    )
    expect(errors).toEqual({
      'lines.1.notes': ['Line 2: must be at most 500 characters'],
      'lines.1.unit': ['Line 2: must be at most 50 characters'],
      'lines.2.quantity': ['Line 3: must be a decimal string such as "12.50", not a JSON number'],
      'lines.2.tip': ['Line 3: is not a field this endpoint takes'],
    })
  })

  test('a Line that is not an object is named by its place too; an error about the list as a whole is not', async () => {
    expect(errorsOf(await create([line(), 'x']))).toEqual({ 'lines.1': ['Line 2: must be a JSON object'] })
    const r = await h.request('POST', '/v1/documents', {
      key,
      body: { type: 'invoice', client_id: clientId, lines: 'none' },
    })
    expect(errorsOf(r)).toEqual({ lines: ['must be a list'] })
  })

  test('errors lines.ts raises keep their one "Line N:" and are not named twice', async () => {
    const errors = errorsOf(await create([line({ unit_price: undefined })]))
    expect(errors['lines.0.unit_price']).toEqual(['Line 1: a unit price is required'])
  })

  test('the top-level message names the first Line error with its place', async () => {
    const r = await create([line({ notes: 'n'.repeat(501) })])
    expect(r.body.error.message).toBe('lines.0.notes: Line 1: must be at most 500 characters')
  })
})

describe('Line decimals count as written', () => {
  test('a quantity of 5 written decimals, a unit_price of 7 and a vat_rate of 3 are refused even when the extra digits are zeros', async () => {
    const errors = errorsOf(await create([line({ quantity: '1.00000', unit_price: '1.0000000', vat_rate: '19.000' })]))
    expect(errors).toEqual({
      'lines.0.quantity': ['Line 1: the quantity must have at most 4 decimals'],
      'lines.0.unit_price': ['Line 1: the unit price must have at most 6 decimals'],
      'lines.0.vat_rate': ['Line 1: the VAT rate must have at most 2 decimals'],
    })
  })

  test('a quantity and unit_price within their decimals are kept as written, trailing zeros included', async () => {
    const d = await made([line({ quantity: '2.5000', unit_price: '10.500000' })])
    expect(d.lines[0]).toMatchObject({ quantity: '2.5000', unit_price: '10.500000', net_amount: '26.25' })
  })
})
