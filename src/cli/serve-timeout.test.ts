// `serve`'s idle timeout (10 s) against work that takes longer: a Send through a slow mail relay is answered, not cut.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { serve } from './serve'
import { draftFor, makeHarness, type Harness } from '../../test/harness'
import { startTestSmtpServer, type TestSmtpServer } from '../adapters/smtp-test-server'

let h: Harness
let smtp: TestSmtpServer
let server: { stop: () => Promise<void>; port: number }

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  h = await makeHarness({ config: { mailRelay: smtp.url } })
  server = await serve(h.deps, 0)
})
// serve's stop closes the database the harness opened.
afterAll(async () => {
  await server.stop()
  await smtp.close()
})

test('a Send whose mail server takes 12 s to take the message still gets its answer from a real server (idle timeout 10 s)', async () => {
  const b = await h.business({ email: 'office@shop.example', name: 'Shop Ltd' })
  const clientId = await h.client(b.key, { name: 'Acme GmbH', email: 'billing@acme.example' })
  const d = await draftFor(
    h,
    { bizId: b.id, key: b.key, clientId },
    { lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }] },
  )
  smtp.answerDelayMs = 12_000
  const started = Date.now()
  const res = await fetch(`http://127.0.0.1:${server.port}/v1/documents/${d.id}/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.key}` },
  })
  expect(res.status).toBe(200)
  expect(((await res.json()) as any).status).not.toBe('draft')
  expect(Date.now() - started).toBeGreaterThan(11_000)
  expect(smtp.received.length).toBe(1)
}, 40_000)
