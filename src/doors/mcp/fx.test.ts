// Documents in another currency through the MCP door (extensions §16): the rates as a read-only tool for any Role, a
// rate sent as a tool argument, and exchange_rate_missing answered as the tool's error.
import { describe, expect, test } from 'bun:test'
import { servedHarnessForFile, type Harness } from '../../../test/harness'
import { callTool as call, connectMcp } from '../../../test/mcp-client'
import { ECB_HISTORY } from '../../../test/fx-rates'
import { importRates } from '../../modules/fx'

let h: Harness
let base: string
servedHarnessForFile((t) => ({ h, base } = t), { referenceRates: false })

const connect = (key: string) => connectMcp(base, key)

describe('exchange rates over MCP', () => {
  test('exchange_rates_get is a read-only tool a Viewer may call; it answers what the API answers', async () => {
    await importRates(h.deps.db, ECB_HISTORY)
    const b = await h.business()
    const viewer = await connect(await h.key(b.id, 'viewer'))
    const tool = (await viewer.listTools()).tools.find((t) => t.name === 'exchange_rates_get')
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true })
    const r = await call(viewer, 'exchange_rates_get', { date: '2026-03-08' })
    expect(r.isError).toBeFalsy()
    const api = await h.request('GET', '/v1/exchange-rates?date=2026-03-08', { key: b.key })
    expect(r.structuredContent ?? JSON.parse(r.content[0].text)).toEqual(api.body)
  })

  test('a Draft made with a rate as an argument issues at it; without one and no rate held, the issue is the refusal', async () => {
    const b = await h.business({ currency: 'GBP' })
    const clientId = await h.client(b.key)
    const c = await connect(b.key)
    const made = await call(c, 'documents_create', {
      type: 'invoice',
      client_id: clientId,
      currency: 'CHF',
      exchange_rate: '0.88',
      lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '8.10' }],
    })
    expect(made.isError).toBeFalsy()
    const doc = made.structuredContent ?? JSON.parse(made.content[0].text)
    const issued = await call(c, 'documents_issue', { id: doc.id })
    const answer = issued.structuredContent ?? JSON.parse(issued.content[0].text)
    // VAT 8.10 CHF × 0.88 = 7.128 → 7.13 GBP
    expect(answer).toMatchObject({ exchange_rate: '0.88', accounting_currency: 'GBP', vat_total_accounting: '7.13' })
    // CHF into GBP has a reference rate from the ECB file, KWD has none.
    const none = await call(c, 'documents_create', {
      type: 'invoice',
      client_id: clientId,
      currency: 'KWD',
      lines: [{ description: 'Work', quantity: '1', unit_price: '100.000', vat_rate: '0' }],
    })
    const refused = await call(c, 'documents_issue', {
      id: (none.structuredContent ?? JSON.parse(none.content[0].text)).id,
    })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toContain('exchange_rate_missing')
  })
})
