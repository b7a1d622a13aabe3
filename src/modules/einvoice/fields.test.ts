// The data the e-invoice profiles need (extensions §3), through the API and the CLI against a real temp-file
// database: the Client's electronic address and buyer reference, the document's buyer and order references, the
// Business's e-invoice setup; UBL and CII of one document carry the same totals, parties and lines; the payment
// terms note agrees with the due date; a Send attaches the format the Business chose.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Harness } from '../../../test/harness'
import { mailHarnessForFile } from '../../../test/mail-harness'
import type { TestSmtpServer } from '../../adapters/smtp-test-server'
import type { BusinessInput } from '../business'
import { GERMAN_SELLER, servicesLine as line, xmllint } from './einvoice.testkit'

let h: Harness
let smtp: TestSmtpServer
let files = 0

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
mailHarnessForFile((made, server) => ((h = made), (smtp = server)), { freshMinute: true })

const GLN = { scheme: '0088', value: '4006381333931' }

function seller(input: Partial<BusinessInput> = {}) {
  return h.business({
    ...GERMAN_SELLER,
    contactName: 'Erika Mustermann',
    contactPhone: '+49 30 1234567',
    ...input,
  })
}

async function issued(key: string, body: Record<string, unknown>): Promise<any> {
  const d = await h.request('POST', '/v1/documents', { key, body: { type: 'invoice', lines: [line()], ...body } })
  expect(d.status).toBe(201)
  const i = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key })
  expect(i.status).toBe(200)
  return i.body
}

/** XPath reads over one XML text by local names (xmllint), so UBL and CII need no namespace bindings. */
const { read: reader } = xmllint(() => h.dir, 'fields')

describe('the Client: electronic_address and buyer_reference', () => {
  test('are stored and answered; null takes the EM default with the Client email; an unknown EAS scheme is 422 under its field', async () => {
    const s = await seller()
    const c = await h.request('POST', '/v1/clients', {
      key: s.key,
      body: {
        name: 'Buyer AG',
        email: 'ap@buyer.example',
        country: 'DE',
        electronic_address: GLN,
        buyer_reference: '991-12345-67',
      },
    })
    expect(c.status).toBe(201)
    expect(c.body).toMatchObject({ electronic_address: GLN, buyer_reference: '991-12345-67' })
    const cleared = await h.request('PATCH', `/v1/clients/${c.body.id}`, {
      key: s.key,
      body: { electronic_address: null, buyer_reference: '' },
    })
    expect(cleared.body).toMatchObject({
      electronic_address: { scheme: 'EM', value: 'ap@buyer.example' },
      buyer_reference: null,
    })
    const bad = await h.request('PATCH', `/v1/clients/${c.body.id}`, {
      key: s.key,
      body: { electronic_address: { scheme: 'XX', value: '1' } },
    })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.error.errors)).toEqual(['electronic_address.scheme'])
    const extra = await h.request('PATCH', `/v1/clients/${c.body.id}`, {
      key: s.key,
      body: { electronic_address: { scheme: 'EM', value: 'a@b.example', other: 1 } },
    })
    expect(extra.status).toBe(422)
    // Nothing refused was written.
    expect((await h.request('GET', `/v1/clients/${c.body.id}`, { key: s.key })).body.electronic_address).toEqual({
      scheme: 'EM',
      value: 'ap@buyer.example',
    })
  })
})

describe("the document: buyer_reference (default the Client's) and order_reference", () => {
  test("a document takes the Client's buyer reference, kept as it stood at issue; its own overrides it; both reach UBL and CII", async () => {
    const s = await seller()
    const clientId = await h.client(s.key, {
      buyer_reference: 'LEITWEG-1',
      electronic_address: GLN,
      city: 'Hamburg',
      postal_code: '20095',
    })
    const doc = await issued(s.key, { client_id: clientId, order_reference: 'PO-4711' })
    expect(doc).toMatchObject({ buyer_reference: 'LEITWEG-1', order_reference: 'PO-4711' })
    expect(doc.client).toMatchObject({ buyer_reference: 'LEITWEG-1', electronic_address: GLN })
    await h.request('PATCH', `/v1/clients/${clientId}`, { key: s.key, body: { buyer_reference: 'LEITWEG-2' } })
    expect((await h.request('GET', `/v1/documents/${doc.id}`, { key: s.key })).body.buyer_reference).toBe('LEITWEG-1')
    const own = await issued(s.key, { client_id: clientId, buyer_reference: 'OWN-REF' })
    expect(own.buyer_reference).toBe('OWN-REF')

    const ubl = reader((await h.request('GET', `/v1/documents/${doc.id}/xml`, { key: s.key })).text)
    expect([ubl.text('/Invoice/BuyerReference'), ubl.text('/Invoice/OrderReference/ID')]).toEqual([
      'LEITWEG-1',
      'PO-4711',
    ])
    const cii = reader((await h.request('GET', `/v1/documents/${doc.id}/xml?format=cii`, { key: s.key })).text)
    const agreement = '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement'
    expect([
      cii.text(`${agreement}/BuyerReference`),
      cii.text(`${agreement}/BuyerOrderReferencedDocument/IssuerAssignedID`),
    ]).toEqual(['LEITWEG-1', 'PO-4711'])
  })
})

describe('the Business: e-invoice setup through the CLI, answered by GET /v1/business', () => {
  const bun = './node_modules/.bin/bun'
  function cli(args: string[]) {
    const p = Bun.spawnSync([bun, 'src/main.ts', ...args, '--db', h.deps.config.dbPath, '--json'], {
      cwd: `${import.meta.dir}/../../..`,
      env: { ...process.env, INVOICING_DB: '' },
    })
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString().trim() }
  }

  test('--electronic-address SCHEME:VALUE, --contact-*, --tax-registration-id and --einvoice-format are stored, answered and cleared blank', async () => {
    const created = cli([
      'business',
      'create',
      '--name',
      'CLI GmbH',
      '--country',
      'DE',
      '--currency',
      'EUR',
      '--email',
      'office@cli.example',
    ])
    expect(created.code, created.err).toBe(0)
    const id = JSON.parse(created.out).id as number
    const updated = cli([
      'business',
      'update',
      String(id),
      '--electronic-address',
      '0088:4006381333931',
      '--contact-name',
      'Max Muster',
      '--contact-phone',
      '+49 89 555',
      '--contact-email',
      'ap@cli.example',
      '--tax-registration-id',
      '143/123/45678',
      '--einvoice-format',
      'xrechnung-cii',
    ])
    expect(updated.code, updated.err).toBe(0)
    const key = await h.key(id, 'viewer')
    expect((await h.request('GET', '/v1/business', { key })).body).toMatchObject({
      electronic_address: GLN,
      contact: { name: 'Max Muster', phone: '+49 89 555', email: 'ap@cli.example' },
      tax_registration_id: '143/123/45678',
      einvoice_format: 'xrechnung-cii',
    })
    expect(cli(['business', 'update', String(id), '--electronic-address', '', '--contact-email', '']).code).toBe(0)
    expect((await h.request('GET', '/v1/business', { key })).body).toMatchObject({
      electronic_address: { scheme: 'EM', value: 'office@cli.example' },
      contact: { email: 'office@cli.example' },
    })
  })

  test('an unknown format or EAS scheme is refused with one line naming the field, and nothing changes', async () => {
    const id = JSON.parse(cli(['business', 'create', '--name', 'Bad GmbH', '--country', 'DE', '--currency', 'EUR']).out)
      .id as number
    for (const [flag, value, field] of [
      ['--einvoice-format', 'zugferd', 'einvoice_format'],
      ['--electronic-address', 'XX:1', 'electronic_address'],
    ] as const) {
      const r = cli(['business', 'update', String(id), flag, value])
      expect(r.code).not.toBe(0)
      expect(r.err.split('\n')).toHaveLength(1)
      expect(r.err).toContain(field)
    }
    const key = await h.key(id, 'viewer')
    expect((await h.request('GET', '/v1/business', { key })).body).toMatchObject({
      einvoice_format: 'ubl',
      electronic_address: null,
    })
  })
})

describe('UBL and CII of one document carry the same totals, parties and lines', () => {
  test('parsed side by side: seller, buyer, VAT ids, every Line, the VAT breakdown and every total agree', async () => {
    const s = await seller({ legalName: 'Seller Software GmbH', companyId: 'HRB 12345' })
    await h.bankAccount(s.id)
    const clientId = await h.client(s.key, {
      name: 'Buyer',
      legal_name: 'Buyer AG',
      vat_number: 'DE987654321',
      city: 'Hamburg',
      postal_code: '20095',
      address: 'Marktplatz 2',
    })
    const lines = [
      line(),
      line({ description: 'Books', quantity: '3', unit_price: '12.345', vat_rate: '7.00', unit: 'pcs' }),
      line({ description: 'Hours', quantity: '2.5', unit_price: '80', unit: 'h' }),
    ]
    const doc = await issued(s.key, { client_id: clientId, lines })
    const u = reader((await h.request('GET', `/v1/documents/${doc.id}/xml?format=ubl`, { key: s.key })).text)
    const c = reader((await h.request('GET', `/v1/documents/${doc.id}/xml?format=cii`, { key: s.key })).text)
    const T = '/CrossIndustryInvoice/SupplyChainTradeTransaction'
    const A = `${T}/ApplicableHeaderTradeAgreement`
    const S = `${T}/ApplicableHeaderTradeSettlement`
    const M = `${S}/SpecifiedTradeSettlementHeaderMonetarySummation`

    expect([c.text('/CrossIndustryInvoice/ExchangedDocument/ID'), c.text(`${S}/InvoiceCurrencyCode`)]).toEqual([
      u.text('/Invoice/ID'),
      u.text('/Invoice/DocumentCurrencyCode'),
    ])
    // Parties: each CII field says what its UBL counterpart says.
    const US = '/Invoice/AccountingSupplierParty/Party'
    const UB = '/Invoice/AccountingCustomerParty/Party'
    for (const [cii, ubl] of [
      [`${A}/SellerTradeParty/Name`, `${US}/PartyLegalEntity/RegistrationName`],
      [`${A}/SellerTradeParty/SpecifiedTaxRegistration/ID`, `${US}/PartyTaxScheme/CompanyID`],
      [`${A}/SellerTradeParty/SpecifiedLegalOrganization/ID`, `${US}/PartyLegalEntity/CompanyID`],
      [`${A}/SellerTradeParty/DefinedTradeContact/PersonName`, `${US}/Contact/Name`],
      [`${A}/BuyerTradeParty/Name`, `${UB}/PartyLegalEntity/RegistrationName`],
      [`${A}/BuyerTradeParty/SpecifiedTaxRegistration/ID`, `${UB}/PartyTaxScheme/CompanyID`],
      [`${A}/BuyerTradeParty/PostalTradeAddress/CityName`, `${UB}/PostalAddress/CityName`],
      [`${A}/SellerTradeParty/URIUniversalCommunication/URIID`, `${US}/EndpointID`],
    ])
      expect(c.text(cii)).toBe(u.text(ubl))
    // Lines.
    expect(c.count(`${T}/IncludedSupplyChainTradeLineItem`)).toBe(3)
    expect(u.count('/Invoice/InvoiceLine')).toBe(3)
    for (let i = 1; i <= 3; i++) {
      const cl = `${T}/IncludedSupplyChainTradeLineItem`
      expect(c.nth(cl, i, 'AssociatedDocumentLineDocument/LineID')).toBe(u.nth('/Invoice/InvoiceLine', i, 'ID'))
      expect(c.nth(cl, i, 'SpecifiedTradeProduct/Name')).toBe(u.nth('/Invoice/InvoiceLine', i, 'Item/Name'))
      expect(c.nth(cl, i, 'SpecifiedLineTradeDelivery/BilledQuantity')).toBe(
        u.nth('/Invoice/InvoiceLine', i, 'InvoicedQuantity'),
      )
      expect(c.nth(cl, i, 'SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount')).toBe(
        u.nth('/Invoice/InvoiceLine', i, 'Price/PriceAmount'),
      )
      expect(
        c.nth(cl, i, 'SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount'),
      ).toBe(u.nth('/Invoice/InvoiceLine', i, 'LineExtensionAmount'))
      expect(c.nth(cl, i, 'SpecifiedLineTradeSettlement/ApplicableTradeTax/RateApplicablePercent')).toBe(
        u.nth('/Invoice/InvoiceLine', i, 'Item/ClassifiedTaxCategory/Percent'),
      )
    }
    // VAT breakdown and totals, each equal to the document's own answer.
    expect(c.count(`${S}/ApplicableTradeTax`)).toBe(doc.vat_breakdown.length)
    for (let i = 1; i <= doc.vat_breakdown.length; i++) {
      expect(c.nth(`${S}/ApplicableTradeTax`, i, 'BasisAmount')).toBe(
        u.nth('/Invoice/TaxTotal/TaxSubtotal', i, 'TaxableAmount'),
      )
      expect(c.nth(`${S}/ApplicableTradeTax`, i, 'CalculatedAmount')).toBe(
        u.nth('/Invoice/TaxTotal/TaxSubtotal', i, 'TaxAmount'),
      )
    }
    const totals = [
      c.text(`${M}/LineTotalAmount`),
      c.text(`${M}/TaxBasisTotalAmount`),
      c.text(`${M}/TaxTotalAmount`),
      c.text(`${M}/GrandTotalAmount`),
      c.text(`${M}/DuePayableAmount`),
    ]
    expect(totals).toEqual([
      u.text('/Invoice/LegalMonetaryTotal/LineExtensionAmount'),
      u.text('/Invoice/LegalMonetaryTotal/TaxExclusiveAmount'),
      u.text('/Invoice/TaxTotal/TaxAmount'),
      u.text('/Invoice/LegalMonetaryTotal/TaxInclusiveAmount'),
      u.text('/Invoice/LegalMonetaryTotal/PayableAmount'),
    ])
    expect(totals).toEqual([doc.net_total, doc.net_total, doc.vat_total, doc.total, doc.total])
  })
})

describe('the payment terms note agrees with the due date', () => {
  test('a due date 68 days after the issue date reads "within 68 days", whatever the payment_terms; a due date on the issue date reads "due on receipt"', async () => {
    const s = await seller()
    const clientId = await h.client(s.key, { payment_terms: 30 })
    const late = await issued(s.key, { client_id: clientId, issue_date: '2026-11-24', due_date: '2027-01-31' })
    expect(late.payment_terms).toBe(30)
    const u = reader((await h.request('GET', `/v1/documents/${late.id}/xml`, { key: s.key })).text)
    expect(u.text('/Invoice/PaymentTerms/Note')).toBe('Payment within 68 days (due 2027-01-31)')
    const now = await issued(s.key, { client_id: clientId, issue_date: '2026-11-24', due_date: '2026-11-24' })
    const c = reader((await h.request('GET', `/v1/documents/${now.id}/xml?format=cii`, { key: s.key })).text)
    expect(
      c.text(
        '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradePaymentTerms/Description',
      ),
    ).toBe('Payment due on receipt (due 2026-11-24)')
  })
})

describe("a Send attaches the Business's einvoice_format", () => {
  async function sent(format: string, client: Record<string, unknown> = {}) {
    const s = await seller({
      einvoiceFormat: format,
      electronicAddressScheme: '9930',
      electronicAddress: 'DE123456789',
    })
    const clientId = await h.client(s.key, {
      buyer_reference: 'LEITWEG-1',
      electronic_address: GLN,
      city: 'Hamburg',
      postal_code: '20095',
      ...client,
    })
    const d = await h.request('POST', '/v1/documents', {
      key: s.key,
      body: { type: 'invoice', client_id: clientId, lines: [line()] },
    })
    const r = await h.request('POST', `/v1/documents/${d.body.id}/send`, { key: s.key })
    expect(r.status).toBe(200)
    return { doc: r.body, mail: smtp.received.at(-1)!.mail }
  }

  test('ubl (the default), cii, xrechnung and peppol attach that XML beside the PDF', async () => {
    const expected: Record<string, string> = {
      ubl: 'urn:cen.eu:en16931:2017</cbc:CustomizationID>',
      cii: '<rsm:CrossIndustryInvoice',
      'xrechnung-ubl': 'xrechnung_3.0</cbc:CustomizationID>',
      'xrechnung-cii': 'xrechnung_3.0</ram:ID>',
      peppol: 'poacc:billing:3.0</cbc:CustomizationID>',
    }
    for (const [format, marker] of Object.entries(expected)) {
      h.clock.advance(61_000)
      const { doc, mail } = await sent(format)
      expect(mail.attachments.map((a) => a.filename)).toEqual([
        `${doc.document_number}.pdf`,
        `${doc.document_number}.xml`,
      ])
      expect(mail.attachments[1]!.content.toString()).toContain(marker)
    }
    // Five Sends, each a PDF and an email over the test SMTP server: more than the default 5 s on a loaded machine.
  }, 30_000)

  test('facturx attaches the Factur-X PDF (factur-x.xml inside) and no separate XML', async () => {
    const { doc, mail } = await sent('facturx')
    expect(mail.attachments.map((a) => a.filename)).toEqual([`${doc.document_number}.pdf`])
    const file = join(h.dir, `sent-${++files}.pdf`)
    writeFileSync(file, mail.attachments[0]!.content)
    expect(Bun.spawnSync(['pdfdetach', '-list', file]).stdout.toString()).toContain('factur-x.xml')
  })

  test('a document the chosen format refuses is sent with the PDF alone', async () => {
    const { mail } = await sent('xrechnung-ubl', { buyer_reference: null })
    expect(mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf'])
  })
})
