// Paging the Client list over HTTP: default page size, filters across pages, and walks while Clients are created.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'

let h: Harness
let biz: { id: number; key: string }
const seeded: number[] = []

beforeAll(async () => {
  h = await makeHarness()
  biz = await h.business()
  for (let i = 0; i < 60; i++) {
    // Every third Client carries a searchable word, so a filtered walk spans several pages.
    const name = i % 3 === 0 ? `Needle ${i}` : `Hay ${i}`
    const r = await h.request('POST', '/v1/clients', {
      key: biz.key,
      body: { name, email: `c${i}@walk.example`, country: 'DE' },
    })
    expect(r.status).toBe(201)
    seeded.push(r.body.id)
  }
})
afterAll(() => h.close())
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
beforeEach(() => h.clock.advance(61_000))

async function page(key: string, query: Record<string, string>): Promise<{ data: any[]; next_cursor: string | null }> {
  const r = await h.request('GET', `/v1/clients?${new URLSearchParams(query)}`, { key })
  expect(r.status).toBe(200)
  return r.body
}

describe('paging the Client list', () => {
  test('without limit a page holds 25 Clients, oldest first, and the last page has no next_cursor', async () => {
    const sizes: number[] = []
    const ids: number[] = []
    let cursor: string | null = null
    do {
      const p = await page(biz.key, cursor ? { cursor } : {})
      sizes.push(p.data.length)
      ids.push(...p.data.map((c) => c.id))
      cursor = p.next_cursor
    } while (cursor)
    expect(sizes).toEqual([25, 25, 10])
    expect(ids).toEqual(seeded)
  })

  test('a page exactly as large as what is left answers next_cursor null', async () => {
    const first = await page(biz.key, { limit: '30' })
    const second = await page(biz.key, { limit: '30', cursor: first.next_cursor! })
    expect(second.data).toHaveLength(30)
    expect(second.next_cursor).toBeNull()
  })

  test('a search sent with every page walks only the matching Clients, each once', async () => {
    const ids: number[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const p = await page(biz.key, { search: 'NEEDLE', limit: '4', ...(cursor ? { cursor } : {}) })
      for (const c of p.data) expect(c.name).toStartWith('Needle')
      ids.push(...p.data.map((c) => c.id))
      cursor = p.next_cursor
      pages++
    } while (cursor)
    expect(ids).toEqual(seeded.filter((_, i) => i % 3 === 0))
    expect(pages).toBe(5)
  })

  test('a walk meets every Client exactly once while Clients are created meanwhile, the new ones only at its end', async () => {
    const walker = await h.key(biz.id, 'viewer', 'walker')
    const writer = await h.key(biz.id, 'member', 'writer')
    const before = (await page(walker, { limit: '100' })).data.map((c) => c.id)
    expect(before.length).toBeGreaterThanOrEqual(60)

    const seen: number[] = []
    const created: number[] = []
    /** Ids whose create had answered before the page that ended the walk was asked for. */
    let createdBeforeLastPage: number[] = []
    let cursor: string | null = null
    let n = 0
    do {
      const q: Record<string, string> = { limit: '7', ...(cursor ? { cursor } : {}) }
      createdBeforeLastPage = [...created]
      // Interleave: the page read and two creates run together.
      const [p, ...made] = await Promise.all([
        page(walker, q),
        h.request('POST', '/v1/clients', {
          key: writer,
          body: { name: `During ${n}a`, email: `d${n}a@walk.example`, country: 'AT' },
        }),
        h.request('POST', '/v1/clients', {
          key: writer,
          body: { name: `During ${n}b`, email: `d${n}b@walk.example`, country: 'AT' },
        }),
      ])
      for (const r of made) {
        expect(r.status).toBe(201)
        created.push(r.body.id)
      }
      seen.push(...p.data.map((c: any) => c.id))
      cursor = p.next_cursor
      n++
      expect(n).toBeLessThan(100)
    } while (cursor)

    // No duplicates, ascending (creation order).
    expect(new Set(seen).size).toBe(seen.length)
    expect([...seen].sort((a, b) => a - b)).toEqual(seen)
    // Every Client that existed before the walk is met, and they come first.
    expect(seen.slice(0, before.length)).toEqual(before)
    // What follows was created during the walk.
    const tail = seen.slice(before.length)
    for (const id of tail) expect(created).toContain(id)
    // Those created before the last page was asked for are all met.
    for (const id of createdBeforeLastPage) expect(seen).toContain(id)
  })

  test('a walk meets every Client once while Clients it already passed or has yet to reach are updated', async () => {
    const walker = await h.key(biz.id, 'viewer', 'walker 2')
    const all = (await page(walker, { limit: '100' })).data.map((c) => c.id)
    const seen: number[] = []
    let cursor: string | null = null
    let i = 0
    do {
      const q: Record<string, string> = { limit: '9', ...(cursor ? { cursor } : {}) }
      const target = all[(i * 13) % all.length]!
      const [p, upd] = await Promise.all([
        page(walker, q),
        h.request('PATCH', `/v1/clients/${target}`, { key: biz.key, body: { notes: `touched ${i}` } }),
      ])
      expect(upd.status).toBe(200)
      seen.push(...p.data.map((c: any) => c.id))
      cursor = p.next_cursor
      i++
    } while (cursor)
    expect(seen).toEqual(all)
  })
})
