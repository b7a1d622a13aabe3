// Documents over HTTP against a real temp-file database: Drafts and their fields, Lines, money, lists, overdue,
// conversion, the Client snapshot and tenant isolation (extensions §3, the contract's Document and Line sections).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  makeHarness,
  type Harness,
  type TestResponse,
  harnessForFile,
  type ClientSetup as Setup,
  expectRefusedUnder,
} from '../../../test/harness'
import { acmeClient, acmeSetup, consultingLine as line } from '../../../test/documents-kit'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

function today(hh: Harness = h): string {
  return hh.clock.now().toISOString().slice(0, 10)
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10)
}

/** A fresh Business (EUR, pro) with one Client, so numbers and lists start empty. */
function setup(clientExtra: Record<string, unknown> = {}, hh: Harness = h): Promise<Setup> {
  return acmeSetup(hh, {}, clientExtra)
}

function create(s: Setup, body: Record<string, unknown>, hh: Harness = h): Promise<TestResponse> {
  return hh.request('POST', '/v1/documents', { key: s.key, body: { type: 'invoice', client_id: s.clientId, ...body } })
}

async function made(s: Setup, body: Record<string, unknown> = {}, hh: Harness = h): Promise<any> {
  const r = await create(s, { lines: [line()], ...body }, hh)
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

async function issued(s: Setup, id: number, hh: Harness = h): Promise<any> {
  const r = await hh.request('POST', `/v1/documents/${id}/issue`, { key: s.key })
  if (r.status !== 200) throw new Error(`issue refused: ${r.status} ${r.text}`)
  return r.body
}

function get(s: Setup, id: number): Promise<TestResponse> {
  return h.request('GET', `/v1/documents/${id}`, { key: s.key })
}

async function listAll(s: Setup, query: Record<string, string> = {}): Promise<any[]> {
  const out: any[] = []
  let cursor: string | null = null
  do {
    const q = new URLSearchParams({ limit: '100', ...query })
    if (cursor) q.set('cursor', cursor)
    const r = await h.request('GET', `/v1/documents?${q}`, { key: s.key })
    expect(r.status).toBe(200)
    out.push(...r.body.data)
    cursor = r.body.next_cursor
  } while (cursor)
  return out
}

// ---------------------------------------------------------------------------------------------------------------

describe('creating a Draft', () => {
  test('a Draft created with only type, client_id and Lines takes currency, payment_terms and bank_account_ids from the Client', async () => {
    const b = await h.business({ currency: 'EUR' })
    const acc1 = await h.bankAccount(b.id, 'First')
    const acc2 = await h.bankAccount(b.id, 'Second')
    const c = await acmeClient(h, b.key, {
      currency: 'USD',
      payment_terms: 14,
      preferred_bank_account_ids: [acc2, acc1],
    })
    const s = { bizId: b.id, key: b.key, clientId: c.id }
    const r = await create(s, { lines: [line()] })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      type: 'invoice',
      status: 'draft',
      document_number: null,
      requested_document_number: null,
      client_id: c.id,
      currency: 'USD',
      payment_terms: 14,
      bank_account_ids: [acc1, acc2],
      issue_date: null,
      due_date: null,
      delivery_date: null,
      notes: null,
      proforma_id: null,
      converted_into_id: null,
      credited_document_id: null,
      is_test: false,
      last_sent: null,
      is_overdue: false,
      days_overdue: null,
      amount_paid: '0.00',
      still_takes_payment: false,
    })
    expect(r.body.client).toMatchObject({ name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' })
    expect(r.body.lines).toHaveLength(1)
    expect(r.body.lines[0]).toMatchObject({
      position: 1,
      product_id: null,
      description: 'Consulting',
      unit: 'pcs',
      unit_price: '100.00',
      vat_rate: '19.00',
      vat_category: 'S',
      vat_exemption_code: null,
      notes: null,
      net_amount: '100.00',
    })
  })

  test('a Client with no preferred accounts and default terms gives a Draft 30 days, the Business currency and no bank accounts', async () => {
    const s = await setup()
    const d = await made(s)
    expect(d).toMatchObject({ currency: 'EUR', payment_terms: 30, bank_account_ids: [] })
  })

  test('at issue, issue_date is today (UTC, from the clock), due_date follows payment_terms and delivery_date defaults to the issue date', async () => {
    const s = await setup({ payment_terms: 14 })
    const d = await made(s)
    const day = today()
    const i = await issued(s, d.id)
    expect(i).toMatchObject({
      status: 'issued',
      document_number: `INV-${day.slice(0, 4)}-0001`,
      issue_date: day,
      due_date: addDays(day, 14),
      delivery_date: day,
    })
  })

  test('every field sent on create is kept, and issue keeps the dates and number it was given', async () => {
    const b = await h.business({ currency: 'EUR' })
    const acc1 = await h.bankAccount(b.id, 'First')
    const acc2 = await h.bankAccount(b.id, 'Second')
    const c = await acmeClient(h, b.key, { currency: 'EUR', payment_terms: 30, preferred_bank_account_ids: [acc1] })
    const s = { bizId: b.id, key: b.key, clientId: c.id }
    const body = {
      currency: 'USD',
      issue_date: '2026-03-01',
      due_date: '2026-04-15',
      delivery_date: '2026-02-28',
      payment_terms: 10,
      document_number: 'INV-2026-0001',
      notes: 'Thank you for your business',
      bank_account_ids: [acc2, acc1],
      lines: [
        {
          description: 'Design work',
          quantity: '2.5',
          unit: 'hour',
          unit_price: '80.00',
          vat_rate: '19.00',
          vat_category: 'S',
          notes: 'Week 9',
        },
      ],
    }
    const r = await create(s, body)
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      status: 'draft',
      document_number: null,
      requested_document_number: 'INV-2026-0001',
      currency: 'USD',
      issue_date: '2026-03-01',
      due_date: '2026-04-15',
      delivery_date: '2026-02-28',
      payment_terms: 10,
      notes: 'Thank you for your business',
      bank_account_ids: [acc1, acc2],
    })
    expect(r.body.lines[0]).toMatchObject({
      description: 'Design work',
      unit: 'hour',
      unit_price: '80.00',
      vat_rate: '19.00',
      vat_category: 'S',
      notes: 'Week 9',
      net_amount: '200.00',
    })
    expect(Number(r.body.lines[0].quantity)).toBe(2.5)
    const i = await issued(s, r.body.id)
    expect(i).toMatchObject({
      document_number: 'INV-2026-0001',
      issue_date: '2026-03-01',
      due_date: '2026-04-15',
      delivery_date: '2026-02-28',
      currency: 'USD',
    })
  })

  test('a Draft with an issue_date but no due_date gets its due date from payment_terms counted from that issue date', async () => {
    const s = await setup()
    const d = await made(s, { issue_date: '2026-02-20', payment_terms: 10 })
    const i = await issued(s, d.id)
    expect(i).toMatchObject({ issue_date: '2026-02-20', due_date: '2026-03-02', delivery_date: '2026-02-20' })
  })

  test('a due date before the issue date, an impossible date and an unknown currency are refused under their fields', async () => {
    const s = await setup()
    expectRefusedUnder(
      await create(s, { lines: [line()], issue_date: '2026-03-10', due_date: '2026-03-09' }),
      'due_date',
    )
    expectRefusedUnder(await create(s, { lines: [line()], issue_date: '2026-02-30' }), 'issue_date')
    expectRefusedUnder(await create(s, { lines: [line()], currency: 'XYZ' }), 'currency')
  })

  test('a Client, bank account or Product of another Business is refused under its field, naming the Line by place', async () => {
    const s = await setup()
    const other = await setup()
    const otherAcc = await h.bankAccount(other.bizId)
    const prod = await h.request('POST', '/v1/products', {
      key: other.key,
      body: { name: 'Theirs', type: 'product', price: '5.00', currency: 'EUR' },
    })
    expect(prod.status).toBe(201)
    expectRefusedUnder(await create(s, { client_id: other.clientId, lines: [line()] }), 'client_id')
    expectRefusedUnder(await create(s, { lines: [line()], bank_account_ids: [otherAcc] }), 'bank_account_ids.0')
    expectRefusedUnder(
      await create(s, { lines: [line(), { product_id: prod.body.id, quantity: '1' }] }),
      'lines.1.product_id',
    )
  })

  test('a field the create body does not take (status, amount_paid, id) is 422 naming it', async () => {
    const s = await setup()
    for (const field of ['status', 'amount_paid', 'id']) {
      const r = await create(s, { lines: [line()], [field]: field === 'id' ? 5 : 'paid' })
      expectRefusedUnder(r, field)
    }
  })

  test('a Credit Note takes credited_document_id of an issued Invoice; a Draft Invoice or an Invoice taking it is refused', async () => {
    const s = await setup()
    const inv = await issued(s, (await made(s)).id)
    const draftInv = await made(s)
    const cn = await create(s, { type: 'credit_note', credited_document_id: inv.id, lines: [line()] })
    expect(cn.status).toBe(201)
    expect(cn.body.credited_document_id).toBe(inv.id)
    expectRefusedUnder(
      await create(s, { type: 'credit_note', credited_document_id: draftInv.id, lines: [line()] }),
      'credited_document_id',
    )
    expectRefusedUnder(
      await create(s, { type: 'invoice', credited_document_id: inv.id, lines: [line()] }),
      'credited_document_id',
    )
  })

  test("a Credit Note credits its own Client's Invoice in that Invoice's currency: another Client's or another currency is refused, also when changed later", async () => {
    const s = await setup()
    const inv = await issued(s, (await made(s)).id)
    const other = await acmeClient(h, s.key, { name: 'Other Client', email: 'other@client.example' })
    const yen = await acmeClient(h, s.key, { name: 'Yen Client', email: 'yen@client.example', currency: 'JPY' })
    const before = (await listAll(s)).length
    const foreign = expectRefusedUnder(
      await create(s, { type: 'credit_note', client_id: other.id, credited_document_id: inv.id, lines: [line()] }),
      'credited_document_id',
    )
    expect(foreign.errors.credited_document_id[0]).toContain('another Client')
    expectRefusedUnder(
      await create(s, {
        type: 'credit_note',
        client_id: yen.id,
        credited_document_id: inv.id,
        lines: [line({ unit_price: '100' })],
      }),
      'credited_document_id',
    )
    expectRefusedUnder(
      await create(s, { type: 'credit_note', currency: 'USD', credited_document_id: inv.id, lines: [line()] }),
      'credited_document_id',
    )
    expect((await listAll(s)).length).toBe(before)
    // Linked rightly, then moved to another Client or currency by an update: refused, the Draft unchanged.
    const cn = await made(s, { type: 'credit_note', credited_document_id: inv.id })
    const patch = (body: Record<string, unknown>) => h.request('PATCH', `/v1/documents/${cn.id}`, { key: s.key, body })
    expectRefusedUnder(await patch({ client_id: other.id }), 'credited_document_id')
    expectRefusedUnder(await patch({ currency: 'USD' }), 'credited_document_id')
    expect((await get(s, cn.id)).body).toMatchObject({
      client_id: s.clientId,
      currency: 'EUR',
      credited_document_id: inv.id,
    })
  })

  test('a Draft with no Lines is saved, but is not issued: 422 under lines', async () => {
    const s = await setup()
    const r = await create(s, {})
    expect(r.status).toBe(201)
    expect(r.body.lines).toEqual([])
    expect(r.body).toMatchObject({ net_total: '0.00', vat_total: '0.00', total: '0.00', vat_breakdown: [] })
    const i = await h.request('POST', `/v1/documents/${r.body.id}/issue`, { key: s.key })
    expectRefusedUnder(i, 'lines')
    expect((await get(s, r.body.id)).body).toMatchObject({ status: 'draft', document_number: null })
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('Lines', () => {
  test('a Line billing a Product in the document currency takes its name, unit, price and VAT rate', async () => {
    const s = await setup()
    const p = await h.request('POST', '/v1/products', {
      key: s.key,
      body: { name: 'Widget', type: 'product', price: '12.50', currency: 'EUR', vat_rate: '7.00', unit: 'box' },
    })
    const d = await made(s, { lines: [{ product_id: p.body.id, quantity: '2' }] })
    expect(d.lines[0]).toMatchObject({
      product_id: p.body.id,
      description: 'Widget',
      unit: 'box',
      unit_price: '12.50',
      vat_rate: '7.00',
      vat_category: 'S',
      net_amount: '25.00',
    })
  })

  test('a Line from a Product whose price includes VAT takes its price_without_vat', async () => {
    const s = await setup()
    const p = await h.request('POST', '/v1/products', {
      key: s.key,
      body: {
        name: 'Gift box',
        type: 'product',
        price: '10.00',
        currency: 'EUR',
        vat_rate: '19.00',
        vat_included: true,
      },
    })
    expect(p.body.price_without_vat).toBe('8.40')
    const d = await made(s, { lines: [{ product_id: p.body.id, quantity: '3' }] })
    // 3 × 8.40 = 25.20; VAT 25.20 × 19% = 4.788 → 4.79; total 29.99.
    expect(d.lines[0]).toMatchObject({ unit_price: '8.40', vat_rate: '19.00', net_amount: '25.20' })
    expect(d).toMatchObject({ net_total: '25.20', vat_total: '4.79', total: '29.99', amount_due: '29.99' })
  })

  test('a Product in another currency gives no price: the Line needs its own unit_price (lines.0.unit_price), and keeps the Product VAT rate', async () => {
    const s = await setup()
    const p = await h.request('POST', '/v1/products', {
      key: s.key,
      body: { name: 'US widget', type: 'product', price: '9.99', currency: 'USD', vat_rate: '7.00' },
    })
    const refused = await create(s, { lines: [{ product_id: p.body.id, quantity: '1' }] })
    expectRefusedUnder(refused, 'lines.0.unit_price')
    const ok = await made(s, { lines: [{ product_id: p.body.id, quantity: '2', unit_price: '9.00' }] })
    expect(ok.currency).toBe('EUR')
    expect(ok.lines[0]).toMatchObject({
      unit_price: '9.00',
      vat_rate: '7.00',
      net_amount: '18.00',
      description: 'US widget',
    })
  })

  test('vat_category defaults to Z at rate 0 and S above 0', async () => {
    const s = await setup()
    const d = await made(s, {
      lines: [line({ vat_rate: '0' }), line({ vat_rate: '19.00' }), line({ vat_rate: undefined })],
    })
    expect(d.lines.map((l: any) => [l.vat_category, l.vat_rate])).toEqual([
      ['Z', '0.00'],
      ['S', '19.00'],
      ['Z', '0.00'],
    ])
  })

  test.each(['E', 'AE', 'K', 'G', 'O'])(
    'category %s needs vat_exemption_code (lines.N.vat_exemption_code) and takes rate 0 (lines.N.vat_rate)',
    async (cat) => {
      const s = await setup()
      expectRefusedUnder(
        await create(s, { lines: [line(), line({ vat_rate: '0', vat_category: cat })] }),
        'lines.1.vat_exemption_code',
      )
      expectRefusedUnder(
        await create(s, { lines: [line({ vat_rate: '19.00', vat_category: cat, vat_exemption_code: 'VATEX-EU-AE' })] }),
        'lines.0.vat_rate',
      )
      const ok = await made(s, {
        lines: [line({ vat_rate: '0', vat_category: cat, vat_exemption_code: 'VATEX-EU-AE' })],
      })
      expect(ok.lines[0]).toMatchObject({ vat_category: cat, vat_rate: '0.00', vat_exemption_code: 'VATEX-EU-AE' })
    },
  )

  test('category S at rate 0, Z above 0, an unknown category and an exemption code on S are refused under the Line', async () => {
    const s = await setup()
    expectRefusedUnder(await create(s, { lines: [line({ vat_rate: '0', vat_category: 'S' })] }), 'lines.0.vat_rate')
    expectRefusedUnder(await create(s, { lines: [line({ vat_rate: '7.00', vat_category: 'Z' })] }), 'lines.0.vat_rate')
    expectRefusedUnder(await create(s, { lines: [line({ vat_category: 'X' })] }), 'lines.0.vat_category')
    expectRefusedUnder(
      await create(s, { lines: [line({ vat_exemption_code: 'VATEX-EU-AE' })] }),
      'lines.0.vat_exemption_code',
    )
  })

  test('Line notes: 500 characters are kept, 501 are refused under lines.N.notes, none is null', async () => {
    const s = await setup()
    const ok = await made(s, { lines: [line({ notes: 'n'.repeat(500) }), line()] })
    expect(ok.lines[0].notes).toBe('n'.repeat(500))
    expect(ok.lines[1].notes).toBeNull()
    expectRefusedUnder(await create(s, { lines: [line(), line({ notes: 'n'.repeat(501) })] }), 'lines.1.notes')
  })

  test('quantity "0", a negative quantity and a quantity with 5 decimals are refused; 4 decimals are kept', async () => {
    const s = await setup()
    expectRefusedUnder(await create(s, { lines: [line({ quantity: '0' })] }), 'lines.0.quantity')
    expectRefusedUnder(await create(s, { lines: [line({ quantity: '-1' })] }), 'lines.0.quantity')
    expectRefusedUnder(await create(s, { lines: [line({ quantity: '1.00001' })] }), 'lines.0.quantity')
    const ok = await made(s, { lines: [line({ quantity: '1.0001', unit_price: '10000' })] })
    expect(ok.lines[0].quantity).toBe('1.0001')
    expect(ok.lines[0].net_amount).toBe('10001.00')
  })

  test('unit_price with 7 decimals and a negative unit_price are refused; 6 decimals and 0 are kept', async () => {
    const s = await setup()
    expectRefusedUnder(await create(s, { lines: [line({ unit_price: '1.0000001' })] }), 'lines.0.unit_price')
    expectRefusedUnder(await create(s, { lines: [line({ unit_price: '-1.00' })] }), 'lines.0.unit_price')
    const ok = await made(s, { lines: [line({ quantity: '1000', unit_price: '0.123456' }), line({ unit_price: '0' })] })
    expect(ok.lines[0]).toMatchObject({ unit_price: '0.123456', net_amount: '123.46' })
    expect(ok.lines[1]).toMatchObject({ unit_price: '0', net_amount: '0.00' })
  })

  test('a JSON number as quantity, unit_price or vat_rate is refused under the Line field', async () => {
    const s = await setup()
    expectRefusedUnder(await create(s, { lines: [line({ quantity: 2 })] }), 'lines.0.quantity')
    expectRefusedUnder(await create(s, { lines: [line(), line({ unit_price: 10.5 })] }), 'lines.1.unit_price')
    expectRefusedUnder(await create(s, { lines: [line({ vat_rate: 19 })] }), 'lines.0.vat_rate')
  })

  test('errors name each Line by its place: the second Line is lines.1 and its message says Line 2', async () => {
    const s = await setup()
    const r = await create(s, { lines: [line(), line({ unit_price: undefined }), line({ description: '' })] })
    const e = expectRefusedUnder(r, 'lines.1.unit_price')
    expect(e.errors['lines.1.unit_price'][0]).toContain('Line 2')
    expect(Object.keys(e.errors)).toContain('lines.2.description')
    expect(Object.keys(e.errors)).not.toContain('lines.0.unit_price')
  })

  test('update with lines replaces every Line and recomputes the totals', async () => {
    const s = await setup()
    const d = await made(s, { lines: [line(), line({ description: 'B' }), line({ description: 'C' })] })
    expect(d.total).toBe('357.00')
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, {
      key: s.key,
      body: { lines: [line({ description: 'Only', quantity: '2', unit_price: '10.00', vat_rate: '7.00' })] },
    })
    expect(r.status).toBe(200)
    expect(r.body.lines).toHaveLength(1)
    expect(r.body.lines[0]).toMatchObject({ position: 1, description: 'Only', net_amount: '20.00' })
    expect(r.body).toMatchObject({
      net_total: '20.00',
      vat_total: '1.40',
      total: '21.40',
      vat_breakdown: [{ category: 'S', rate: '7.00', net: '20.00', vat: '1.40' }],
    })
  })

  test('update without lines keeps the Lines and changes only the fields sent', async () => {
    const s = await setup()
    const d = await made(s, { notes: 'first', lines: [line(), line({ description: 'B' })] })
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, {
      key: s.key,
      body: { notes: 'second', payment_terms: 7 },
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ notes: 'second', payment_terms: 7, total: d.total })
    expect(r.body.lines.map((l: any) => l.description)).toEqual(['Consulting', 'B'])
  })

  test("a currency changed on update recomputes the kept Lines at the new currency's scale", async () => {
    const s = await setup()
    const d = await made(s, { lines: [line({ quantity: '3', unit_price: '333.5', vat_rate: '10.00' })] })
    expect(d).toMatchObject({ net_total: '1000.50', vat_total: '100.05', total: '1100.55' })
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { currency: 'JPY' } })
    expect(r.status).toBe(200)
    expect(r.body.lines[0]).toMatchObject({ unit_price: '333.5', net_amount: '1001' })
    expect(r.body).toMatchObject({
      currency: 'JPY',
      net_total: '1001',
      vat_total: '100',
      total: '1101',
      amount_paid: '0',
      amount_due: '1101',
    })
  })

  test('a PATCH refuses Lines by the same rules, naming the Line by place, and writes nothing', async () => {
    const s = await setup()
    const d = await made(s)
    expectRefusedUnder(
      await h.request('PATCH', `/v1/documents/${d.id}`, {
        key: s.key,
        body: { lines: [line(), line({ quantity: '0' })] },
      }),
      'lines.1.quantity',
    )
    const after = (await get(s, d.id)).body
    expect(after.lines).toHaveLength(1)
    expect(after.total).toBe(d.total)
  })

  test('deleting a Draft answers 204 and the Draft is then 404', async () => {
    const s = await setup()
    const d = await made(s)
    const r = await h.request('DELETE', `/v1/documents/${d.id}`, { key: s.key })
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
    const g = await get(s, d.id)
    expect(g.status).toBe(404)
    expect(g.body.error.type).toBe('not_found')
    expect((await h.request('DELETE', `/v1/documents/${d.id}`, { key: s.key })).status).toBe(404)
  })
})

// ---------------------------------------------------------------------------------------------------------------

interface MoneyCase {
  name: string
  currency: string
  lines: Array<Record<string, unknown>>
  net_amounts: string[]
  vat_breakdown: Array<{ category: string; rate: string; net: string; vat: string }>
  net_total: string
  vat_total: string
  total: string
  zero: string
}

// Hand-computed: Line net = quantity × unit_price rounded half away from zero; VAT per band (category, rate).
const MONEY_CASES: MoneyCase[] = [
  {
    name: 'EUR with mixed rates and three 0% categories',
    currency: 'EUR',
    lines: [
      { description: 'A', quantity: '3', unit_price: '19.99', vat_rate: '19.00' }, // 59.97
      { description: 'B', quantity: '1.5', unit_price: '10.00', vat_rate: '7.00' }, // 15.00
      { description: 'C', quantity: '2', unit_price: '5.555', vat_rate: '19.00' }, // 11.11
      { description: 'D', quantity: '1', unit_price: '100.00', vat_rate: '0' }, // Z 100.00
      {
        description: 'E',
        quantity: '1',
        unit_price: '50.00',
        vat_rate: '0',
        vat_category: 'E',
        vat_exemption_code: 'VATEX-EU-132',
      },
      {
        description: 'F',
        quantity: '1',
        unit_price: '20.00',
        vat_rate: '0',
        vat_category: 'AE',
        vat_exemption_code: 'VATEX-EU-AE',
      },
    ],
    net_amounts: ['59.97', '15.00', '11.11', '100.00', '50.00', '20.00'],
    vat_breakdown: [
      { category: 'S', rate: '19.00', net: '71.08', vat: '13.51' }, // 71.08 × 0.19 = 13.5052
      { category: 'S', rate: '7.00', net: '15.00', vat: '1.05' },
      { category: 'Z', rate: '0.00', net: '100.00', vat: '0.00' },
      { category: 'E', rate: '0.00', net: '50.00', vat: '0.00' },
      { category: 'AE', rate: '0.00', net: '20.00', vat: '0.00' },
    ],
    net_total: '256.08',
    vat_total: '14.56',
    total: '270.64',
    zero: '0.00',
  },
  {
    name: 'EUR, VAT rounded per band, not per Line, and half away from zero',
    currency: 'EUR',
    lines: [
      { description: 'A', quantity: '1', unit_price: '0.10', vat_rate: '5.00' },
      { description: 'B', quantity: '1', unit_price: '0.10', vat_rate: '5.00' },
      { description: 'C', quantity: '1', unit_price: '0.10', vat_rate: '5.00' }, // band 0.30 × 5% = 0.015 → 0.02 (per Line it would be 0.03)
      { description: 'D', quantity: '3', unit_price: '0.335', vat_rate: '10.00' }, // 1.005 → 1.01; 1.01 × 10% = 0.101 → 0.10
      { description: 'E', quantity: '1', unit_price: '0.25', vat_rate: '2.00' }, // 0.25 × 2% = 0.005 → 0.01
    ],
    net_amounts: ['0.10', '0.10', '0.10', '1.01', '0.25'],
    vat_breakdown: [
      { category: 'S', rate: '10.00', net: '1.01', vat: '0.10' },
      { category: 'S', rate: '5.00', net: '0.30', vat: '0.02' },
      { category: 'S', rate: '2.00', net: '0.25', vat: '0.01' },
    ],
    net_total: '1.56',
    vat_total: '0.13',
    total: '1.69',
    zero: '0.00',
  },
  {
    name: 'JPY, a 0-decimal currency',
    currency: 'JPY',
    lines: [
      { description: 'A', quantity: '3', unit_price: '333.5', vat_rate: '10.00' }, // 1000.5 → 1001
      { description: 'B', quantity: '1', unit_price: '980', vat_rate: '8.00' }, // 980; VAT 78.4 → 78
    ],
    net_amounts: ['1001', '980'],
    vat_breakdown: [
      { category: 'S', rate: '10.00', net: '1001', vat: '100' }, // 100.1 → 100
      { category: 'S', rate: '8.00', net: '980', vat: '78' },
    ],
    net_total: '1981',
    vat_total: '178',
    total: '2159',
    zero: '0',
  },
  {
    name: 'KWD, a 3-decimal currency',
    currency: 'KWD',
    lines: [
      { description: 'A', quantity: '3', unit_price: '1.2345', vat_rate: '5.00' }, // 3.7035 → 3.704; VAT 0.1852 → 0.185
      { description: 'B', quantity: '2', unit_price: '0.0005', vat_rate: '0' }, // 0.001
    ],
    net_amounts: ['3.704', '0.001'],
    vat_breakdown: [
      { category: 'S', rate: '5.00', net: '3.704', vat: '0.185' },
      { category: 'Z', rate: '0.00', net: '0.001', vat: '0.000' },
    ],
    net_total: '3.705',
    vat_total: '0.185',
    total: '3.890',
    zero: '0.000',
  },
]

function expectRatesDescending(bands: Array<{ rate: string }>) {
  for (let i = 1; i < bands.length; i++)
    expect(Number(bands[i - 1]!.rate)).toBeGreaterThanOrEqual(Number(bands[i]!.rate))
}

const bandKey = (b: { category: string; rate: string }) => `${b.category}|${b.rate}`

describe('money on documents (hand-computed)', () => {
  test.each(MONEY_CASES.map((c) => [c.name, c] as const))(
    '%s: Line nets, VAT breakdown, totals, amount_paid and amount_due',
    async (_name, c) => {
      const s = await setup({ currency: c.currency })
      const r = await create(s, { lines: c.lines })
      expect(r.status).toBe(201)
      for (const doc of [r.body, await issued(s, r.body.id)]) {
        expect(doc.currency).toBe(c.currency)
        expect(doc.lines.map((l: any) => l.net_amount)).toEqual(c.net_amounts)
        // Highest rate first; each 0% category is its own band (order among equal rates is not part of the contract).
        expectRatesDescending(doc.vat_breakdown)
        expect(doc.vat_breakdown.map(bandKey)).toHaveLength(new Set(doc.vat_breakdown.map(bandKey)).size)
        // The contract's four band fields; vat_accounting (extensions §16) is held by src/modules/fx/fx.test.ts.
        const bands = doc.vat_breakdown.map(({ vat_accounting: _, ...b }: any) => b)
        expect([...bands].sort((a: any, b: any) => bandKey(a).localeCompare(bandKey(b)))).toEqual(
          [...c.vat_breakdown].sort((a, b) => bandKey(a).localeCompare(bandKey(b))),
        )
        expect(bands.filter((b: any) => Number(b.rate) > 0)).toEqual(c.vat_breakdown.filter((b) => Number(b.rate) > 0))
        expect(doc).toMatchObject({
          net_total: c.net_total,
          vat_total: c.vat_total,
          total: c.total,
          amount_paid: c.zero,
          amount_due: c.total,
        })
      }
    },
  )

  test('a Line net of 999999999999999.99 is accepted and answered exactly', async () => {
    const s = await setup()
    const d = await made(s, { lines: [line({ quantity: '1', unit_price: '999999999999999.99', vat_rate: '0' })] })
    expect(d.lines[0].net_amount).toBe('999999999999999.99')
    expect(d).toMatchObject({
      net_total: '999999999999999.99',
      vat_total: '0.00',
      total: '999999999999999.99',
      amount_due: '999999999999999.99',
    })
    const i = await issued(s, d.id)
    expect(i.total).toBe('999999999999999.99')
  })

  test('a Line net of 1000000000000000 is 422 invalid_request under lines.N.unit_price', async () => {
    const s = await setup()
    // 16 digits in the price itself, and 10^15 reached only by the product of quantity and price.
    expectRefusedUnder(
      await create(s, { lines: [line(), line({ quantity: '1', unit_price: '1000000000000000', vat_rate: '0' })] }),
      'lines.1.unit_price',
    )
    expectRefusedUnder(
      await create(s, { lines: [line({ quantity: '2', unit_price: '500000000000000', vat_rate: '0' })] }),
      'lines.0.unit_price',
    )
    // 3 × 333333333333333.331667 = 999999999999999.995001, which rounds to 10^15 at two decimals.
    expectRefusedUnder(
      await create(s, { lines: [line({ quantity: '3', unit_price: '333333333333333.331667', vat_rate: '0' })] }),
      'lines.0.unit_price',
    )
  })

  test('Lines whose total reaches 10^15 are 422 under lines; just below is accepted', async () => {
    const s = await setup()
    const at = await create(s, {
      lines: [
        line({ unit_price: '500000000000000.00', vat_rate: '0' }),
        line({ unit_price: '500000000000000.00', vat_rate: '0' }),
      ],
    })
    const e = expectRefusedUnder(at, 'lines')
    expect(Object.keys(e.errors).filter((k) => k.startsWith('lines.'))).toEqual([])
    expectRefusedUnder(
      await create(s, {
        lines: [
          line({ unit_price: '600000000000000.00', vat_rate: '0' }),
          line({ unit_price: '600000000000000.00', vat_rate: '0' }),
        ],
      }),
      'lines',
    )
    const below = await made(s, {
      lines: [
        line({ unit_price: '500000000000000.00', vat_rate: '0' }),
        line({ unit_price: '499999999999999.99', vat_rate: '0' }),
      ],
    })
    expect(below.net_total).toBe('999999999999999.99')
  })

  test('the 10^15 limits hold on update too', async () => {
    const s = await setup()
    const d = await made(s)
    const patch = (lines: unknown[]) => h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { lines } })
    expectRefusedUnder(
      await patch([line({ quantity: '10', unit_price: '100000000000000', vat_rate: '0' })]),
      'lines.0.unit_price',
    )
    expectRefusedUnder(
      await patch([line({ unit_price: '999999999999999', vat_rate: '0' }), line({ unit_price: '1', vat_rate: '0' })]),
      'lines',
    )
    expect((await get(s, d.id)).body.total).toBe(d.total)
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('listing documents', () => {
  test('the list narrows by type, status, client_id, issue date range and search (number, Client name, notes)', async () => {
    const s = await setup({ name: 'Zeta Widgets' })
    const other = await acmeClient(h, s.key, { name: 'Omega Trading' })
    const s2 = { ...s, clientId: other.id }
    const inv1 = await issued(s, (await made(s, { issue_date: '2026-01-15', notes: 'January retainer' })).id)
    const inv2 = await issued(s2, (await made(s2, { issue_date: '2026-02-15' })).id)
    const pro = await issued(s, (await made(s, { type: 'proforma', issue_date: '2026-02-20' })).id)
    const draft = await made(s2, { notes: 'Unsent quote draft', type: 'quote' })
    const ids = (docs: any[]) => docs.map((d) => d.id)

    expect(ids(await listAll(s))).toEqual([inv1.id, inv2.id, pro.id, draft.id])
    expect(ids(await listAll(s, { type: 'invoice' }))).toEqual([inv1.id, inv2.id])
    expect(ids(await listAll(s, { type: 'quote' }))).toEqual([draft.id])
    expect(ids(await listAll(s, { status: 'draft' }))).toEqual([draft.id])
    expect(ids(await listAll(s, { status: 'issued' }))).toEqual([inv1.id, inv2.id, pro.id])
    expect(ids(await listAll(s, { client_id: String(other.id) }))).toEqual([inv2.id, draft.id])
    expect(ids(await listAll(s, { issue_date_from: '2026-02-01' }))).toEqual([inv2.id, pro.id])
    expect(ids(await listAll(s, { issue_date_to: '2026-02-15' }))).toEqual([inv1.id, inv2.id])
    expect(ids(await listAll(s, { issue_date_from: '2026-02-15', issue_date_to: '2026-02-15' }))).toEqual([inv2.id])
    expect(ids(await listAll(s, { search: inv2.document_number }))).toEqual([inv2.id])
    expect(ids(await listAll(s, { search: 'pro-2026' }))).toEqual([pro.id])
    expect(ids(await listAll(s, { search: 'omega' }))).toEqual([inv2.id, draft.id])
    expect(ids(await listAll(s, { search: 'RETAINER' }))).toEqual([inv1.id])
    expect(ids(await listAll(s, { search: 'nothing like this' }))).toEqual([])
    expect(ids(await listAll(s, { type: 'invoice', client_id: String(s.clientId), search: 'zeta' }))).toEqual([inv1.id])
  })

  test('a list walks in pages, oldest first, each document once', async () => {
    const s = await setup()
    const made3 = [await made(s), await made(s), await made(s)]
    const first = await h.request('GET', '/v1/documents?limit=2', { key: s.key })
    expect(first.body.data.map((d: any) => d.id)).toEqual([made3[0].id, made3[1].id])
    expect(first.body.next_cursor).toBeString()
    const second = await h.request(
      'GET',
      `/v1/documents?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: s.key },
    )
    expect(second.body.data.map((d: any) => d.id)).toEqual([made3[2].id])
    expect(second.body.next_cursor).toBeNull()
  })

  test('a bad filter value is 422 naming it', async () => {
    const s = await setup()
    for (const [k, v] of [
      ['type', 'receipt'],
      ['status', 'overdue'],
      ['client_id', 'abc'],
      ['issue_date_from', '2026-13-01'],
      ['issue_date_to', 'yesterday'],
    ]) {
      expectRefusedUnder(await h.request('GET', `/v1/documents?${k}=${v}`, { key: s.key }), k!)
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('the Client snapshot', () => {
  test('an issued document keeps the Client as it stood at issue; a Draft shows the Client as it now stands', async () => {
    const s = await setup({ name: 'Old Name Ltd', address: 'Old Street 1', city: 'Berlin' })
    const doc = await issued(s, (await made(s)).id)
    const dr = await made(s)
    const patched = await h.request('PATCH', `/v1/clients/${s.clientId}`, {
      key: s.key,
      body: { name: 'New Name Ltd', address: 'New Street 2', email: 'new@acme.example' },
    })
    expect(patched.status).toBe(200)
    const after = (await get(s, doc.id)).body
    expect(after.client).toMatchObject({
      name: 'Old Name Ltd',
      address: 'Old Street 1',
      city: 'Berlin',
      email: 'billing@acme.example',
      country: 'DE',
    })
    const draftNow = (await get(s, dr.id)).body
    expect(draftNow.client).toMatchObject({ name: 'New Name Ltd', address: 'New Street 2', email: 'new@acme.example' })
    // Issued after the change, the Draft freezes the new Client.
    const laterIssued = await issued(s, dr.id)
    expect(laterIssued.client.name).toBe('New Name Ltd')
    await h.request('PATCH', `/v1/clients/${s.clientId}`, { key: s.key, body: { name: 'Third Name Ltd' } })
    expect((await get(s, dr.id)).body.client.name).toBe('New Name Ltd')
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('conversion', () => {
  test('convert copies Lines, Client, currency and totals into an issued Invoice and links both ways', async () => {
    const s = await setup({ currency: 'USD', payment_terms: 20 })
    const pro = await issued(
      s,
      (
        await made(s, {
          type: 'proforma',
          notes: 'Advance',
          lines: [
            line({ description: 'A', quantity: '2', unit_price: '12.345', notes: 'note A' }),
            line({ description: 'B', vat_rate: '0', vat_category: 'K', vat_exemption_code: 'VATEX-EU-IC' }),
          ],
        })
      ).id,
    )
    expect(pro.document_number).toMatch(/^PRO-\d{4}-0001$/)
    const r = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key })
    expect(r.status).toBe(201)
    const inv = r.body
    expect(inv).toMatchObject({
      type: 'invoice',
      status: 'issued',
      proforma_id: pro.id,
      converted_into_id: null,
      client_id: s.clientId,
      currency: 'USD',
    })
    expect(inv.document_number).toMatch(/^INV-\d{4}-0001$/)
    const strip = (l: any) => ({ ...l, id: 0 })
    expect(inv.lines.map(strip)).toEqual(pro.lines.map(strip))
    expect(inv).toMatchObject({
      net_total: pro.net_total,
      vat_total: pro.vat_total,
      total: pro.total,
      vat_breakdown: pro.vat_breakdown,
      amount_due: pro.total,
    })
    const proAfter = (await get(s, pro.id)).body
    expect(proAfter.converted_into_id).toBe(inv.id)
    expect(proAfter.status).toBe('issued')
  })

  test('an Invoice Draft created with proforma_id of an issued Proforma completes the conversion when issued', async () => {
    const s = await setup()
    const pro = await issued(s, (await made(s, { type: 'proforma' })).id)
    const d = await made(s, { proforma_id: pro.id })
    expect(d.proforma_id).toBe(pro.id)
    expect((await get(s, pro.id)).body.converted_into_id).toBeNull()
    const inv = await issued(s, d.id)
    expect(inv.proforma_id).toBe(pro.id)
    expect((await get(s, pro.id)).body.converted_into_id).toBe(d.id)
  })

  test('a convert resent with the same Idempotency-Key replays the first Invoice and converts nothing again', async () => {
    const s = await setup()
    const pro = await issued(s, (await made(s, { type: 'proforma' })).id)
    const headers = { 'idempotency-key': `convert-${pro.id}` }
    const first = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key, headers })
    expect(first.status).toBe(201)
    const again = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key, headers })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.text).toBe(first.text)
    expect((await listAll(s, { type: 'invoice' })).map((d) => d.id)).toEqual([first.body.id])
  })

  test('proforma_id naming an Invoice, or a document of another Business, is refused under proforma_id', async () => {
    const s = await setup()
    const inv = await issued(s, (await made(s)).id)
    expectRefusedUnder(await create(s, { lines: [line()], proforma_id: inv.id }), 'proforma_id')
    const other = await setup()
    const theirs = await issued(other, (await made(other, { type: 'proforma' })).id)
    expectRefusedUnder(await create(s, { lines: [line()], proforma_id: theirs.id }), 'proforma_id')
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('tenant isolation', () => {
  test("another Business's document is 404 on every path, including the PDF, and absent from the list", async () => {
    const mine = await setup()
    const theirs = await setup()
    const draft = await made(theirs)
    const doc = await issued(theirs, (await made(theirs)).id)
    const pro = await issued(theirs, (await made(theirs, { type: 'proforma' })).id)
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/v1/documents/${doc.id}`],
      ['GET', `/v1/documents/${doc.id}/pdf`],
      ['GET', `/v1/documents/${draft.id}/pdf`],
      ['PATCH', `/v1/documents/${draft.id}`, { notes: 'mine now' }],
      ['DELETE', `/v1/documents/${draft.id}`],
      ['POST', `/v1/documents/${draft.id}/issue`],
      ['POST', `/v1/documents/${doc.id}/cancel`],
      ['POST', `/v1/documents/${pro.id}/convert`],
    ]
    for (const [method, path, body] of calls) {
      const r = await h.request(method, path, { key: mine.key, body })
      expect(`${method} ${path} ${r.status}`).toBe(`${method} ${path} 404`)
      expect(r.body.error.type).toBe('not_found')
    }
    expect(await listAll(mine)).toEqual([])
    // Nothing changed on their side.
    expect((await get(theirs, draft.id)).body).toMatchObject({ status: 'draft', notes: null })
    expect((await get(theirs, doc.id)).body.status).toBe('issued')
    expect((await get(theirs, pro.id)).body.converted_into_id).toBeNull()
  })

  test('each Business numbers its own documents: both start at 0001', async () => {
    const a = await setup()
    const b = await setup()
    const da = await issued(a, (await made(a)).id)
    const db = await issued(b, (await made(b)).id)
    expect(da.document_number).toBe(db.document_number)
    expect(da.document_number).toMatch(/-0001$/)
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('overdue (the clock moved past the due date)', () => {
  let hh: Harness
  beforeAll(async () => {
    hh = await makeHarness()
  })
  afterAll(() => hh.close())

  test('is_overdue turns true the day after the due date, with days_overdue counting UTC days; paid, cancelled, Drafts and Quotes never are', async () => {
    hh.clock.set('2026-05-01T12:00:00.000Z')
    const s = await setup({ payment_terms: 10 }, hh)
    const doc = await issued(s, (await made(s, {}, hh)).id, hh)
    expect(doc).toMatchObject({
      issue_date: '2026-05-01',
      due_date: '2026-05-11',
      is_overdue: false,
      days_overdue: null,
    })
    const cancelled = await issued(s, (await made(s, {}, hh)).id, hh)
    expect((await hh.request('POST', `/v1/documents/${cancelled.id}/cancel`, { key: s.key })).status).toBe(200)
    const quote = await issued(s, (await made(s, { type: 'quote' }, hh)).id, hh)
    const pro = await issued(s, (await made(s, { type: 'proforma' }, hh)).id, hh)
    const draft = await made(s, { due_date: '2026-05-02' }, hh)
    const look = async (id: number) => (await hh.request('GET', `/v1/documents/${id}`, { key: s.key })).body

    hh.clock.set('2026-05-11T23:59:00.000Z') // the due date itself: not yet overdue
    expect(await look(doc.id)).toMatchObject({ is_overdue: false, days_overdue: null })
    hh.clock.set('2026-05-12T00:00:01.000Z')
    expect(await look(doc.id)).toMatchObject({ is_overdue: true, days_overdue: 1 })
    expect(await look(pro.id)).toMatchObject({ is_overdue: true, days_overdue: 1 })
    hh.clock.set('2026-05-31T08:00:00.000Z')
    expect(await look(doc.id)).toMatchObject({ is_overdue: true, days_overdue: 20 })
    for (const id of [cancelled.id, quote.id, draft.id])
      expect(await look(id)).toMatchObject({ is_overdue: false, days_overdue: null })
    // A converted Proforma is no longer overdue; its Invoice carries the debt.
    const conv = await hh.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key })
    expect(conv.status).toBe(201)
    expect(await look(pro.id)).toMatchObject({ is_overdue: false, days_overdue: null })
  })

  test('the issue date is the UTC day: at 23:30 UTC it is still that day, and a minute past midnight the next', async () => {
    hh.clock.set('2026-07-04T23:30:00.000Z')
    const s = await setup({ payment_terms: 0 }, hh)
    const a = await issued(s, (await made(s, {}, hh)).id, hh)
    expect(a).toMatchObject({ issue_date: '2026-07-04', due_date: '2026-07-04', delivery_date: '2026-07-04' })
    hh.clock.set('2026-07-05T00:01:00.000Z')
    const b = await issued(s, (await made(s, {}, hh)).id, hh)
    expect(b).toMatchObject({ issue_date: '2026-07-05', document_number: 'INV-2026-0002' })
  })
})
