// Kept list pages never outlive the rows they were built from, whoever changes them, and never cross Businesses.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Database from 'libsql'
import { join } from 'node:path'
import { makeHarness, type Harness } from '../../test/harness'
import { PageCache } from './page-cache'

describe('PageCache', () => {
  test('a page is answered again only while the database version it was built at is current', () => {
    let version = 1
    const pages = new PageCache(() => version)
    const v = pages.current()
    pages.put('a', '{"data":[1]}', v)
    expect(pages.current()).toBe(1)
    expect(pages.get('a')).toBe('{"data":[1]}')
    version = 2
    pages.current()
    expect(pages.get('a')).toBeUndefined()
  })

  test('a page built at a version that has since changed is not kept', () => {
    let version = 1
    const pages = new PageCache(() => version)
    const v = pages.current()
    version = 2
    pages.current()
    pages.put('a', 'old', v)
    expect(pages.get('a')).toBeUndefined()
  })

  test('the text kept stays within its bound, the least recently used page leaving first', () => {
    const pages = new PageCache(() => 1, 100)
    const v = pages.current()
    pages.put('a', 'x'.repeat(20), v)
    pages.put('b', 'y'.repeat(20), v)
    pages.put('c', 'z'.repeat(20), v)
    pages.put('d', 'w'.repeat(20), v)
    expect(pages.get('a')).toBeDefined() // a is now the most recently used
    pages.put('e', 'v'.repeat(25), v) // 105 > 100: the least recently used (b) leaves
    expect(pages.get('b')).toBeUndefined()
    expect(pages.get('a')).toBeDefined()
    expect(pages.get('e')).toBeDefined()
    // A page larger than a quarter of the bound is never kept.
    pages.put('big', 'q'.repeat(26), v)
    expect(pages.get('big')).toBeUndefined()
  })
})

describe('kept list pages over HTTP', () => {
  let h: Harness
  let biz: { id: number; key: string }
  let other: { id: number; key: string }
  const client = (name: string) => ({
    name,
    email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
    country: 'DE',
  })

  beforeAll(async () => {
    h = await makeHarness()
    biz = await h.business()
    other = await h.business()
    for (const n of ['Alpha', 'Beta'])
      expect((await h.request('POST', '/v1/clients', { key: biz.key, body: client(n) })).status).toBe(201)
    expect((await h.request('POST', '/v1/clients', { key: other.key, body: client('Gamma') })).status).toBe(201)
  })
  afterAll(() => h.close())

  const names = async (key: string, path = '/v1/clients?limit=100') => {
    const res = await h.request('GET', path, { key })
    expect(res.status).toBe(200)
    return (res.body.data as { name: string }[]).map((c) => c.name)
  }

  test('the same page asked twice is answered with the same bytes', async () => {
    const a = await h.request('GET', '/v1/clients?limit=100', { key: biz.key })
    const b = await h.request('GET', '/v1/clients?limit=100', { key: biz.key })
    expect(b.text).toBe(a.text)
    expect(b.headers.get('content-type')).toContain('application/json')
  })

  test('an update through the API shows on the next page at once', async () => {
    expect(await names(biz.key)).toEqual(['Alpha', 'Beta'])
    const id = (await h.request('GET', '/v1/clients?limit=1', { key: biz.key })).body.data[0].id
    expect(
      (await h.request('PATCH', `/v1/clients/${id}`, { key: biz.key, body: { name: 'Alpha Renamed' } })).status,
    ).toBe(200)
    expect(await names(biz.key)).toEqual(['Alpha Renamed', 'Beta'])
  })

  test('a commit by another connection (the CLI, another server on the file) shows on the next page at once', async () => {
    expect(await names(biz.key)).toContain('Beta')
    const outside = new Database(join(h.dir, 'test.db'))
    try {
      outside.prepare("UPDATE clients SET name = 'Beta Outside' WHERE business_id = ? AND name = 'Beta'").run(biz.id)
    } finally {
      outside.close()
    }
    expect(await names(biz.key)).toEqual(['Alpha Renamed', 'Beta Outside'])
  })

  test("the same URL asked by another Business answers that Business's rows only", async () => {
    expect(await names(biz.key)).toEqual(['Alpha Renamed', 'Beta Outside'])
    expect(await names(other.key)).toEqual(['Gamma'])
    expect(await names(biz.key)).toEqual(['Alpha Renamed', 'Beta Outside'])
  })

  test('a deleted Product leaves the kept Product page at once', async () => {
    const p = await h.request('POST', '/v1/products', {
      key: biz.key,
      body: { name: 'Widget', type: 'product', price: '10.00', currency: 'EUR' },
    })
    expect(p.status).toBe(201)
    expect((await h.request('GET', '/v1/products', { key: biz.key })).body.data).toHaveLength(1)
    expect((await h.request('DELETE', `/v1/products/${p.body.id}`, { key: biz.key })).status).toBe(204)
    expect((await h.request('GET', '/v1/products', { key: biz.key })).body.data).toHaveLength(0)
  })

  test('a refused page (a foreign cursor) is never kept: the error is answered each time', async () => {
    const first = await h.request('GET', '/v1/clients?limit=1', { key: other.key })
    expect(first.body.next_cursor).toBeNull()
    const page = await h.request('GET', '/v1/clients?limit=1', { key: biz.key })
    const cursor = page.body.next_cursor as string
    for (let i = 0; i < 2; i++) {
      const res = await h.request('GET', `/v1/clients?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: other.key })
      expect(res.status).toBe(422)
      expect(res.body.error.errors.cursor).toBeDefined()
    }
  })
})
