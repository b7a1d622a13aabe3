// A recurring invoice's `{{month}}` (extensions §13) is named in the language its Invoice is written in (§18): the
// Client's, else the Business's; the Invoice made answers that language.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { runRecurringInvoices } from '.'

let h: Harness
beforeAll(async () => {
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
})
afterAll(() => h.close())

// Written by hand, January first.
const MONTHS: Record<string, string[]> = {
  fr: 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(' '),
  pl: 'styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień'.split(' '),
  en: 'January February March April May June July August September October November December'.split(' '),
}

describe('{{month}} in the language', () => {
  test("each Invoice made names its month in its Client's language, or the Business's when the Client has none", async () => {
    const b = await h.business({ language: 'pl' })
    const today = h.clock.now().toISOString().slice(0, 10)
    const month = Number(today.slice(5, 7)) - 1
    const made: Record<string, number> = {}
    for (const language of ['fr', null, 'en']) {
      const clientId = await h.client(b.key, { name: `Client ${language}`, language })
      const r = await h.request('POST', '/v1/recurring-invoices', {
        key: b.key,
        body: {
          client_id: clientId,
          lines: [{ description: 'Retainer {{month}}', quantity: '1', unit_price: '100.00', vat_rate: '19' }],
          frequency: 'month',
          start_date: today,
          action: 'draft',
        },
      })
      expect(r.status, r.text).toBe(201)
      made[language ?? 'pl'] = r.body.id
    }
    await runRecurringInvoices(h.deps)
    for (const [language, id] of Object.entries(made)) {
      const list = await h.request('GET', '/v1/documents', { key: b.key })
      const doc = list.body.data.find((d: any) => d.recurring_invoice_id === id)
      expect(doc.lines[0].description).toBe(`Retainer ${MONTHS[language]![month]}`)
      expect(doc.language).toBe(language)
    }
  })
})
