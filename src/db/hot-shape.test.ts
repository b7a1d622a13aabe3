// The hot reader's rows (db/hot-shape.ts) must be the rows drizzle gives for the same fields and condition: every
// value decoded the same way (booleans, NULLs, minor units read as text at the 15-digit limit, 0- and 3-decimal
// currencies), in the same order. Compared field by field against the query builder on the same database; and the
// reports, whose queries go through hotAll from the reader, answer what they answer inside a transaction.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../test/harness'
import { bandsOf, findDocument, linesOf, listDocuments } from '../modules/documents/documents.repo'
import { findClient, findClients, listClients, listClientsHot, loadClient } from '../modules/clients/clients.repo'
import { findBusinessByPublicId } from '../modules/business/business.repo'
import { clientStatement, incomeReport, overdueReport, vatReport } from '../modules/reports'
import { hotAll, hotFor } from './hot-shape'

let h: Harness
let business = 0
let docIds: number[] = []
let clientIds: number[] = []
/** Every Business made, with its currency and Client: the reports are compared in each. */
const made: { id: number; publicId: string; currency: string; client: number }[] = []

async function ok(method: string, path: string, key: string, body?: unknown): Promise<any> {
  const r = await h.request(method, path, { key, body })
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.body
}

beforeAll(async () => {
  h = await makeHarness()
  if (!h.deps.db.hot) throw new Error('these tests need the native file driver (the hot reader)')
  for (const currency of ['EUR', 'JPY', 'KWD']) {
    const b = await h.business({ currency })
    business = b.id
    const c = await ok('POST', '/v1/clients', b.key, {
      name: 'Ünïcode Client',
      email: 'c@client.example',
      country: 'DE',
      address: 'Straße 1',
      notes: null,
    })
    clientIds = [c.id]
    made.push({ id: b.id, publicId: b.publicId, currency, client: c.id })
    // 15 integer digits, the contract's largest amount, and a small one with every decimal the currency has.
    const big =
      currency === 'EUR' ? '999999999999000.99' : currency === 'JPY' ? '999999999999000' : '999999999999000.999'
    const draft = await ok('POST', '/v1/documents', b.key, {
      type: 'invoice',
      client_id: c.id,
      notes: 'Thanks',
      lines: [
        { description: 'Large', quantity: '1', unit_price: big, vat_rate: '0' },
        {
          description: 'Small',
          quantity: '3',
          unit_price: currency === 'JPY' ? '7' : currency === 'KWD' ? '0.007' : '0.07',
          vat_rate: '19.00',
        },
      ],
    })
    const issued = await ok('POST', `/v1/documents/${draft.id}/issue`, b.key)
    await ok('POST', `/v1/documents/${draft.id}/payments`, b.key, {
      amount: currency === 'JPY' ? '5' : '0.5',
      payment_date: issued.issue_date,
      payment_method: 'cash',
    })
    const second = await ok('POST', '/v1/documents', b.key, {
      type: 'quote',
      client_id: c.id,
      lines: [{ description: 'Q', quantity: '2', unit_price: '10', vat_rate: '7.00' }],
    })
    docIds = [draft.id, second.id]
  }
})
afterAll(() => h.close())

describe('reads through the hot reader give the rows drizzle gives', () => {
  test('a document (booleans, NULLs, numeric columns as exact text), its Lines and its VAT bands', async () => {
    const { read, hot } = h.deps.db
    for (const id of docIds) {
      const viaHot = await findDocument(read, business, id, hot)
      expect(viaHot).toBeDefined()
      expect(viaHot).toEqual((await findDocument(read, business, id))!)
      expect(Object.keys(viaHot!)).toEqual(Object.keys((await findDocument(read, business, id))!))
    }
    expect(await linesOf(read, docIds, hot)).toEqual(await linesOf(read, docIds))
    const bands = (m: Map<number, unknown[]>) =>
      [...m].map(([k, v]) => [k, [...v].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))])
    expect(bands(await bandsOf(read, docIds, hot))).toEqual(bands(await bandsOf(read, docIds)))
    expect(await findDocument(read, business, 999_999, hot)).toBeUndefined()
    expect(await findDocument(read, business + 1, docIds[0]!, hot)).toBeUndefined()
  })

  test('a list page, with each filter and a search, and a Client set', async () => {
    const { read, hot } = h.deps.db
    const filters = [
      {},
      { type: 'invoice' as const },
      { status: 'draft' as const },
      { clientId: clientIds[0]! },
      { issueDateFrom: '2026-01-01', issueDateTo: '2026-12-31' },
      { search: 'ünïcode' },
      { search: 'nothing' },
    ]
    for (const f of filters) {
      const viaHot = await listDocuments(read, business, 0, 100, f, hot)
      expect(viaHot).toEqual(await listDocuments(read, business, 0, 100, f))
    }
    expect((await listDocuments(read, business, 0, 1, {}, hot)).map((d) => d.id)).toEqual([docIds[0]!])
    expect(await listDocuments(read, business, docIds[0]!, 100, {}, hot)).toEqual(
      await listDocuments(read, business, docIds[0]!, 100, {}),
    )
    expect(await findClients(read, business, [...clientIds, 999_999], hot)).toEqual(
      await findClients(read, business, [...clientIds, 999_999]),
    )
  })

  test("a Client by id, and a page of Clients (which gives search_text as '')", async () => {
    const { read, hot } = h.deps.db
    expect(await loadClient(h.deps.db, business, clientIds[0]!)).toEqual(
      (await findClient(read, business, clientIds[0]!))!,
    )
    expect(await loadClient(h.deps.db, business, 999_999)).toBeUndefined()
    const viaDrizzle = (await listClients(read, business, 0, 100)).map((c) => ({ ...c, searchText: '' }))
    expect(listClientsHot(hot!, business, 0, 100)).toEqual(viaDrizzle)
    expect(listClientsHot(hot!, business, 0, 100, 'ÜNÏCODE')).toEqual(viaDrizzle)
  })

  test('inside a transaction there is no hot reader: its own writes are seen only through it', async () => {
    expect(hotFor(h.deps.db, h.deps.db.read)).toBe(h.deps.db.hot)
    await h.deps.db.write(async (tx) => expect(hotFor(h.deps.db, tx)).toBeNull())
  })

  test('a Business by its public id, as every page of the application finds it', async () => {
    const { read, hot } = h.deps.db
    for (const b of made) {
      const viaHot = await findBusinessByPublicId(read, b.publicId, hot)
      expect(viaHot?.id).toBe(b.id)
      expect(viaHot).toEqual((await findBusinessByPublicId(read, b.publicId))!)
    }
    expect(await findBusinessByPublicId(read, 'no-such-business', hot)).toBeUndefined()
  })

  test('the reports (read through hotAll from the reader) answer what they answer inside a transaction, where there is none', async () => {
    const { read } = h.deps.db
    const period = { from: '2000-01-01', to: '2099-12-31' }
    const today = '2099-12-31'
    for (const b of made) {
      const business = { id: b.id, currency: b.currency }
      const viaHot = await Promise.all([
        incomeReport(read, business, period),
        vatReport(read, business, period),
        overdueReport(read, business, today),
        clientStatement(read, b.id, b.client, period),
      ])
      const inTx = await h.deps.db.write(async (tx) => {
        expect(hotAll(tx, sql`SELECT 1 AS one`)).toBeNull()
        return Promise.all([
          incomeReport(tx, business, period),
          vatReport(tx, business, period),
          overdueReport(tx, business, today),
          clientStatement(tx, b.id, b.client, period),
        ])
      })
      expect(viaHot).toEqual(inTx)
      // The 15-digit Invoice is in every figure, so a value read as a JS number would have shown.
      expect(viaHot[0].income).toStartWith('999999999999')
    }
    expect(hotAll(read, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }])
  })
})
