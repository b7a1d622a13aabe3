// Documents in another currency (extensions §16): ECB files read and fetched, rates fixed at issue, the refusal, and
// the VAT in the Business's currency, exact at every scale.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../../test/harness'
import { DAY_2026_03_06, ECB_DAILY, ECB_HISTORY, ecbXml } from '../../../test/fx-rates'
import { httpDocumentFetcher } from '../../adapters/document-fetch'
import { systemResolver } from '../webhooks/address-guard'
import { crossRate, EcbFileError, fetchReferenceRates, importRates, parseEcbXml, parseRate } from './index'

let h: Harness
beforeAll(async () => {
  h = await makeHarness({ referenceRates: false })
})
afterAll(() => h.close())

/** A local stand-in for the ECB's server: serves what each path is set to, on loopback only. */
function ecbServer(files: Record<string, { status?: number; body: string }>) {
  const hits: string[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname
      hits.push(path)
      const f = files[path]
      if (!f) return new Response('not here', { status: 404 })
      return new Response(f.body, { status: f.status ?? 200, headers: { 'content-type': 'text/xml' } })
    },
  })
  return { base: `http://127.0.0.1:${server.port}`, hits, files, stop: () => server.stop(true) }
}

function recordingLogger() {
  const errors: { msg: string; fields: Record<string, unknown> }[] = []
  return {
    errors,
    logger: { info() {}, error: (msg: string, fields: Record<string, unknown> = {}) => errors.push({ msg, fields }) },
  }
}

async function heldRows(): Promise<{ day: string; currency: string; rate: string }[]> {
  return h.deps.db.read.all(sql`SELECT day, currency, rate FROM fx_rates ORDER BY day, currency`)
}

async function clearRates() {
  await h.deps.db.write((tx) => tx.run(sql`DELETE FROM fx_rates`))
}

function fetchDeps(url: string, logger = recordingLogger().logger, allowPrivate = true) {
  return {
    db: h.deps.db,
    clock: h.deps.clock,
    logger,
    fetcher: httpDocumentFetcher,
    resolve: systemResolver,
    url,
    allowPrivate,
  }
}

async function setup(businessCurrency: string) {
  const b = await h.business({ currency: businessCurrency })
  const clientId = await h.client(b.key)
  return { key: b.key, clientId }
}

async function draft(s: { key: string; clientId: number }, body: Record<string, unknown>) {
  const r = await h.request('POST', '/v1/documents', {
    key: s.key,
    body: { type: 'invoice', client_id: s.clientId, ...body },
  })
  if (r.status !== 201) throw new Error(`draft: ${r.status} ${r.text}`)
  return r.body
}

const USD_LINES = [
  { description: 'Design', quantity: '1', unit_price: '1000.00', vat_rate: '19.00' },
  { description: 'Hosting', quantity: '1', unit_price: '333.33', vat_rate: '7.00' },
]

describe('ECB files', () => {
  test('the daily and the 90-day history file are read day by day, the weekend left a gap, rates as written', () => {
    expect(parseEcbXml(ECB_DAILY)).toEqual([{ day: '2026-03-09', rates: expect.objectContaining({ USD: '1.0850' }) }])
    const days = parseEcbXml(ECB_HISTORY)
    expect(days.map((d) => d.day)).toEqual(['2026-03-05', '2026-03-06', '2026-03-09'])
    expect(days[1]!.rates.GBP).toBe('0.84130')
  })

  test('a malformed or foreign file is refused with one line saying why', () => {
    const cases: [string, RegExp][] = [
      ['<gesmes:Envelope><Cube><Cube time="2026-03-06">', /not well-formed/],
      ['<html><body>Service unavailable</body></html>', /not an ECB reference rates file/],
      [ecbXml([{ day: '2026-13-01', rates: { USD: '1.1' } }]), /YYYY-MM-DD/],
      [ecbXml([{ day: '2026-03-06', rates: { USD: '-1.1' } }]), /rate of USD is not a decimal above zero/],
      [ecbXml([{ day: '2026-03-06', rates: { USD: '1e3' } }]), /rate of USD/],
      [ecbXml([{ day: '2026-03-06', rates: { XYZ: '1.1' } }]), /"XYZ" is not an ISO 4217/],
      [ecbXml([]), /no day of rates/],
      ['<!DOCTYPE x [<!ENTITY a "b">]>' + ECB_DAILY, /DOCTYPE/],
    ]
    for (const [xml, why] of cases) {
      let err: unknown
      try {
        parseEcbXml(xml)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(EcbFileError)
      expect((err as Error).message).toMatch(why)
      expect((err as Error).message).not.toContain('\n')
    }
  })

  test('a malformed file changes no rate held; a good one adds its days', async () => {
    await clearRates()
    await importRates(h.deps.db, ecbXml([DAY_2026_03_06]))
    const before = await heldRows()
    const bad = ECB_HISTORY.replace("rate='161.02'", "rate='161,02'")
    await expect(importRates(h.deps.db, bad)).rejects.toBeInstanceOf(EcbFileError)
    expect(await heldRows()).toEqual(before)
    expect(await importRates(h.deps.db, ECB_HISTORY)).toEqual({ days: 3, first: '2026-03-05', last: '2026-03-09' })
    expect(new Set((await heldRows()).map((r) => r.day))).toEqual(new Set(['2026-03-05', '2026-03-06', '2026-03-09']))
  })
})

describe('the daily fetch', () => {
  test('with no rate held it takes the 90-day history beside the daily file, then the daily file itself', async () => {
    await clearRates()
    const ecb = ecbServer({
      '/stats/eurofxref/eurofxref-daily.xml': { body: ECB_DAILY },
      '/stats/eurofxref/eurofxref-hist-90d.xml': { body: ECB_HISTORY },
    })
    try {
      const url = `${ecb.base}/stats/eurofxref/eurofxref-daily.xml`
      const first = await fetchReferenceRates(fetchDeps(url))
      expect(first).toMatchObject({ ok: true, result: { days: 3, last: '2026-03-09' } })
      expect(ecb.hits).toEqual(['/stats/eurofxref/eurofxref-hist-90d.xml'])
      const next = await fetchReferenceRates(fetchDeps(url))
      expect(next).toMatchObject({ ok: true, result: { days: 1, first: '2026-03-09' } })
      expect(ecb.hits[1]).toBe('/stats/eurofxref/eurofxref-daily.xml')
    } finally {
      ecb.stop()
    }
  })

  test('a failed fetch (error status, garbage, no server, refused address) keeps the rates held and is logged', async () => {
    await clearRates()
    await importRates(h.deps.db, ECB_HISTORY)
    const before = await heldRows()
    const ecb = ecbServer({
      '/down.xml': { status: 503, body: 'maintenance' },
      '/garbage.xml': { body: '<html>moved</html>' },
      '/redirect.xml': { status: 302, body: '' },
    })
    try {
      const port = new URL(ecb.base).port
      const cases: [string, boolean, RegExp][] = [
        [`${ecb.base}/down.xml`, true, /HTTP 503/],
        [`${ecb.base}/garbage.xml`, true, /not an ECB rates file/],
        [`${ecb.base}/redirect.xml`, true, /HTTP 302/],
        [`http://127.0.0.1:1/none.xml`, true, /no connection/],
        // Without INVOICING_FX_ALLOW_PRIVATE the outbound rules refuse http and a loopback host.
        [`${ecb.base}/down.xml`, false, /address refused/],
        [`https://127.0.0.1:${port}/x.xml`, false, /address refused/],
      ]
      for (const [url, allowPrivate, why] of cases) {
        const { errors, logger } = recordingLogger()
        const out = await fetchReferenceRates(fetchDeps(url, logger, allowPrivate))
        expect(out.ok).toBe(false)
        expect(errors).toHaveLength(1)
        expect(errors[0]!.msg).toBe('exchange rates not fetched')
        expect(String(errors[0]!.fields.error)).toMatch(why)
        expect(await heldRows()).toEqual(before)
      }
    } finally {
      ecb.stop()
    }
  })
})

describe('rates', () => {
  test('crossed through the euro and rounded half away from zero to 10 significant digits', () => {
    const r = DAY_2026_03_06.rates
    expect(crossRate(r, 'USD', 'GBP')).toBe('0.7773260649') // 0.84130 / 1.0823 = 0.77732606486...
    expect(crossRate(r, 'USD', 'EUR')).toBe('0.9239582371') // 1 / 1.0823
    expect(crossRate(r, 'JPY', 'GBP')).toBe('0.005197380614')
    expect(crossRate(r, 'EUR', 'GBP')).toBe('0.8413')
    expect(crossRate(r, 'KWD', 'EUR')).toBeNull()
  })

  test('a sent rate is a decimal string above 0 with at most 10 significant digits', () => {
    expect(parseRate('0.9123')).toEqual({ ok: true, rate: '0.9123' })
    expect(parseRate('0.000001234567890')).toEqual({ ok: true, rate: '0.00000123456789' })
    expect(parseRate('161.87')).toEqual({ ok: true, rate: '161.87' })
    for (const bad of [0.9, '0', '-1.2', 'abc', '1.23456789012', '']) expect(parseRate(bad).ok).toBe(false)
  })
})

describe('a document in another currency', () => {
  beforeAll(async () => {
    await clearRates()
    await importRates(h.deps.db, ECB_HISTORY)
  })

  test('issued on a Sunday, it takes Friday’s ECB rate crossed for a GBP Business, and states its VAT in GBP', async () => {
    const s = await setup('GBP')
    const d = await draft(s, { currency: 'USD', issue_date: '2026-03-08', lines: USD_LINES })
    expect(d).toMatchObject({ exchange_rate: null, accounting_currency: 'GBP', vat_total_accounting: null })
    expect(d.actions.issue).toEqual({ open: true })
    const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })
    expect(r.status).toBe(200)
    // 213.33 × 0.7773260649 = 165.8269…; bands 190.00 → 147.6919…, 23.33 → 18.1350…
    expect(r.body).toMatchObject({
      exchange_rate: '0.7773260649',
      accounting_currency: 'GBP',
      vat_total: '213.33',
      vat_total_accounting: '165.83',
      vat_breakdown: [
        { rate: '19.00', vat: '190.00', vat_accounting: '147.69' },
        { rate: '7.00', vat: '23.33', vat_accounting: '18.14' },
      ],
    })
  })

  test('an issued document keeps its rate: new rates change nothing, and it can no longer be given one', async () => {
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'USD', issue_date: '2026-03-09', lines: USD_LINES })
    const issued = (await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })).body
    expect(issued.exchange_rate).toBe('0.9216589862') // 1 / 1.0850
    await importRates(h.deps.db, ecbXml([{ day: '2026-03-09', rates: { USD: '1.2000' } }]))
    const again = await h.request('GET', `/v1/documents/${d.id}`, { key: s.key })
    expect(again.body).toMatchObject({
      exchange_rate: issued.exchange_rate,
      vat_total_accounting: issued.vat_total_accounting,
    })
    const patch = await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { exchange_rate: '1.5' } })
    expect(patch.status).toBe(422)
    expect(patch.body.error.code).toBe('issued_not_changed')
    await importRates(h.deps.db, ECB_HISTORY)
  })

  test('a rate sent on the Draft is the one fixed, whatever the reference rate, and shows its VAT already', async () => {
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'USD', exchange_rate: '0.9123', lines: USD_LINES })
    // 213.33 × 0.9123 = 194.621…; 190.00 × 0.9123 = 173.337; 23.33 × 0.9123 = 21.2839…
    expect(d).toMatchObject({ exchange_rate: '0.9123', accounting_currency: 'EUR', vat_total_accounting: '194.62' })
    expect(d.vat_breakdown.map((b: any) => b.vat_accounting)).toEqual(['173.34', '21.28'])
    const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })
    expect(r.body).toMatchObject({ exchange_rate: '0.9123', vat_total_accounting: '194.62' })
  })

  test('the same currency as the Business carries no rate: all four fields null, and a rate sent is refused', async () => {
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'EUR', lines: USD_LINES })
    expect(d).toMatchObject({ exchange_rate: null, accounting_currency: null, vat_total_accounting: null })
    expect(d.vat_breakdown.every((b: any) => b.vat_accounting === null)).toBe(true)
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { exchange_rate: '1.1' } })
    expect(r.status).toBe(422)
    expect(r.body.error.errors.exchange_rate[0]).toContain("another currency than the Business's (EUR)")
  })

  test('a bad exchange_rate is a 422 naming the field, on create and update, and nothing is saved', async () => {
    const s = await setup('EUR')
    for (const bad of [0.9, '0', '-0.5', '1.23456789012', 'ten']) {
      const r = await h.request('POST', '/v1/documents', {
        key: s.key,
        body: { type: 'invoice', client_id: s.clientId, currency: 'USD', exchange_rate: bad },
      })
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toEqual(['exchange_rate'])
    }
    const d = await draft(s, { currency: 'USD', exchange_rate: '0.9' })
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { exchange_rate: '0' } })
    expect(r.status).toBe(422)
    expect((await h.request('GET', `/v1/documents/${d.id}`, { key: s.key })).body.exchange_rate).toBe('0.9')
  })

  test('a change of currency drops the rate kept, which described the old one', async () => {
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'USD', exchange_rate: '0.9' })
    const r = await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { currency: 'GBP' } })
    expect(r.body).toMatchObject({ currency: 'GBP', exchange_rate: null })
  })

  test.each([
    // VAT 1234.5 → 1235 JPY; 1235 × 0.002051 = 2.532985 → 2.533 KWD
    ['JPY', 'KWD', '0.002051', { description: 'A', unit_price: '12345', vat_rate: '10.00' }, '1235', '2.533'],
    // VAT 0.50025 → 0.500 KWD; 0.500 × 497 = 248.5 → 249 JPY (the tie goes away from zero)
    ['KWD', 'JPY', '497', { description: 'B', unit_price: '10.005', vat_rate: '5.00' }, '0.500', '249'],
  ] as const)(
    '%s into %s: each side at its own scale, half away from zero once at the end',
    async (currency, accounting, exchange_rate, line, vat, vatAccounting) => {
      const s = await setup(accounting)
      const d = await draft(s, { currency, exchange_rate, lines: [{ quantity: '1', ...line }] })
      const issued = (await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })).body
      expect(issued).toMatchObject({
        vat_total: vat,
        vat_total_accounting: vatAccounting,
        accounting_currency: accounting,
      })
      expect(issued.vat_breakdown[0].vat_accounting).toBe(vatAccounting)
    },
  )
})

describe('no rate at all', () => {
  test('actions.issue says exchange_rate_missing beforehand, and the issue is refused with it; a rate sent opens it', async () => {
    await clearRates()
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'USD', lines: USD_LINES })
    expect(d.actions.issue).toEqual({ open: false, code: 'exchange_rate_missing' })
    expect(d.actions.send.code).not.toBe('exchange_rate_missing') // no mail provider answers first
    const r = await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })
    expect(r.status).toBe(422)
    expect(r.body.error).toMatchObject({ type: 'refusal', code: 'exchange_rate_missing' })
    expect(r.body.error.message).toContain('USD to EUR')
    const after = await h.request('GET', `/v1/documents/${d.id}`, { key: s.key })
    expect(after.body).toMatchObject({ status: 'draft', document_number: null })
    const set = await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { exchange_rate: '0.92' } })
    expect(set.body.actions.issue).toEqual({ open: true })
    expect((await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })).status).toBe(200)
  })

  test('a Proforma converts into an Invoice at today’s reference rate, else at the Proforma’s own', async () => {
    await clearRates()
    const s = await setup('EUR')
    const pf = await draft(s, { type: 'proforma', currency: 'USD', exchange_rate: '0.9', lines: USD_LINES })
    await h.request('POST', `/v1/documents/${pf.id}/issue`, { key: s.key })
    const proforma = (await h.request('GET', `/v1/documents/${pf.id}`, { key: s.key })).body
    expect(proforma.actions.convert).toEqual({ open: true })
    const inv = await h.request('POST', `/v1/documents/${pf.id}/convert`, { key: s.key })
    expect(inv.status).toBe(201)
    expect(inv.body).toMatchObject({ type: 'invoice', exchange_rate: '0.9', accounting_currency: 'EUR' })
    // With the ECB's rates held, the Invoice (issued today, 2026-03-10) takes Monday's.
    await importRates(h.deps.db, ECB_HISTORY)
    const pf2 = await draft(s, { type: 'proforma', currency: 'USD', exchange_rate: '0.9', lines: USD_LINES })
    await h.request('POST', `/v1/documents/${pf2.id}/issue`, { key: s.key })
    const inv2 = await h.request('POST', `/v1/documents/${pf2.id}/convert`, { key: s.key })
    expect(inv2.body.exchange_rate).toBe('0.9216589862')
  })

  test('a rate published only after the issue date does not count', async () => {
    await clearRates()
    await importRates(h.deps.db, ecbXml([DAY_2026_03_06]))
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'USD', issue_date: '2026-03-05', lines: USD_LINES })
    expect(d.actions.issue.code).toBe('exchange_rate_missing')
  })
})

describe('GET /v1/exchange-rates', () => {
  test('answers the ECB rates of the day asked, or of the latest day before it, for any Role', async () => {
    await clearRates()
    await importRates(h.deps.db, ECB_HISTORY)
    const b = await h.business()
    const viewer = await h.key(b.id, 'viewer')
    const sunday = await h.request('GET', '/v1/exchange-rates?date=2026-03-08', { key: viewer })
    expect(sunday.status).toBe(200)
    expect(sunday.body).toEqual({ date: '2026-03-06', base: 'EUR', rates: DAY_2026_03_06.rates })
    // Today (the harness's clock: 2026-03-10) falls back to Monday's.
    expect((await h.request('GET', '/v1/exchange-rates', { key: viewer })).body.date).toBe('2026-03-09')
  })

  test('a day before every rate held is a 404, a malformed date a 422, no key a 401', async () => {
    const b = await h.business()
    expect((await h.request('GET', '/v1/exchange-rates?date=2020-01-01', { key: b.key })).status).toBe(404)
    const bad = await h.request('GET', '/v1/exchange-rates?date=2026-02-30', { key: b.key })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.error.errors)).toEqual(['date'])
    expect((await h.request('GET', '/v1/exchange-rates')).status).toBe(401)
  })
})

describe('the PDF', () => {
  async function pdfText(key: string, id: number): Promise<string> {
    const res = await h.app.fetch(
      new Request(`http://localhost/v1/documents/${id}/pdf`, { headers: { authorization: `Bearer ${key}` } }),
    )
    expect(res.status).toBe(200)
    const file = `${h.dir}/fx-${id}.pdf`
    await Bun.write(file, new Uint8Array(await res.arrayBuffer()))
    const out = Bun.spawnSync(['/usr/bin/pdftotext', '-raw', file, '-'])
    expect(out.exitCode).toBe(0)
    return out.stdout.toString()
  }

  test('states the VAT in the Business’s currency with the rate; a document in the Business’s own currency does not', async () => {
    await importRates(h.deps.db, ECB_HISTORY)
    const s = await setup('EUR')
    const d = await draft(s, { currency: 'USD', exchange_rate: '0.9123', lines: USD_LINES })
    await h.request('POST', `/v1/documents/${d.id}/issue`, { key: s.key })
    expect(await pdfText(s.key, d.id)).toContain('VAT in EUR: 194.62 (1 USD = 0.9123 EUR)')
    const same = await draft(s, { currency: 'EUR', lines: USD_LINES })
    expect(await pdfText(s.key, same.id)).not.toContain('VAT in')
    // A Draft without a rate yet states nothing it does not know.
    const open = await draft(s, { currency: 'USD', lines: USD_LINES })
    expect(await pdfText(s.key, open.id)).not.toContain('VAT in')
    // The first PDF starts the PDF engine's realm: seconds on a loaded machine.
  }, 30_000)

  test('says it in the document’s language (§18): a German document writes USt. and German numbers', async () => {
    const b = await h.business({ currency: 'EUR' })
    const clientId = await h.client(b.key, { language: 'de' })
    const d = await draft({ key: b.key, clientId }, { currency: 'USD', exchange_rate: '0.9123', lines: USD_LINES })
    await h.request('POST', `/v1/documents/${d.id}/issue`, { key: b.key })
    expect(await pdfText(b.key, d.id)).toContain('USt. in EUR: 194,62 (1 USD = 0,9123 EUR)')
  }, 30_000)
})
