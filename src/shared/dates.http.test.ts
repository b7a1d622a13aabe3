// The date rules of shared/dates.ts as the API applies them: early years are real dates, impossible days are refused.
import { describe, expect, test } from 'bun:test'
import { issuedFor, type Harness } from '../../test/harness'
import { oneClientForFile } from '../../test/documents-kit'

let h: Harness
let biz: { id: number; key: string }
let clientId: number
oneClientForFile({ name: 'Early Client', email: 'early@client.example' }, (made) => ({ h, biz, clientId } = made))

describe('dates in the years 0000 to 0099', () => {
  test('a Payment dated 0099-01-01 is recorded with that date', async () => {
    const d = await issuedFor(
      h,
      { bizId: biz.id, key: biz.key, clientId },
      {
        lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }],
      },
    )
    const p = await h.request('POST', `/v1/documents/${d.id}/payments`, {
      key: biz.key,
      body: { amount: '1.00', payment_date: '0099-01-01', payment_method: 'cash' },
    })
    expect(p.status).toBe(201)
    expect(p.body.payment_date).toBe('0099-01-01')
  })

  test('a report from 0050-01-01 is answered, not refused as "must be a real date"', async () => {
    const r = await h.request('GET', '/v1/reports/income?from=0050-01-01&to=2026-12-31', { key: biz.key })
    expect(r.status).toBe(200)
    const bad = await h.request('GET', '/v1/reports/income?from=0050-02-29&to=2026-12-31', { key: biz.key })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.error.errors)).toEqual(['from'])
  })
})

describe('request-log timestamps', () => {
  test('from or to on an impossible day (2026-02-30) is 422 naming it, not read as 2026-03-02', async () => {
    for (const name of ['from', 'to']) {
      const r = await h.request('GET', `/v1/request-log?${name}=${encodeURIComponent('2026-02-30T00:00:00Z')}`, {
        key: biz.key,
      })
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toEqual([name])
    }
    const ok = await h.request('GET', `/v1/request-log?from=${encodeURIComponent('2026-02-28T00:00:00Z')}`, {
      key: biz.key,
    })
    expect(ok.status).toBe(200)
  })
})
