// Imports of Clients and Products over HTTP against a real temp-file database (extensions §19): CSV quoting, every
// row or none, faults keyed rows.N.field, the limits, and the create endpoints' own rules.
import { describe, expect, test } from 'bun:test'
import { allPages, harnessForFile, type Harness, type TestResponse } from '../../../test/harness'

let h: Harness
harnessForFile((made) => (h = made), { validVat: ['DE123456789'], freshMinute: true })

function upload(
  path: '/v1/imports/clients' | '/v1/imports/products',
  key: string,
  csv: string,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return h.request('POST', path, { key, raw: csv, headers: { 'content-type': 'text/csv', ...headers } })
}
const importClients = (key: string, csv: string, headers?: Record<string, string>) =>
  upload('/v1/imports/clients', key, csv, headers)
const importProducts = (key: string, csv: string, headers?: Record<string, string>) =>
  upload('/v1/imports/products', key, csv, headers)

const clientsOf = (key: string) => allPages(h, '/v1/clients', key, {})
const productsOf = (key: string) => allPages(h, '/v1/products', key, {})

/** Expects a 422 invalid_request whose field errors are exactly `fields` (and answers them). */
function refusedUnder(r: TestResponse, fields: string[]): Record<string, string[]> {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  expect(Object.keys(r.body.error.errors).sort()).toEqual([...fields].sort())
  return r.body.error.errors
}

describe('CSV files as spreadsheets write them', () => {
  test('quoted fields with commas, doubled quotes and line breaks inside, a BOM and CRLF rows are read as written', async () => {
    const biz = await h.business()
    const csv =
      '\uFEFFname,email,country,address,notes\r\n' +
      '"Acme, GmbH",billing@acme.example,DE,"Hauptstraße 1\r\n10115 Berlin","She said ""pay on time"""\r\n' +
      'Plain Ltd,ap@plain.example,GB,,\r\n'
    const r = await importClients(biz.key, csv)
    expect(r.status).toBe(201)
    expect(r.body.created).toBe(2)
    expect(r.body.ids).toHaveLength(2)
    const [acme, plain] = await clientsOf(biz.key)
    expect(acme).toMatchObject({
      id: r.body.ids[0],
      name: 'Acme, GmbH',
      email: 'billing@acme.example',
      country: 'DE',
      address: 'Hauptstraße 1\r\n10115 Berlin',
      notes: 'She said "pay on time"',
    })
    // Empty cells leave their fields out, so the create endpoint's defaults apply.
    expect(plain).toMatchObject({ id: r.body.ids[1], name: 'Plain Ltd', address: null, notes: null, currency: 'EUR' })
    expect(plain.payment_terms).toBe(30)
  })

  test('a file separated by semicolons is read by its header, a comma in an unquoted cell kept as text', async () => {
    const biz = await h.business()
    const r = await importClients(
      biz.key,
      'name;email;country;address;payment_terms\nMüller & Co;m@mueller.example;DE;Weg 5, Hinterhaus;14\n',
    )
    expect(r.status).toBe(201)
    const [c] = await clientsOf(biz.key)
    expect(c).toMatchObject({ name: 'Müller & Co', address: 'Weg 5, Hinterhaus', payment_terms: 14 })
  })

  test('typed fields are read by the create body: whole numbers, lists of ids, a nested electronic address', async () => {
    const biz = await h.business()
    const account = await h.bankAccount(biz.id)
    const r = await importClients(
      biz.key,
      `name,email,country,payment_terms,preferred_bank_account_ids,electronic_address.scheme,electronic_address.value,credit_limit,vat_number\nTyped AG,t@typed.example,DE,7,${account},9930,DE123456789,1500.50,DE123456789\n`,
    )
    expect(r.status).toBe(201)
    const [c] = await clientsOf(biz.key)
    expect(c).toMatchObject({
      payment_terms: 7,
      preferred_bank_account_ids: [account],
      electronic_address: { scheme: '9930', value: 'DE123456789' },
      credit_limit: '1500.50',
      // The same VIES check as a create.
      vat_verified: true,
    })
  })

  test('a quoted field never closed is 422 naming the body, nothing created', async () => {
    const biz = await h.business()
    const r = await importClients(biz.key, 'name,email,country\n"Open,o@open.example,DE\n')
    const errors = refusedUnder(r, ['body'])
    expect(errors.body![0]).toContain('never closed')
    expect(await clientsOf(biz.key)).toHaveLength(0)
  })

  test('a row with more or fewer cells than the header is 422 naming that row', async () => {
    const biz = await h.business()
    const r = await importClients(biz.key, 'name,email,country\nA,a@a.example,DE\nB,b@b.example\n')
    refusedUnder(r, ['rows.2'])
    expect(await clientsOf(biz.key)).toHaveLength(0)
  })
})

describe('every row or none', () => {
  test('one refused row refuses the whole import with faults keyed rows.N.field, and nothing is created', async () => {
    const biz = await h.business()
    const csv = [
      'name,email,country,payment_terms',
      'Good One,one@good.example,DE,30',
      'Bad Mail,not-an-email,DE,30',
      'Bad Country,c@bad.example,XX,30',
      ',,DE,',
      'Bad Terms,t@bad.example,DE,thirty',
      'Good Two,two@good.example,FR,',
    ].join('\n')
    const errors = refusedUnder(await importClients(biz.key, csv), [
      'rows.2.email',
      'rows.3.country',
      'rows.4.email',
      'rows.4.name',
      'rows.5.payment_terms',
    ])
    // The create endpoint's own words.
    expect(errors['rows.2.email']).toEqual(['must be an email address'])
    expect(errors['rows.4.name']).toEqual(['is required when legal_name is blank'])
    expect(await clientsOf(biz.key)).toHaveLength(0)
  })

  test('a code two rows name is the later row’s fault, answered with every other row’s faults before anything is written', async () => {
    const biz = await h.business()
    const csv = [
      'name,email,country,account_code',
      'A,a@a.example,DE,C00042',
      'B,not-an-email,DE,',
      'C,c@c.example,DE, C00042 ',
      'D,d@d.example,DE,C00043',
      'E,e@e.example,DE,C00042',
    ].join('\n')
    const errors = refusedUnder(await importClients(biz.key, csv), [
      'rows.2.email',
      'rows.3.account_code',
      'rows.5.account_code',
    ])
    expect(errors['rows.3.account_code']).toEqual(['is held by another Client: row 1 of this file names it too'])
    expect(errors['rows.5.account_code']).toEqual(['is held by another Client: row 1 of this file names it too'])
    expect(await clientsOf(biz.key)).toHaveLength(0)
  })

  test('a fault only the transaction sees (a row naming the code an earlier row was given) rolls every row back', async () => {
    const biz = await h.business()
    // Row 1 names no code and is given the pattern's first, C00001, inside the transaction; row 2 names that one.
    const csv = 'name,email,country,account_code\nA,a@a.example,DE,\nB,b@b.example,DE,C00001\n'
    const errors = refusedUnder(await importClients(biz.key, csv), ['rows.2.account_code'])
    expect(errors['rows.2.account_code']![0]).toContain('held by another Client')
    expect(await clientsOf(biz.key)).toHaveLength(0)
  })

  test('a column naming no field of the create body is 422 naming it', async () => {
    const biz = await h.business()
    const errors = refusedUnder(await importClients(biz.key, 'name,email,country,colour\nA,a@a.example,DE,red\n'), [
      'header.colour',
    ])
    expect(errors['header.colour']![0]).toContain('colour')
  })

  test('an answer field (id, vat_verified) or an object field without its part is no column of the create body', async () => {
    const biz = await h.business()
    refusedUnder(
      await importClients(
        biz.key,
        'id,name,email,country,vat_verified,electronic_address\n1,A,a@a.example,DE,true,x\n',
      ),
      ['header.id', 'header.vat_verified', 'header.electronic_address'],
    )
  })

  test('a header only, or an empty body, is 422 and creates nothing', async () => {
    const biz = await h.business()
    refusedUnder(await importClients(biz.key, 'name,email,country\n'), ['rows'])
    refusedUnder(await importClients(biz.key, ''), ['body'])
  })

  test('a NUL character in a cell is 422 naming its row and field', async () => {
    const biz = await h.business()
    refusedUnder(await importClients(biz.key, 'name,email,country\nA\u0000B,a@a.example,DE\n'), ['rows.1.name'])
  })
})

describe('the limits of §19', () => {
  test('10,000 rows are imported in one go; 10,001 are 422 under rows, nothing created', async () => {
    const biz = await h.business()
    const rows = (n: number) =>
      `name,email,country\n${Array.from({ length: n }, (_, i) => `Client ${i},c${i}@bulk.example,DE`).join('\n')}\n`
    const refused = await importClients(biz.key, rows(10_001))
    const errors = refusedUnder(refused, ['rows'])
    expect(errors.rows![0]).toContain('10,000')
    expect(await clientsOf(biz.key)).toHaveLength(0)
    const r = await importClients(biz.key, rows(10_000))
    expect(r.status).toBe(201)
    expect(r.body.created).toBe(10_000)
    expect(new Set(r.body.ids).size).toBe(10_000)
  }, 60_000)

  test('a file over 10 MB is 413 invalid_request, declared or sent without a length', async () => {
    const biz = await h.business()
    const big = `name,email,country\n${'x'.repeat(10 * 1024 * 1024)}\n`
    const r = await importClients(biz.key, big)
    expect(r.status).toBe(413)
    expect(r.body.error.type).toBe('invalid_request')
    expect(r.body.error.message).toContain('10 MB')
    // Chunked, so only the reader's own count can refuse it.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big))
        c.close()
      },
    })
    const res = await h.app.fetch(
      new Request('http://localhost/v1/imports/clients', {
        method: 'POST',
        headers: { authorization: `Bearer ${biz.key}`, 'content-type': 'text/csv' },
        body: stream,
      }),
    )
    expect(res.status).toBe(413)
    expect(await clientsOf(biz.key)).toHaveLength(0)
  }, 30_000)

  test('a body that is not text/csv is 415 naming text/csv', async () => {
    const biz = await h.business()
    const r = await importClients(biz.key, '{"name":"A"}', { 'content-type': 'application/json' })
    expect(r.status).toBe(415)
    expect(r.body.error.message).toContain('text/csv')
  })
})

describe('access and idempotency', () => {
  test('a Viewer key is 403 and creates nothing; a Member key imports', async () => {
    const biz = await h.business()
    const viewer = await h.key(biz.id, 'viewer')
    const member = await h.key(biz.id, 'member')
    const csv = 'name,email,country\nA,a@a.example,DE\n'
    expect((await importClients(viewer, csv)).status).toBe(403)
    expect(await clientsOf(biz.key)).toHaveLength(0)
    expect((await importClients(member, csv)).status).toBe(201)
  })

  test('the same Idempotency-Key and file replays the first answer and creates nothing twice', async () => {
    const biz = await h.business()
    const csv = 'name,email,country\nA,a@a.example,DE\nB,b@b.example,DE\n'
    const first = await importClients(biz.key, csv, { 'idempotency-key': 'import-1' })
    const again = await importClients(biz.key, csv, { 'idempotency-key': 'import-1' })
    expect(first.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await clientsOf(biz.key)).toHaveLength(2)
  })

  test("imported records are the importing Business's alone", async () => {
    const biz = await h.business()
    const other = await h.business()
    const r = await importClients(biz.key, 'name,email,country\nMine,m@m.example,DE\n')
    expect((await h.request('GET', `/v1/clients/${r.body.ids[0]}`, { key: other.key })).status).toBe(404)
    expect(await clientsOf(other.key)).toHaveLength(0)
  })
})

describe('importing Products', () => {
  test('Products are created with the create endpoint’s types and defaults, codes made for rows without one', async () => {
    const biz = await h.business()
    const csv =
      'name,type,price,currency,vat_rate,vat_included,code,unit,track_inventory,stock_quantity\n' +
      'Consulting hour,service,120.00,EUR,19,false,,hour,,\n' +
      'Widget,product,9.99,EUR,,TRUE,W-1,,true,40\n'
    const r = await importProducts(biz.key, csv)
    expect(r.status).toBe(201)
    const [hour, widget] = await productsOf(biz.key)
    expect(hour).toMatchObject({ name: 'Consulting hour', type: 'service', price: '120.00', vat_rate: '19.00' })
    expect(hour.code).toMatch(/^P\d{5}/)
    expect(widget).toMatchObject({
      code: 'W-1',
      vat_included: true,
      vat_rate: '0.00',
      unit: 'pcs',
      track_inventory: true,
      stock_quantity: 40,
    })
  })

  test('a refused Product row (too many decimals for its currency, a type not offered, a code twice) creates none', async () => {
    const biz = await h.business()
    const csv =
      'name,type,price,currency,code\n' +
      'Fine,service,10.00,EUR,X-1\n' +
      'Yen,product,10.5,JPY,\n' +
      'Odd,gadget,1.00,EUR,\n' +
      'Twin,service,1.00,EUR,X-1\n'
    // The second X-1 is named with the other rows' faults, not left for the transaction to find after them.
    const errors = refusedUnder(await importProducts(biz.key, csv), ['rows.2.price', 'rows.3.type', 'rows.4.code'])
    expect(errors['rows.2.price']![0]).toContain('JPY')
    expect(errors['rows.4.code']).toEqual(['is held by another Product: row 1 of this file names it too'])
    expect(await productsOf(biz.key)).toHaveLength(0)
    const twin = await importProducts(
      biz.key,
      'name,type,price,currency,code\nFine,service,10.00,EUR,X-1\nTwin,service,1.00,EUR,X-1\n',
    )
    refusedUnder(twin, ['rows.2.code'])
    expect(await productsOf(biz.key)).toHaveLength(0)
    // Letter case tells codes apart, as the create endpoint does.
    const cased = await importProducts(
      biz.key,
      'name,type,price,currency,code\nFine,service,10.00,EUR,X-1\nOther,service,1.00,EUR,x-1\n',
    )
    expect(cased.status, cased.text).toBe(201)
  })
})
