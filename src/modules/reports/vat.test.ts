// The reported VAT over HTTP: bands highest rate first, each 0% category its own band, Credit Notes subtracting,
// Proformas carrying none, period edges and other currencies, with an answer computed by hand.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile } from '../../../test/harness'
import { Api } from './fixtures'

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

const FEB = 'from=2026-02-01&to=2026-02-28'

describe('VAT report', () => {
  test('sums the bands of Invoices less Credit Notes issued in the period (hand-computed)', async () => {
    const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const c = await api.client('Acme')
    // On `from`: S 19% 100.00 / 19.00, S 7% 50.00 / 3.50, Z 0% 20.00.
    const v1 = await api.invoice(c, '2026-02-01', [
      { unit_price: '100.00', vat_rate: '19.00' },
      { unit_price: '50.00', vat_rate: '7.00' },
      { unit_price: '20.00', vat_rate: '0' },
    ])
    // On `to`: E 0% 200.00, AE 0% 80.00, S 19% 3 × 33.33 = 99.99 / 18.9981 → 19.00.
    await api.invoice(c, '2026-02-28', [
      { unit_price: '200.00', vat_rate: '0', vat_category: 'E', vat_exemption_code: 'VATEX-EU-132' },
      { unit_price: '80.00', vat_rate: '0', vat_category: 'AE', vat_exemption_code: 'VATEX-EU-AE' },
      { quantity: '3', unit_price: '33.33', vat_rate: '19.00' },
    ])
    // A Credit Note subtracts: S 19% 40.00 / 7.60.
    await api.creditNote(v1, '2026-02-15', [{ unit_price: '40.00', vat_rate: '19.00' }])
    // A standalone Proforma, even paid in full, carries no VAT.
    const p = await api.proforma(c, '2026-02-10', [{ unit_price: '1000.00', vat_rate: '19.00' }])
    await api.pay(p.id, '1190.00', '2026-02-10')
    // A converted Proforma is reported through its Invoice (issued 2026-02-20): S 19% 10.00 / 1.90.
    const q = await api.proforma(c, '2026-01-25', [{ unit_price: '10.00', vat_rate: '19.00' }])
    await api.convert(q.id, '2026-02-20')
    // Left out: the day before and after, a cancelled Invoice, a Draft, a Quote.
    await api.invoice(c, '2026-01-31', [{ unit_price: '500.00', vat_rate: '19.00' }])
    await api.invoice(c, '2026-03-01', [{ unit_price: '500.00', vat_rate: '7.00' }])
    await api.cancel((await api.invoice(c, '2026-02-12', [{ unit_price: '500.00', vat_rate: '19.00' }])).id)
    await api.draft({ client_id: c, issue_date: '2026-02-12', lines: [{ unit_price: '500.00', vat_rate: '19.00' }] })
    await api.doc({
      type: 'quote',
      client_id: c,
      issue_date: '2026-02-12',
      lines: [{ unit_price: '500.00', vat_rate: '19.00' }],
    })
    // Another currency: an Invoice and a Credit Note counted, a Proforma not (it carries no VAT).
    const usd = await api.invoice(c, '2026-02-13', [{ unit_price: '100.00', vat_rate: '19.00' }], { currency: 'USD' })
    await api.creditNote(usd, '2026-02-14', [{ unit_price: '1.00', vat_rate: '19.00' }])
    await api.proforma(c, '2026-02-14', [{ unit_price: '100.00', vat_rate: '19.00' }], { currency: 'USD' })

    expect(await api.report(`/v1/reports/vat?${FEB}`)).toEqual({
      currency: 'EUR',
      from: '2026-02-01',
      to: '2026-02-28',
      // 100 + 99.99 − 40 + 10 = 169.99 at 19%; 19 + 19 − 7.60 + 1.90 = 32.30
      net: '519.99',
      vat: '35.80',
      bands: [
        { category: 'S', rate: '19.00', net: '169.99', vat: '32.30' },
        { category: 'S', rate: '7.00', net: '50.00', vat: '3.50' },
        { category: 'Z', rate: '0.00', net: '20.00', vat: '0.00' },
        { category: 'E', rate: '0.00', net: '200.00', vat: '0.00' },
        { category: 'AE', rate: '0.00', net: '80.00', vat: '0.00' },
      ],
      other_currency_documents: 2,
      // At the harness's standing rate of 0.5 (test/fx-rates.ts): the Invoice's 100.00 and 19.00 USD give 50.00 and
      // 9.50; the Credit Note's 1.00 and 0.19 give 0.50 and 0.095 → 0.10 (half away from zero).
      converted: {
        currency: 'EUR',
        net: '49.50',
        vat: '9.40',
        documents: 2,
        bands: [{ category: 'S', rate: '19.00', net: '49.50', vat: '9.40' }],
      },
    })
    // The income report beside it: the same VAT; income adds the paid Proforma's whole net.
    expect(await api.report(`/v1/reports/income?${FEB}`)).toMatchObject({
      income: '1519.99',
      vat: '35.80',
      other_currency_documents: 3,
    })
  })

  test('a band whose Credit Notes cancel its Invoices stays listed at zero; an empty period has no bands', async () => {
    const api = new Api(h, (await h.business({ currency: 'EUR' })).key)
    const c = await api.client('Acme')
    const inv = await api.invoice(c, '2026-02-02', [{ unit_price: '10.00', vat_rate: '19.00' }])
    await api.creditNote(inv, '2026-02-03', [{ unit_price: '10.00', vat_rate: '19.00' }])
    expect(await api.report(`/v1/reports/vat?${FEB}`)).toMatchObject({
      net: '0.00',
      vat: '0.00',
      bands: [{ category: 'S', rate: '19.00', net: '0.00', vat: '0.00' }],
    })
    expect(await api.report('/v1/reports/vat?from=2026-02-03&to=2026-02-03')).toMatchObject({
      net: '-10.00',
      vat: '-1.90',
    })
    expect(await api.report('/v1/reports/vat?from=2025-01-01&to=2025-12-31')).toMatchObject({
      net: '0.00',
      vat: '0.00',
      bands: [],
      other_currency_documents: 0,
    })
  })
})
