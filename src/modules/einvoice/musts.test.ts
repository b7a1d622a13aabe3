// Two "Must show" items of the e-invoice issue, through the API against a real temp-file database:
//  1. for each rule family, a real issued document that breaks one of its rules is refused `not_exportable` naming
//     that rule (and the same document with that one thing mended exports); rules no request can break are shown
//     refused earlier by the API, with rules.test.ts proving the rule itself on the model;
//  2. the totals in the XML equal the document's own answer to the cent for the money cases of the documents issue,
//     and that XML passes the OASIS UBL 2.1 XSD.
import { describe, expect, test } from 'bun:test'
import { expectRefusedUnder, harnessForFile, type Harness, type TestResponse } from '../../../test/harness'
import { currencyScale } from '../../shared/currencies'
import { Dec } from '../../shared/money'
import type { BusinessInput } from '../business'
import { RULES } from './rules'
import {
  exemptLine as exempt,
  exportSetup,
  GERMAN_BUYER,
  localPath,
  servicesLine as line,
  xmllint,
  type Seller,
} from './einvoice.testkit'

let h: Harness
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

// ---------------------------------------------------------------------------------------------------------------
// xmllint: the XSD and XPath reads over the written XML

const { read: reader, xsdErrors } = xmllint(() => h.dir, 'musts')

// ---------------------------------------------------------------------------------------------------------------
// Setup through the API

function postClient(s: Seller, extra: Record<string, unknown> = {}): Promise<TestResponse> {
  return h.request('POST', '/v1/clients', { key: s.key, body: { ...GERMAN_BUYER, ...extra } })
}

const { seller, client, issued, xmlOf, exported } = exportSetup(() => h, xsdErrors)

/** A Draft for the Client as the API answers it: an Invoice of one Consulting services Line unless the body says otherwise. */
function postDraft(s: Seller, clientId: number, body: Record<string, unknown>): Promise<TestResponse> {
  return h.request('POST', '/v1/documents', {
    key: s.key,
    body: { type: 'invoice', client_id: clientId, lines: [line()], ...body },
  })
}

/** The document as the API answers it (GET /v1/documents/{id}). */
async function answerOf(s: Seller, id: number): Promise<any> {
  const r = await h.request('GET', `/v1/documents/${id}`, { key: s.key })
  expect(r.status).toBe(200)
  return r.body
}

const MESSAGES = new Map(RULES.map((r) => [r.id, r.message]))

/**
 * Expects the refusal not_exportable failing exactly the given rules: each named in the message and listed in
 * `rules` as {id, message} with the rule table's own words.
 */
function expectRuleRefusal(r: TestResponse, ids: string[]): void {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('refusal')
  expect(r.body.error.code).toBe('not_exportable')
  const rules = r.body.error.rules as { id: string; message: string }[]
  expect(rules.map((x) => x.id).sort()).toEqual([...ids].sort())
  for (const id of ids) {
    expect(r.body.error.message).toContain(id)
    expect(rules).toContainEqual({ id, message: MESSAGES.get(id)! })
  }
}

/** The family of a rule id: BR-25 → BR, BR-CO-09 → BR-CO, BR-S-02 → BR-S. */
const familyOf = (id: string) => id.replace(/-[0-9]+$/, '')

// ---------------------------------------------------------------------------------------------------------------
// 1. Each rule family, broken by a real document

interface Setup {
  seller?: Partial<BusinessInput>
  client?: Record<string, unknown>
  doc: Record<string, unknown>
}

interface FamilyCase {
  rule: string
  /** What breaks it, in words. */
  how: string
  broken: Setup
  /** Every rule the refusal names: the broken one and, where the standard ties them, its companions. */
  fails: string[]
  /** The same document with that one thing mended, which exports. */
  mended: Setup
}

const VAT_CLIENT = { country: 'AT', vat_number: 'ATU12345678' }

const FAMILY_CASES: FamilyCase[] = [
  {
    rule: 'BR-25',
    how: 'a Line description made only of characters XML cannot carry leaves the item name empty',
    broken: { doc: { lines: [line({ description: '\u0007\u001b' })] } },
    fails: ['BR-25'],
    mended: { doc: { lines: [line({ description: 'Consulting\u0007' })] } },
  },
  {
    rule: 'BR-07',
    how: 'a Client name made only of characters XML cannot carry leaves the Buyer name empty',
    broken: { client: { name: '\u0001' }, doc: {} },
    fails: ['BR-07'],
    mended: { client: { name: '\u0001', legal_name: 'Buyer Aktiengesellschaft' }, doc: {} },
  },
  {
    rule: 'BR-CO-09',
    how: 'a Client VAT number with a lower-case country prefix',
    broken: { client: { vat_number: 'de987654321' }, doc: {} },
    fails: ['BR-CO-09'],
    mended: { client: { vat_number: 'DE987654321' }, doc: {} },
  },
  {
    rule: 'BR-DEC-23',
    how: 'a KWD Line net with a third decimal (3 × 1.2345 = 3.704)',
    broken: {
      client: { currency: 'KWD' },
      doc: { lines: [line({ quantity: '3', unit_price: '1.2345', vat_rate: '0' })] },
    },
    // The third decimal reaches every amount built from it; the sums the official rules round to two decimals
    // (BR-CO-10, BR-CO-15) and UBL's data type rule (UBL-DT-01) fire with it, as the official set does.
    fails: [
      'BR-CO-10',
      'BR-CO-15',
      'BR-DEC-09',
      'BR-DEC-12',
      'BR-DEC-14',
      'BR-DEC-18',
      'BR-DEC-19',
      'BR-DEC-23',
      'UBL-DT-01',
    ],
    mended: {
      client: { currency: 'KWD' },
      doc: { lines: [line({ quantity: '3', unit_price: '1.2300', vat_rate: '0' })] },
    },
  },
  {
    rule: 'BR-CL-22',
    how: 'an exemption code of VATEX form that is not on the CEF VATEX list',
    broken: { doc: { lines: [exempt('E', 'VATEX-EU-999')] } },
    fails: ['BR-CL-22'],
    mended: { doc: { lines: [exempt('E', 'VATEX-EU-132')] } },
  },
  {
    rule: 'BR-S-02',
    how: 'S Lines by a Non-VAT Payer, whose VAT number is written nowhere',
    broken: { seller: { isVatPayer: false }, doc: {} },
    fails: ['BR-S-02'],
    mended: { doc: {} },
  },
  {
    rule: 'BR-Z-02',
    how: 'Z Lines by a Business with no VAT number',
    broken: { seller: { vatNumber: null }, doc: { lines: [line({ vat_rate: '0' })] } },
    fails: ['BR-Z-02'],
    mended: { doc: { lines: [line({ vat_rate: '0' })] } },
  },
  {
    rule: 'BR-E-01',
    how: 'E Lines with two different exemption codes, which make two exempt breakdowns (each short of the category, BR-E-08)',
    broken: { doc: { lines: [exempt('E', 'VATEX-EU-132'), exempt('E', 'VATEX-EU-143')] } },
    fails: ['BR-E-01', 'BR-E-08'],
    mended: { doc: { lines: [exempt('E', 'VATEX-EU-132'), exempt('E', 'VATEX-EU-132')] } },
  },
  {
    rule: 'BR-E-02',
    how: 'E Lines by a Non-VAT Payer',
    broken: { seller: { isVatPayer: false }, doc: { lines: [exempt('E', 'VATEX-EU-132')] } },
    fails: ['BR-E-02'],
    mended: { doc: { lines: [exempt('E', 'VATEX-EU-132')] } },
  },
  {
    rule: 'BR-AE-02',
    how: 'AE (reverse charge) Lines for a Client with no VAT number',
    broken: { client: { country: 'AT' }, doc: { lines: [exempt('AE', 'VATEX-EU-AE')] } },
    fails: ['BR-AE-02'],
    mended: { client: VAT_CLIENT, doc: { lines: [exempt('AE', 'VATEX-EU-AE')] } },
  },
  {
    rule: 'BR-AE-10',
    how: 'AE Lines whose exemption code means intra-community supply, not reverse charge',
    broken: { client: VAT_CLIENT, doc: { lines: [exempt('AE', 'VATEX-EU-IC')] } },
    fails: ['BR-AE-10'],
    mended: { client: VAT_CLIENT, doc: { lines: [exempt('AE', 'VATEX-EU-AE')] } },
  },
  {
    rule: 'BR-IC-02',
    how: 'K (intra-community supply) Lines for a Client with no VAT number',
    broken: { client: { country: 'FR' }, doc: { lines: [exempt('K', 'VATEX-EU-IC')] } },
    fails: ['BR-IC-02'],
    mended: { client: { country: 'FR', vat_number: 'FR12345678901' }, doc: { lines: [exempt('K', 'VATEX-EU-IC')] } },
  },
  {
    rule: 'BR-IC-10',
    how: 'K Lines whose exemption code means reverse charge',
    broken: { client: { country: 'FR', vat_number: 'FR12345678901' }, doc: { lines: [exempt('K', 'VATEX-EU-AE')] } },
    fails: ['BR-IC-10'],
    mended: { client: { country: 'FR', vat_number: 'FR12345678901' }, doc: { lines: [exempt('K', 'VATEX-EU-IC')] } },
  },
  {
    rule: 'BR-G-02',
    how: 'G (export) Lines by a Non-VAT Payer',
    broken: { seller: { isVatPayer: false }, client: { country: 'US' }, doc: { lines: [exempt('G', 'VATEX-EU-G')] } },
    fails: ['BR-G-02'],
    mended: { client: { country: 'US' }, doc: { lines: [exempt('G', 'VATEX-EU-G')] } },
  },
  {
    rule: 'BR-G-10',
    how: 'G Lines whose exemption code means not subject to VAT',
    broken: { client: { country: 'US' }, doc: { lines: [exempt('G', 'VATEX-EU-O')] } },
    fails: ['BR-G-10'],
    mended: { client: { country: 'US' }, doc: { lines: [exempt('G', 'VATEX-EU-G')] } },
  },
  {
    rule: 'BR-O-12',
    how: 'an O Line beside an S Line (which also brings the Seller VAT number, BR-O-02, and a second breakdown, BR-O-11)',
    broken: { doc: { lines: [line(), exempt('O', 'VATEX-EU-O')] } },
    fails: ['BR-O-02', 'BR-O-11', 'BR-O-12'],
    mended: {
      doc: { lines: [exempt('O', 'VATEX-EU-O', { description: 'Membership fee' }), exempt('O', 'VATEX-EU-O')] },
    },
  },
]

async function documentOf(setup: Setup): Promise<{ s: Seller; doc: any }> {
  const s = await seller(setup.seller)
  const doc = await issued(s, await client(s, setup.client), setup.doc)
  return { s, doc }
}

describe('each rule family: an issued document that breaks one of its rules is refused not_exportable naming that rule', () => {
  test.each(FAMILY_CASES.map((c) => [familyOf(c.rule), c.rule, c.how, c] as const))(
    '%s: %s is named when %s; the same document mended exports',
    async (_family, rule, _how, c) => {
      const broken = await documentOf(c.broken)
      expect(broken.doc.status).toBe('issued')
      const r = await xmlOf(broken.s, broken.doc.id)
      expect(c.fails).toContain(rule)
      expectRuleRefusal(r, c.fails)

      const mended = await documentOf(c.mended)
      await exported(mended.s, mended.doc.id)
    },
  )

  test('every rule family of the table (BR, BR-CO, BR-DEC, BR-CL, BR-S, BR-Z, BR-E, BR-AE, BR-IC, BR-G, BR-O) is broken by one of these documents', () => {
    const families = new Set(RULES.map((r) => familyOf(r.id)))
    expect([...families].sort()).toEqual([
      'BR',
      'BR-AE',
      'BR-CL',
      'BR-CO',
      'BR-DEC',
      'BR-E',
      'BR-G',
      'BR-IC',
      'BR-O',
      'BR-S',
      'BR-Z',
      'UBL-DT',
    ])
    const broken = new Set(FAMILY_CASES.flatMap((c) => c.fails.map(familyOf)))
    for (const f of families) expect(broken.has(f)).toBe(true)
  })
})

describe('rules no API request can break: the API refuses or mends the input first (rules.test.ts proves each rule on the model)', () => {
  test('BR-08/BR-09 are unreachable: a Business cannot be set up without a real country', async () => {
    await expect(seller({ country: '' })).rejects.toThrow()
    await expect(seller({ country: 'XX' })).rejects.toThrow()
  })

  test('BR-10/BR-11, BR-57 and BR-CL-14 are unreachable: a Client without a country, or with one outside ISO 3166-1, is 422 under country', async () => {
    const s = await seller()
    const none = await h.request('POST', '/v1/clients', {
      key: s.key,
      body: { name: 'Buyer AG', email: 'ap@buyer.example' },
    })
    expect(none.status).toBe(422)
    expectRefusedUnder(await postClient(s, { country: '' }), 'country')
    expectRefusedUnder(await postClient(s, { country: 'XX' }), 'country')
  })

  test('a Client without street, city or postal code breaks no rule: its postal address carries the country alone and exports', async () => {
    const s = await seller()
    const c = await client(s, { address: null, city: null, postal_code: null })
    const xml = reader(await exported(s, (await issued(s, c)).id))
    expect(xml.text('//AccountingCustomerParty/Party/PostalAddress/Country/IdentificationCode')).toBe('DE')
    expect(xml.count('//AccountingCustomerParty/Party/PostalAddress/CityName')).toBe(0)
  })

  test('BR-16, BR-25 by omission and BR-27 are unreachable: no Lines is not issued, a Line without description or with a negative price is 422', async () => {
    const s = await seller()
    const c = await client(s)
    const empty = await postDraft(s, c, { lines: [] })
    expect(empty.status).toBe(201)
    expectRefusedUnder(await h.request('POST', `/v1/documents/${empty.body.id}/issue`, { key: s.key }), 'lines')
    expectRefusedUnder(await postDraft(s, c, { lines: [line({ description: '  ' })] }), 'lines.0.description')
    expectRefusedUnder(await postDraft(s, c, { lines: [line({ unit_price: '-1.00' })] }), 'lines.0.unit_price')
  })

  test('BR-CL-04 and BR-CL-23 are unreachable: an unknown currency is 422, a unit outside Rec 20 is written as C62 (one)', async () => {
    const s = await seller()
    const c = await client(s)
    expectRefusedUnder(await postDraft(s, c, { currency: 'XYZ' }), 'currency')
    expectRefusedUnder(await postClient(s, { currency: 'XYZ' }), 'currency')
    const doc = await issued(s, c, { lines: [line({ unit: 'licence' })] })
    const xml = reader(await exported(s, doc.id))
    expect(xml.number(`count(${localPath('/Invoice/InvoiceLine/InvoicedQuantity')}[@unitCode='C62'])`)).toBe(1)
  })

  test('BR-IC-11 is unreachable: a K document issued without delivery_date takes the issue date as its actual delivery date', async () => {
    const s = await seller()
    const c = await client(s, { country: 'FR', vat_number: 'FR12345678901' })
    const doc = await issued(s, c, { delivery_date: null, lines: [exempt('K', 'VATEX-EU-IC')] })
    expect(doc.delivery_date).toBe(doc.issue_date)
    const xml = reader(await exported(s, doc.id))
    expect(xml.text('/Invoice/Delivery/ActualDeliveryDate')).toBe(doc.issue_date)
  })

  test('BR-O-02 alone is unreachable: a document of only O Lines is written without the VAT numbers both parties hold', async () => {
    const s = await seller()
    const c = await client(s, { vat_number: 'DE987654321' })
    const xml = reader(await exported(s, (await issued(s, c, { lines: [exempt('O', 'VATEX-EU-O')] })).id))
    expect(xml.count('//PartyTaxScheme')).toBe(0)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// 2. Totals in the XML equal the document's answer

/** An amount of the XML against the answer's: the same text where the currency has at most two decimals, else the same value written with at most two. */
function expectSameAmount(written: string, answered: string, currency: string, what: string): void {
  if (currencyScale(currency) <= 2) {
    expect(`${what} ${written}`).toBe(`${what} ${answered}`)
  } else {
    expect(`${what} ${written} ${new Dec(written).eq(new Dec(answered))}`).toBe(`${what} ${written} true`)
    expect((written.split('.')[1] ?? '').length).toBeLessThanOrEqual(2)
  }
}

/** Every amount, category and rate the XML carries equals the document's answer; answers the reader. */
function expectXmlMatchesAnswer(xmlText: string, doc: any): ReturnType<typeof reader> {
  const xml = reader(xmlText)
  const cur: string = doc.currency
  const root = doc.type === 'credit_note' ? 'CreditNote' : 'Invoice'
  const lineEl = doc.type === 'credit_note' ? 'CreditNoteLine' : 'InvoiceLine'
  const same = (path: string, answered: string) => expectSameAmount(xml.text(path), answered, cur, path)

  expect(xml.text(`/${root}/ID`)).toBe(doc.document_number)
  expect(xml.text(`/${root}/DocumentCurrencyCode`)).toBe(cur)
  // Every amount carries the document currency, but BT-111: the VAT total in the Business's currency, which a
  // document in another currency states (extensions §16), equal to its answer.
  expect(xml.number('count(//@currencyID)')).toBeGreaterThan(0)
  const acc: string | null = doc.accounting_currency
  expect(xml.number(`count(//@currencyID[. != '${cur}'])`)).toBe(acc ? 1 : 0)
  if (acc) {
    expect(xml.text(`/${root}/TaxCurrencyCode`)).toBe(acc)
    expect(xml.text(`/${root}/TaxTotal/TaxAmount[@currencyID = '${acc}']`)).toBe(doc.vat_total_accounting)
  }

  // BG-22: the document as issued, with nothing prepaid, rounded, allowed or charged.
  const lmt = `/${root}/LegalMonetaryTotal`
  same(`${lmt}/LineExtensionAmount`, doc.net_total)
  same(`${lmt}/TaxExclusiveAmount`, doc.net_total)
  same(`${lmt}/TaxInclusiveAmount`, doc.total)
  same(`${lmt}/PayableAmount`, doc.total)
  same(`${lmt}/PayableAmount`, doc.amount_due)
  for (const absent of ['AllowanceTotalAmount', 'ChargeTotalAmount', 'PrepaidAmount', 'PayableRoundingAmount'])
    expect(xml.count(`${lmt}/${absent}`)).toBe(0)

  // BG-23: one TaxTotal, its TaxAmount the VAT total, one TaxSubtotal per band of vat_breakdown, in its order (and
  // for a document in another currency a second one, BT-111 alone, checked above).
  expect(xml.count(`/${root}/TaxTotal`)).toBe(acc ? 2 : 1)
  expect(xml.count(`/${root}/TaxTotal/TaxSubtotal/..`)).toBe(1)
  same(`/${root}/TaxTotal[1]/TaxAmount`, doc.vat_total)
  expect(xml.count(`/${root}/TaxTotal/TaxSubtotal`)).toBe(doc.vat_breakdown.length)
  doc.vat_breakdown.forEach((band: any, i: number) => {
    const sub = `/${root}/TaxTotal/TaxSubtotal[${i + 1}]`
    same(`${sub}/TaxableAmount`, band.net)
    same(`${sub}/TaxAmount`, band.vat)
    expect(xml.text(`${sub}/TaxCategory/ID`)).toBe(band.category)
    if (band.category === 'O') expect(xml.count(`${sub}/TaxCategory/Percent`)).toBe(0)
    else expect(new Dec(xml.text(`${sub}/TaxCategory/Percent`)).eq(new Dec(band.rate))).toBe(true)
  })

  // BG-25: each Line by its position, with its net amount, category and rate.
  expect(xml.count(`/${root}/${lineEl}`)).toBe(doc.lines.length)
  for (const l of doc.lines) {
    const at = `/${root}/${lineEl}[ID='${l.position}']`
    expect(xml.count(at)).toBe(1)
    same(`${at}/LineExtensionAmount`, l.net_amount)
    expect(xml.text(`${at}/Item/ClassifiedTaxCategory/ID`)).toBe(l.vat_category)
    expect(new Dec(xml.text(`${at}/Item/ClassifiedTaxCategory/Percent`)).eq(new Dec(l.vat_rate))).toBe(true)
  }
  return xml
}

async function product(s: Seller, body: Record<string, unknown>): Promise<number> {
  const r = await h.request('POST', '/v1/products', { key: s.key, body: { type: 'product', currency: 'EUR', ...body } })
  if (r.status !== 201) throw new Error(`product refused: ${r.status} ${r.text}`)
  return r.body.id
}

interface MoneyCase {
  name: string
  currency: string
  client?: Record<string, unknown>
  /** Lines; a function of the Seller where they bill its Products. */
  lines: Array<Record<string, unknown>> | ((s: Seller) => Promise<Array<Record<string, unknown>>>)
  type?: 'invoice' | 'credit_note'
  /** Hand-computed: Line nets, net_total, vat_total, total. */
  nets: string[]
  net: string
  vat: string
  total: string
}

// The money cases of the documents issue (documents.test.ts, totals.test.ts), each with its hand-computed result.
const MONEY_CASES: MoneyCase[] = [
  {
    name: 'EUR at 19%, 7% and 0% (Z, E, AE) with VAT-included Product Lines (10.00 incl. 19% → 8.40; 10.70 incl. 7% → 10.00)',
    currency: 'EUR',
    client: VAT_CLIENT,
    lines: async (s) => {
      const p19 = await product(s, { name: 'Gift box', price: '10.00', vat_rate: '19.00', vat_included: true })
      const p7 = await product(s, { name: 'Book', price: '10.70', vat_rate: '7.00', vat_included: true })
      return [
        { description: 'A', quantity: '3', unit_price: '19.99', vat_rate: '19.00' }, // 59.97
        { description: 'B', quantity: '1.5', unit_price: '10.00', vat_rate: '7.00' }, // 15.00
        { description: 'C', quantity: '2', unit_price: '5.555', vat_rate: '19.00' }, // 11.11
        { description: 'D', quantity: '1', unit_price: '100.00', vat_rate: '0' }, // Z 100.00
        exempt('E', 'VATEX-EU-132', { description: 'E', unit_price: '50.00' }),
        exempt('AE', 'VATEX-EU-AE', { description: 'F', unit_price: '20.00' }),
        { product_id: p19, quantity: '3' }, // 25.20
        { product_id: p7, quantity: '2' }, // 20.00
      ]
    },
    nets: ['59.97', '15.00', '11.11', '100.00', '50.00', '20.00', '25.20', '20.00'],
    // 19%: 59.97 + 11.11 + 25.20 = 96.28 → 18.2932 → 18.29; 7%: 35.00 → 2.45.
    net: '301.28',
    vat: '20.74',
    total: '322.02',
  },
  {
    name: 'EUR half away from zero: 3 × 0.335 = 1.005 → 1.01, VAT per band (3 × 0.10 at 5% → 0.02), 0.25 at 2% → 0.01',
    currency: 'EUR',
    lines: [
      { description: 'A', quantity: '1', unit_price: '0.10', vat_rate: '5.00' },
      { description: 'B', quantity: '1', unit_price: '0.10', vat_rate: '5.00' },
      { description: 'C', quantity: '1', unit_price: '0.10', vat_rate: '5.00' },
      { description: 'D', quantity: '3', unit_price: '0.335', vat_rate: '10.00' }, // 1.01; VAT 0.101 → 0.10
      { description: 'E', quantity: '1', unit_price: '0.25', vat_rate: '2.00' }, // VAT 0.005 → 0.01
      { description: 'F', quantity: '0.3333', unit_price: '1.005', vat_rate: '0' }, // 0.3349665 → 0.33
    ],
    nets: ['0.10', '0.10', '0.10', '1.01', '0.25', '0.33'],
    net: '1.89',
    vat: '0.13',
    total: '2.02',
  },
  {
    name: 'the same rounding on a Credit Note (CreditNote 381)',
    currency: 'EUR',
    type: 'credit_note',
    lines: [
      { description: 'D', quantity: '3', unit_price: '0.335', vat_rate: '10.00' },
      { description: 'E', quantity: '1', unit_price: '0.25', vat_rate: '2.00' },
    ],
    nets: ['1.01', '0.25'],
    net: '1.26',
    vat: '0.11',
    total: '1.37',
  },
  {
    name: 'JPY, no decimals: 3 × 333.5 = 1000.5 → 1001, VAT 100.1 → 100 and 78.4 → 78',
    currency: 'JPY',
    lines: [
      { description: 'A', quantity: '3', unit_price: '333.5', vat_rate: '10.00' },
      { description: 'B', quantity: '1', unit_price: '980', vat_rate: '8.00' },
    ],
    nets: ['1001', '980'],
    net: '1981',
    vat: '178',
    total: '2159',
  },
  {
    name: 'KWD, three decimals, with amounts in whole tens of fils (written with two decimals)',
    currency: 'KWD',
    lines: [
      { description: 'A', quantity: '2', unit_price: '10.250', vat_rate: '10.00' }, // 20.500; VAT 2.050
      { description: 'B', quantity: '1', unit_price: '5.100', vat_rate: '0' }, // Z 5.100
    ],
    nets: ['20.500', '5.100'],
    net: '25.600',
    vat: '2.050',
    total: '27.650',
  },
  {
    name: 'the largest Line net, 999999999999999.99 EUR at 0% (Z), just below 10^15',
    currency: 'EUR',
    lines: [{ description: 'Everything', quantity: '1', unit_price: '999999999999999.99', vat_rate: '0' }],
    nets: ['999999999999999.99'],
    net: '999999999999999.99',
    vat: '0.00',
    total: '999999999999999.99',
  },
]

describe("totals in the XML equal the document's answer to the cent, for the money cases of the documents issue", () => {
  test.each(MONEY_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const s = await seller()
    const c1 = await client(s, { currency: c.currency, ...c.client })
    const lines = typeof c.lines === 'function' ? await c.lines(s) : c.lines
    let body: Record<string, unknown> = { currency: c.currency, lines }
    if (c.type === 'credit_note')
      body = { ...body, type: 'credit_note', credited_document_id: (await issued(s, c1, { currency: c.currency })).id }
    const doc = await answerOf(s, (await issued(s, c1, body)).id)
    // The document answers the hand-computed money.
    expect(doc.lines.map((l: any) => l.net_amount)).toEqual(c.nets)
    expect([doc.net_total, doc.vat_total, doc.total, doc.amount_due]).toEqual([c.net, c.vat, c.total, c.total])

    const xml = expectXmlMatchesAnswer(await exported(s, doc.id), doc)
    if (c.type === 'credit_note') expect(xml.count('/CreditNote/CreditNoteLine')).toBe(doc.lines.length)
  })

  test('KWD with a third decimal (3 × 1.2345 = 3.704, VAT 0.185): the documents-issue case is refused under the rules the official UBL set fires, not rounded into the XML', async () => {
    const s = await seller()
    const c = await client(s, { currency: 'KWD' })
    const doc = await issued(s, c, {
      currency: 'KWD',
      lines: [
        { description: 'A', quantity: '3', unit_price: '1.2345', vat_rate: '5.00' },
        { description: 'B', quantity: '2', unit_price: '0.0005', vat_rate: '0' },
      ],
    })
    expect([doc.net_total, doc.vat_total, doc.total]).toEqual(['3.705', '0.185', '3.890'])
    // Every amount with a non-zero third decimal is named; the total 3.890 is 3.89 and passes BR-DEC-14, BR-DEC-18 and
    // BR-CO-15. UBL's BR-DEC-13 never fires (its currency test finds nothing); BR-CO-10/14 and UBL-DT-01 do.
    expectRuleRefusal(await xmlOf(s, doc.id), [
      'BR-CO-10',
      'BR-CO-14',
      'BR-DEC-09',
      'BR-DEC-12',
      'BR-DEC-19',
      'BR-DEC-20',
      'BR-DEC-23',
      'UBL-DT-01',
    ])
  })

  test('PayableAmount is the total as issued: a Payment recorded later changes amount_due, not the XML', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s))
    const paid = await h.request('POST', `/v1/documents/${doc.id}/payments`, {
      key: s.key,
      body: { amount: '19.00', payment_date: doc.issue_date, payment_method: 'cash' },
    })
    expect(paid.status).toBe(201)
    const after = await answerOf(s, doc.id)
    expect(after.amount_due).toBe('100.00')
    const xml = reader(await exported(s, doc.id))
    expect(xml.text('/Invoice/LegalMonetaryTotal/PayableAmount')).toBe(after.total)
    expect(xml.count('/Invoice/LegalMonetaryTotal/PrepaidAmount')).toBe(0)
  })
})
