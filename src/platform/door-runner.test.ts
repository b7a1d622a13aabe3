// The door runner's own entry, as a door that names operations (the application's pages) calls it: by name, for an
// Actor, with the input read from a form; the Role judged, a keyed call kept and replayed in the API's key space.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'
import { sql } from 'drizzle-orm'
import { apiKeyResolver } from '../modules/business'
import { operations } from '../operations'
import type { Actor } from './actor'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

async function actorOf(key: string): Promise<Actor> {
  return (await apiKeyResolver(h.deps.db.read, h.deps.db.hot).resolve(key, 'api'))!
}

describe('DoorRunner.call: an operation by name, an input and an Actor', () => {
  test('runs the operation and answers its Result; the API reads what it made', async () => {
    const b = await h.business()
    const r = await h.app.runner.call('clients_create', await actorOf(b.key), {
      body: { name: 'Paged', email: 'paged@example.com', country: 'DE' },
    })
    expect(r.kind).toBe('json')
    const id = (r as { value: { id: number } }).value.id
    const api = await h.request('GET', `/v1/clients/${id}`, { key: b.key })
    expect(api.status).toBe(200)
    expect(api.body.name).toBe('Paged')
  })

  test("judges the Role: a Viewer calling a write is refused with the contract's permission error, nothing made", async () => {
    const b = await h.business()
    const viewer = await h.key(b.id, 'viewer')
    const refused = await h.app.runner
      .call('clients_create', await actorOf(viewer), { body: { name: 'No', email: 'no@example.com', country: 'DE' } })
      .catch((e) => e)
    expect(refused.type).toBe('permission')
    expect((await h.request('GET', '/v1/clients', { key: b.key })).body.data.length).toBe(0)
  })

  test("a keyed call shares the credential's key space with the API: the API resend replays its answer byte for byte", async () => {
    const b = await h.business()
    const body = { name: 'Keyed', email: 'keyed@example.com', country: 'DE' }
    const r = await h.app.runner.call('clients_create', await actorOf(b.key), { body }, 'runner-key')
    expect(r.kind).toBe('text')
    const api = await h.request('POST', '/v1/clients', {
      key: b.key,
      body,
      headers: { 'Idempotency-Key': 'runner-key' },
    })
    expect(api.status).toBe(201)
    expect(api.headers.get('Idempotent-Replayed')).toBe('true')
    expect(api.text).toBe((r as { text: string }).text)
  })

  test('an unknown name is a fault of the caller, not a request', async () => {
    const b = await h.business()
    await expect(h.app.runner.call('clients_frobnicate', await actorOf(b.key), {})).rejects.toThrow(
      'no operation named clients_frobnicate',
    )
  })
})

describe('keyed answers commit with their change', () => {
  test('every idempotent operation of the table declares the answer its change commits with', () => {
    const idempotent = operations.filter((op) => op.idempotent)
    expect(idempotent.length).toBeGreaterThanOrEqual(8)
    expect(idempotent.filter((op) => !op.committed).map((op) => op.name)).toEqual([])
  })

  test('a keyed document create stores, in its own transaction, the very bytes it answers', async () => {
    const b = await h.business()
    const client = await h.request('POST', '/v1/clients', {
      key: b.key,
      body: { name: 'Doc', email: 'doc@example.com', country: 'DE' },
    })
    const body = {
      type: 'invoice',
      client_id: client.body.id,
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }],
    }
    const r = await h.request('POST', '/v1/documents', {
      key: b.key,
      body,
      headers: { 'Idempotency-Key': 'doc-committed' },
    })
    expect(r.status).toBe(201)
    const rows = await h.deps.db.read.all<{ status: number; body: string }>(
      sql`SELECT status, body FROM idempotency_keys WHERE key = 'doc-committed'`,
    )
    expect(rows).toEqual([{ status: 201, body: r.text }])
  })
})
