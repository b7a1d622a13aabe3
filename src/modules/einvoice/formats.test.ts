// The e-invoice formats (extensions §3), through the API against a real temp-file database: every format × every
// VAT category, a Credit Note, JPY and KWD, 100 Lines, Unicode names and amounts at the limit each export 200, and
// every exported file passes the official rule sets (xsd, EN16931, and the CIUS its CustomizationID names) with 0
// fatal, checked by one run of ../shared/validators/validate over all of them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeHarness, type Harness } from '../../../test/harness'
import { XML_FORMATS, type XmlFormat } from '../../shared/einvoice-formats'
import { getBusiness, type BusinessInput } from '../business'
import { exportSourceOf, writeXml } from './einvoice.service'
import { GERMAN_BUYER, GERMAN_SELLER, servicesLine as line } from './einvoice.testkit'
import { buildModel } from './model'
import { fatalIds, fatalsOf, validateFiles, type Validation } from './validator.testkit'

let h: Harness
let validation: Validation = new Map()

/** A Peppol participant id: a GLN with a valid check digit. */
const GLN = { scheme: '0088', value: '4006381333931' }

const SELLER: Partial<BusinessInput> = {
  ...GERMAN_SELLER,
  legalName: 'Seller Software GmbH',
  contactName: 'Erika Mustermann',
  contactPhone: '+49 30 1234567',
  electronicAddressScheme: '9930',
  electronicAddress: 'DE123456789',
}

interface Case {
  name: string
  /** Business setup over SELLER. */
  seller?: Partial<BusinessInput>
  client?: Record<string, unknown>
  body: Record<string, unknown>
  /** A Credit Note of the Invoice this body makes first. */
  creditNote?: boolean
  /** Formats that refuse it, with the official rule ids the refusal names (every other format exports it). */
  refused?: Partial<Record<XmlFormat, string[]>>
}

const CII_FORMATS: XmlFormat[] = ['cii', 'xrechnung-cii']

const CASES: Case[] = [
  {
    name: 'S at mixed rates (19% and 7%)',
    body: { lines: [line(), line({ description: 'Books', unit_price: '49.99', vat_rate: '7.00', quantity: '3' })] },
  },
  { name: 'Z zero rated', body: { lines: [line({ vat_rate: '0', vat_category: 'Z' })] } },
  {
    name: 'E exempt',
    body: { lines: [line({ vat_rate: '0', vat_category: 'E', vat_exemption_code: 'VATEX-EU-132-1I' })] },
  },
  {
    name: 'AE reverse charge',
    client: { country: 'AT', vat_number: 'ATU12345678', city: 'Wien', postal_code: '1010' },
    body: { lines: [line({ vat_rate: '0', vat_category: 'AE', vat_exemption_code: 'VATEX-EU-AE' })] },
  },
  {
    name: 'K intra-community supply',
    client: { country: 'FR', vat_number: 'FR12345678901', city: 'Paris', postal_code: '75001' },
    body: { lines: [line({ vat_rate: '0', vat_category: 'K', vat_exemption_code: 'VATEX-EU-IC' })] },
  },
  {
    name: 'G export outside the EU',
    client: { country: 'US', city: 'New York', postal_code: '10001' },
    body: { lines: [line({ vat_rate: '0', vat_category: 'G', vat_exemption_code: 'VATEX-EU-G' })] },
  },
  {
    name: 'O outside the scope of VAT',
    body: { lines: [line({ vat_rate: '0', vat_category: 'O', vat_exemption_code: 'VATEX-EU-O' })] },
  },
  { name: 'a Credit Note of an S Invoice', body: { lines: [line({ quantity: '2' })] }, creditNote: true },
  {
    name: 'JPY (no minor units)',
    client: { currency: 'JPY' },
    body: { currency: 'JPY', lines: [line({ quantity: '3', unit_price: '12345', vat_rate: '10.00' })] },
  },
  {
    name: 'KWD (three decimals) with amounts of two',
    client: { currency: 'KWD' },
    body: { currency: 'KWD', lines: [line({ quantity: '4', unit_price: '1.250', vat_rate: '5.00' })] },
  },
  // Documents in another currency (extensions §16): BT-6 and BT-111 in every format.
  {
    name: 'USD for a EUR seller at a rate sent (BT-6 EUR, BT-111 194.62)',
    client: { currency: 'USD' },
    body: {
      currency: 'USD',
      exchange_rate: '0.9123',
      lines: [
        line({ unit_price: '1000.00' }),
        line({ description: 'Hosting', unit_price: '333.33', vat_rate: '7.00' }),
      ],
    },
  },
  {
    name: 'a Credit Note in USD at the reference rate (BT-6, BT-111)',
    client: { currency: 'USD' },
    body: { currency: 'USD', lines: [line({ quantity: '2' })] },
    creditNote: true,
  },
  {
    name: 'JPY for a GBP seller at a rate sent (BT-111 in GBP)',
    seller: { currency: 'GBP' },
    client: { currency: 'JPY' },
    body: {
      currency: 'JPY',
      exchange_rate: '0.005197380614',
      lines: [line({ unit_price: '123457', vat_rate: '10.00' })],
    },
  },
  {
    name: '100 Lines',
    body: {
      lines: Array.from({ length: 100 }, (_, i) =>
        line({
          description: `Line ${i + 1}`,
          quantity: String((i % 7) + 1),
          unit_price: `${(i * 13) % 500}.${String(i % 100).padStart(2, '0')}`,
          vat_rate: i % 3 === 0 ? '7.00' : '19.00',
        }),
      ),
    },
  },
  {
    name: 'Unicode names and text',
    client: {
      name: 'Ελληνική Εταιρεία',
      legal_name: 'Ελληνική Εταιρεία Α.Ε. — 日本支社',
      address: 'Straße 5 & Söhne <Hof>',
      city: 'Zürich',
      postal_code: '8001',
      country: 'CH',
    },
    body: {
      notes: 'Dank je wel — спасибо — 谢谢 🚀',
      lines: [
        line({
          description: 'Überprüfung «Prüfung» & Co — 日本語 ✓ 🚀',
          notes: 'Ünïcödé "quoted" <tag>',
          vat_rate: '0',
          vat_category: 'G',
          vat_exemption_code: 'VATEX-EU-G',
        }),
      ],
    },
  },
  {
    name: 'amounts at the limit for doubles (99999999999.99 at 19%)',
    body: { lines: [line({ description: 'Everything', unit_price: '99999999999.99' })] },
  },
  {
    // CII's BR-CO-10 adds the Line amounts as doubles, which cannot hold 17 significant digits: UBL alone exports it.
    name: 'amounts at the contract limit (999999999999999.99 at 0%)',
    body: {
      lines: [line({ description: 'Everything', unit_price: '999999999999999.99', vat_rate: '0', vat_category: 'Z' })],
    },
    refused: { cii: ['BR-CO-10'], 'xrechnung-cii': ['BR-CO-10'] },
  },
  {
    name: 'a Non-VAT Payer with a tax registration id (BT-32) and S Lines',
    seller: {
      isVatPayer: false,
      vatNumber: null,
      taxRegistrationId: '30/123/45678',
      electronicAddressScheme: '0088',
      electronicAddress: GLN.value,
    },
    body: { lines: [line()] },
  },
  {
    name: 'VAT numbers the official rules pass: DE1 and DE + 17 digits',
    seller: { vatNumber: 'DE1' },
    client: { vat_number: 'DE12345678901234567' },
    body: { lines: [line()] },
  },
  // Refusals: each names the official rule ids the rule sets fire on the same document, which still exports in the
  // formats whose rules accept it.
  {
    name: 'no buyer reference: XRechnung refuses (BR-DE-15), Peppol takes the order reference',
    client: { buyer_reference: null },
    body: { order_reference: 'PO-4711', lines: [line()] },
    refused: { 'xrechnung-ubl': ['BR-DE-15'], 'xrechnung-cii': ['BR-DE-15'], peppol: ['DE-R-015'] },
  },
  {
    name: 'no reference at all: Peppol refuses (R003, and DE-R-015 for a German seller)',
    client: { buyer_reference: null },
    body: { lines: [line()] },
    refused: {
      'xrechnung-ubl': ['BR-DE-15'],
      'xrechnung-cii': ['BR-DE-15'],
      peppol: ['DE-R-015', 'PEPPOL-EN16931-R003'],
    },
  },
  {
    name: 'no seller phone: XRechnung (BR-DE-6) and Peppol for a German seller (DE-R-006) refuse',
    seller: { contactPhone: null },
    body: { lines: [line()] },
    refused: { 'xrechnung-ubl': ['BR-DE-6'], 'xrechnung-cii': ['BR-DE-6'], peppol: ['DE-R-006'] },
  },
  {
    name: 'a Client reached by email only: Peppol refuses EM (CL008)',
    client: { electronic_address: null },
    body: { lines: [line()] },
    refused: { peppol: ['PEPPOL-EN16931-CL008'] },
  },
  {
    name: 'VATEX-EU-IC on an E Line: Peppol refuses (P0106)',
    body: { lines: [line({ vat_rate: '0', vat_category: 'E', vat_exemption_code: 'VATEX-EU-IC' })] },
    refused: { peppol: ['PEPPOL-EN16931-P0106'] },
  },
  {
    name: 'a JPY price with decimals: Peppol refuses the rounded Line (R120)',
    client: { currency: 'JPY' },
    body: { currency: 'JPY', lines: [line({ quantity: '1', unit_price: '100.4', vat_rate: '10.00' })] },
    refused: { peppol: ['PEPPOL-EN16931-R120'] },
  },
  {
    // Each exempt breakdown is held to the whole category's Line amounts, so both official sets fire BR-E-08 as well.
    name: 'E Lines with two exemption codes: two E breakdowns, refused (BR-E-01, BR-E-08)',
    body: {
      lines: [
        line({ vat_rate: '0', vat_category: 'E', vat_exemption_code: 'VATEX-EU-132' }),
        line({ vat_rate: '0', vat_category: 'E', vat_exemption_code: 'VATEX-EU-143' }),
      ],
    },
    refused: Object.fromEntries(XML_FORMATS.map((f) => [f, ['BR-E-01', 'BR-E-08']])),
  },
  {
    name: 'KWD with a third decimal: refused under the rules the official sets fire',
    client: { currency: 'KWD' },
    body: {
      currency: 'KWD',
      lines: [
        { description: 'A', quantity: '3', unit_price: '1.2345', vat_rate: '5.00' },
        { description: 'B', quantity: '2', unit_price: '0.0005', vat_rate: '0' },
      ],
    },
    refused: Object.fromEntries(XML_FORMATS.map((f) => [f, []])),
  },
]

interface Cell {
  status: number
  text: string
  /** The exported file, or for a refused cell the same document written without the check. */
  file: string
  refusedIds: string[]
}
const cells = new Map<string, Cell>()
interface Facturx {
  status: number
  body: any
  /** The PDF written, and factur-x.xml as pdfdetach extracted it. */
  pdf: string | null
  file: string | null
  xml: string | null
}
const facturxCells = new Map<string, Facturx>()
const cellName = (c: Case, format: XmlFormat) => `${c.name} / ${format}`

beforeAll(async () => {
  h = await makeHarness()
  const files: string[] = []
  let n = 0
  for (const c of CASES) {
    h.clock.advance(61_000)
    const s = await h.business({ ...SELLER, ...c.seller })
    await h.bankAccount(s.id)
    const clientId = await h.client(s.key, {
      ...GERMAN_BUYER,
      buyer_reference: '04011000-12345-34',
      electronic_address: GLN,
      ...c.client,
    })
    const issue = async (body: Record<string, unknown>) => {
      const r = await h.request('POST', '/v1/documents', {
        key: s.key,
        body: { type: 'invoice', client_id: clientId, ...body },
      })
      if (r.status !== 201) throw new Error(`${c.name}: create refused: ${r.status} ${r.text}`)
      const i = await h.request('POST', `/v1/documents/${r.body.id}/issue`, { key: s.key })
      if (i.status !== 200) throw new Error(`${c.name}: issue refused: ${i.status} ${i.text}`)
      return i.body
    }
    let doc = await issue(c.body)
    if (c.creditNote) doc = await issue({ ...c.body, type: 'credit_note', credited_document_id: doc.id })
    const business = await getBusiness(h.deps.db.read, s.id)
    for (const format of XML_FORMATS) {
      const r = await h.request('GET', `/v1/documents/${doc.id}/xml?format=${format}`, { key: s.key })
      const file = join(h.dir, `f${++n}-${format}.xml`)
      // A refused document is written without the check, so the official rules say what they fire on it.
      const xml =
        r.status === 200
          ? r.text
          : await writeXml(buildModel({ ...(await exportSourceOf(h.deps.db.read, business, doc)), format }))
      writeFileSync(file, xml)
      files.push(file)
      cells.set(cellName(c, format), {
        status: r.status,
        text: r.text,
        file,
        refusedIds: r.status === 422 ? (r.body.error.rules ?? []).map((x: { id: string }) => x.id) : [],
      })
    }
    // Factur-X: the PDF carries exactly the cii XML, and is refused as that XML is.
    const pdf = await h.app.fetch(
      new Request(`http://localhost/v1/documents/${doc.id}/pdf?format=facturx`, {
        headers: { authorization: `Bearer ${s.key}` },
      }),
    )
    const bytes = new Uint8Array(await pdf.arrayBuffer())
    const facturx: Facturx = {
      status: pdf.status,
      body: pdf.status === 200 ? null : JSON.parse(new TextDecoder().decode(bytes)),
      file: null,
      xml: null,
      pdf: null,
    }
    if (pdf.status === 200) {
      facturx.pdf = join(h.dir, `f${++n}.pdf`)
      writeFileSync(facturx.pdf, bytes)
      const out = join(h.dir, `f${n}-factur-x.xml`)
      const detach = Bun.spawnSync(['pdfdetach', '-save', '1', '-o', out, facturx.pdf])
      if (detach.exitCode === 0) {
        facturx.file = out
        facturx.xml = readFileSync(out, 'utf8')
        files.push(out)
      }
    }
    facturxCells.set(c.name, facturx)
  }
  validation = validateFiles(files)
}, 240_000)
afterAll(() => h.close())

describe('every format × every case: an export passes its official rule sets with 0 fatal; a refusal names exactly the rules they fire', () => {
  for (const c of CASES) {
    for (const format of XML_FORMATS) {
      const expected = c.refused?.[format]
      const title = expected
        ? `${cellName(c, format)}: refused, naming ${expected.join(', ') || 'what the official set fires'}`
        : `${cellName(c, format)}: exports`
      test(title, () => {
        const e = cells.get(cellName(c, format))!
        // Each file names the checks its format answers to: xsd, EN16931 and its CIUS.
        const checks = [...(validation.get(e.file)?.keys() ?? [])].sort()
        const cius = format.startsWith('xrechnung') ? ['xrechnung'] : format === 'peppol' ? ['peppol'] : []
        expect(checks).toEqual(['en16931', 'xsd', ...cius].sort())
        if (!expected) {
          expect(e.status === 200 ? 'exported' : e.text).toBe('exported')
          expect(fatalsOf(validation, e.file)).toEqual([])
          return
        }
        expect(e.status).toBe(422)
        for (const id of expected) expect(e.refusedIds).toContain(id)
        // The refusal names what the official rule sets fire on the same document, no more, no less.
        expect(e.refusedIds.sort()).toEqual(fatalIds(validation, e.file))
      })
    }
  }
})

describe('documents in another currency (extensions §16): BT-6 and BT-111 in every format', () => {
  const cases: [string, string, string][] = [
    ['USD for a EUR seller at a rate sent (BT-6 EUR, BT-111 194.62)', 'EUR', '194.62'],
    // 2 × 100.00 at 19%: VAT 38.00 USD at the harness's standing 0.5.
    ['a Credit Note in USD at the reference rate (BT-6, BT-111)', 'EUR', '19.00'],
    // VAT 12345.7 → 12346 JPY × 0.005197380614 = 64.167…
    ['JPY for a GBP seller at a rate sent (BT-111 in GBP)', 'GBP', '64.17'],
  ]
  for (const [name, currency, amount] of cases) {
    test(`${name}: the accounting currency and the VAT total in it, written in each format's own place`, () => {
      for (const format of XML_FORMATS) {
        const xml = cells.get(`${name} / ${format}`)!.text
        if (format.includes('cii')) {
          expect(xml).toContain(`<ram:TaxCurrencyCode>${currency}</ram:TaxCurrencyCode>`)
          expect(xml).toContain(`<ram:TaxTotalAmount currencyID="${currency}">${amount}</ram:TaxTotalAmount>`)
        } else {
          expect(xml).toContain(`<cbc:TaxCurrencyCode>${currency}</cbc:TaxCurrencyCode>`)
          expect(xml).toMatch(
            new RegExp(
              `<cac:TaxTotal>\\s*<cbc:TaxAmount currencyID="${currency}">${amount.replace('.', '\\.')}</cbc:TaxAmount>\\s*</cac:TaxTotal>`,
            ),
          )
        }
      }
      expect(facturxCells.get(name)!.xml).toBe(cells.get(`${name} / cii`)!.text)
    })
  }
  test("a document in the seller's own currency carries neither", () => {
    for (const format of XML_FORMATS)
      expect(cells.get(cellName(CASES[0]!, format))!.text).not.toContain('TaxCurrencyCode')
  })
})

describe('Factur-X of every case: the PDF carries exactly the cii XML, which passes the CII rules; refused as that XML is', () => {
  for (const c of CASES) {
    const refused = c.refused?.cii
    test(`${c.name}: ${refused ? 'refused like ?format=cii' : 'pdfdetach extracts factur-x.xml, equal to ?format=cii, 0 fatal'}`, () => {
      const f = facturxCells.get(c.name)!
      const cii = cells.get(cellName(c, 'cii'))!
      if (refused) {
        expect(f.status).toBe(422)
        expect(f.body.error.code).toBe('not_exportable')
        expect(f.body.error.rules.map((r: { id: string }) => r.id).sort()).toEqual([...cii.refusedIds].sort())
        return
      }
      expect(f.status).toBe(200)
      expect(f.xml).toBe(cii.text)
      expect(fatalsOf(validation, f.file!)).toEqual([])
    })
  }
})

describe('Factur-X as PDF/A-3b', () => {
  const first = () => facturxCells.get(CASES[0]!.name)!

  test('pdfdetach lists factur-x.xml as the one embedded file', () => {
    const list = Bun.spawnSync(['pdfdetach', '-list', first().pdf!]).stdout.toString()
    expect(list).toContain('1 embedded files')
    expect(list).toContain('factur-x.xml')
  })

  test('pdfdetach -savefile factur-x.xml finds the file by its name: /F, /UF and the name-tree key are the plain string', () => {
    const out = join(h.dir, 'by-name-factur-x.xml')
    const r = Bun.spawnSync(['pdfdetach', '-savefile', 'factur-x.xml', '-o', out, first().pdf!])
    expect(r.exitCode === 0 ? 'saved' : r.stderr.toString()).toBe('saved')
    expect(readFileSync(out, 'utf8')).toBe(cells.get(cellName(CASES[0]!, 'cii'))!.text)
    const raw = readFileSync(first().pdf!, 'latin1')
    expect(raw).toContain('/F (factur-x.xml)')
    expect(raw).toContain('/UF (factur-x.xml)')
    expect(raw).toMatch(/\/EmbeddedFiles <<\s*\/Names \[ \(factur-x\.xml\) \d+ 0 R \]/)
  })

  test('pdffonts shows every font embedded', () => {
    const rows = Bun.spawnSync(['pdffonts', first().pdf!]).stdout.toString().trim().split('\n').slice(2)
    expect(rows.length).toBeGreaterThan(0)
    // Columns: name type encoding emb sub uni object ID; "emb" is the fourth from the end.
    for (const row of rows) expect(row.trim().split(/\s+/).slice(-5, -4)[0]).toBe('yes')
  })

  test('the XMP packet names PDF/A-3B and the Factur-X EN 16931 profile; the file is in /AF as Alternative with an sRGB output intent', () => {
    const raw = readFileSync(first().pdf!, 'latin1')
    expect(raw).toContain('<pdfaid:part>3</pdfaid:part>')
    expect(raw).toContain('<pdfaid:conformance>B</pdfaid:conformance>')
    expect(raw).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>')
    expect(raw).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>')
    expect(raw).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>')
    expect(raw).toMatch(/\/AFRelationship \/Alternative/)
    expect(raw).toMatch(/\/AF \[/)
    expect(raw).toMatch(/\/S \/GTS_PDFA1/)
    expect(raw).toMatch(/\/DestOutputProfile \d+ 0 R/)
    expect(raw).toMatch(/\/ID \[/)
    // pdfinfo reads the same title and producer the XMP packet holds.
    const info = Bun.spawnSync(['pdfinfo', first().pdf!]).stdout.toString()
    expect(info).toMatch(/Producer:\s+invoicing/)
    expect(info).toMatch(/Title:\s+Invoice /)
  })

  test('pdftotext reads the visible invoice: number, parties, totals', () => {
    const text = Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', first().pdf!, '-']).stdout.toString()
    const cii = cells.get(cellName(CASES[0]!, 'cii'))!.text
    const number = /<ram:ID>([^<]+)<\/ram:ID>\s*<ram:TypeCode>/.exec(cii)![1]!
    expect(text).toContain(number)
    expect(text).toContain('Seller Software GmbH')
    expect(text).toContain('Buyer AG')
    expect(text).toContain(/<ram:GrandTotalAmount>([^<]+)</.exec(cii)![1]!)
  })

  test('an unknown format is 422 naming format; a Test business refuses Factur-X; the plain PDF stays available', async () => {
    const s = await h.business({ ...SELLER })
    const t = await h.business({ ...SELLER, isTest: true })
    for (const b of [s, t]) {
      const clientId = await h.client(b.key, { buyer_reference: 'X' })
      const d = await h.request('POST', '/v1/documents', {
        key: b.key,
        body: { type: 'invoice', client_id: clientId, lines: [line()] },
      })
      await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
      if (b === s) {
        const bad = await h.request('GET', `/v1/documents/${d.body.id}/pdf?format=zugferd`, { key: b.key })
        expect(bad.status).toBe(422)
        expect(Object.keys(bad.body.error.errors)).toEqual(['format'])
        const badXml = await h.request('GET', `/v1/documents/${d.body.id}/xml?format=facturx`, { key: b.key })
        expect(badXml.status).toBe(422)
        expect(Object.keys(badXml.body.error.errors)).toEqual(['format'])
      } else {
        const r = await h.request('GET', `/v1/documents/${d.body.id}/pdf?format=facturx`, { key: b.key })
        expect(r.status).toBe(422)
        expect(r.body.error.code).toBe('exports_not_in_a_test_business')
        for (const format of XML_FORMATS)
          expect(
            (await h.request('GET', `/v1/documents/${d.body.id}/xml?format=${format}`, { key: b.key })).body.error.code,
          ).toBe('exports_not_in_a_test_business')
      }
      expect((await h.request('GET', `/v1/documents/${d.body.id}/pdf`, { key: b.key })).status).toBe(200)
    }
  })
})
