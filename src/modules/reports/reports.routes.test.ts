// The reports' query rules and access over HTTP: a period missing, malformed or reversed is 422 naming the field;
// every Role reads; no credential is 401; each answer matches the OpenAPI document (the harness checks).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { Api, expectInvalid } from './fixtures'

let h: Harness
let api: Api

beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
  api = new Api(h, (await h.business({ currency: 'EUR' })).key)
})
afterAll(() => h.close())

describe.each(['income', 'vat'])('GET /v1/reports/%s period rules', (report) => {
  const path = `/v1/reports/${report}`
  test('both days are required', async () => {
    expectInvalid(await api.get(path), 'from', 'to')
    expectInvalid(await api.get(`${path}?from=2026-01-01`), 'to')
    expectInvalid(await api.get(`${path}?to=2026-01-01`), 'from')
    expectInvalid(await api.get(`${path}?from=&to=2026-01-01`), 'from')
  })

  test('a day not written YYYY-MM-DD, or not on the calendar, is refused under its name', async () => {
    expectInvalid(await api.get(`${path}?from=2026-1-01&to=2026-01-31`), 'from')
    expectInvalid(await api.get(`${path}?from=01.01.2026&to=2026-01-31`), 'from')
    expectInvalid(await api.get(`${path}?from=2026-01-01&to=2026-01-31T00:00:00Z`), 'to')
    expectInvalid(await api.get(`${path}?from=2026-02-30&to=2026-03-31`), 'from')
    expectInvalid(await api.get(`${path}?from=2026-01-01&to=2026-13-01`), 'to')
  })

  test('`to` before `from` is refused under `to`; the same day is a period of one day', async () => {
    const r = await api.get(`${path}?from=2026-02-02&to=2026-02-01`)
    expectInvalid(r, 'to')
    expect(r.body.error.errors.to[0]).toContain('before')
    expect((await api.get(`${path}?from=2026-02-01&to=2026-02-01`)).status).toBe(200)
  })
})

describe('access', () => {
  test('every Role reads every report', async () => {
    const b = await h.business()
    const c = await new Api(h, b.key).client('Any')
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const key = await h.key(b.id, role)
      for (const path of [
        '/v1/reports/income?from=2026-01-01&to=2026-12-31',
        '/v1/reports/vat?from=2026-01-01&to=2026-12-31',
        '/v1/reports/overdue',
        `/v1/reports/statement?client_id=${c}&from=2026-01-01&to=2026-12-31`,
      ]) {
        expect((await h.request('GET', path, { key })).status).toBe(200)
      }
    }
  })

  test('no credential is 401; writing to a report is not a method it has', async () => {
    expect((await h.request('GET', '/v1/reports/overdue')).status).toBe(401)
    expect((await h.request('POST', '/v1/reports/overdue', { key: api.key, body: {} })).status).toBe(405)
  })

  test("the reporting currency is the Business's", async () => {
    const b = new Api(h, (await h.business({ currency: 'GBP' })).key)
    expect((await b.report('/v1/reports/income?from=2026-01-01&to=2026-01-31')).currency).toBe('GBP')
    expect((await b.report('/v1/reports/vat?from=2026-01-01&to=2026-01-31')).currency).toBe('GBP')
    expect((await b.report('/v1/reports/overdue')).currency).toBe('GBP')
  })
})
