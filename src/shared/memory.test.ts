// Handing memory back on idle must leave the service whole: the next requests read and write as before.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'
import { handBackMemory } from './memory'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

test('after the idle hand-back (GC, shrink, malloc_trim) the service still reads and writes', async () => {
  const b = await h.business()
  const body = { name: 'Before', email: 'before@example.com', country: 'DE' }
  expect((await h.request('POST', '/v1/clients', { key: b.key, body })).status).toBe(201)
  await h.deps.db.shrinkMemory()
  handBackMemory()
  handBackMemory()
  expect((await h.request('POST', '/v1/clients', { key: b.key, body: { ...body, name: 'After' } })).status).toBe(201)
  const list = await h.request('GET', '/v1/clients', { key: b.key })
  expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Before', 'After'])
})
