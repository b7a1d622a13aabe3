// Security: codes, access and refresh tokens and client secrets appear in no log line (request lines on, errors too)
// and in no request-log row, whatever the token endpoint, the API and revocation were asked.
import { expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { connectApp, refreshAt } from '../../../test/oauth'
import { createLogger } from '../../shared/logger'
import { requestLog } from '../../db/schema'

const lines: string[] = []
let h: Harness
harnessForFile((made) => (h = made), {
  config: { publicUrl: 'https://invoices.example', logRequests: true },
  overrides: { logger: createLogger((l) => lines.push(l)) },
})

test('tokens and codes are never logged', async () => {
  const biz = await h.business()
  const c = await connectApp(h, { businessId: biz.id })
  const r = await refreshAt(h, c)
  await h.request('GET', '/v1/business', { key: r.body.access_token })
  await h.request('GET', '/v1/business', { key: c.access })
  await refreshAt(h, c) // reuse: ends the connection
  await h.request('GET', '/v1/business', { key: r.body.access_token })
  await h.app.fetch(
    new Request('https://invoices.example/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: r.body.refresh_token, client_id: c.clientId }),
    }),
  )
  await h.app.requestLog.flush()
  const rows = await h.deps.db.read.select().from(requestLog).all()
  expect(rows.length).toBeGreaterThan(0)
  const everything = lines.join('\n') + JSON.stringify(rows)
  for (const secret of [c.access, c.refresh, r.body.access_token, r.body.refresh_token]) {
    expect(everything.includes(secret)).toBe(false)
    expect(everything.includes(secret.slice(7, 27))).toBe(false)
  }
})
