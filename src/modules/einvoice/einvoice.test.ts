// The EN16931 export over HTTP against a real temp-file database: every VAT category exported from an issued document
// and validated against the OASIS UBL 2.1 XSD with xmllint, the refusals the changelog names, and the content rules
// (Credit Note reference, VAT number prefix, payment means, O-only documents, K delivery data, escaping).
import { describe, expect, test } from 'bun:test'
import { harnessForFile, type Harness, type TestResponse } from '../../../test/harness'
import { addBankAccount } from '../business'
import { exemptLine as exempt, exportSetup, localPath, servicesLine as line, xmllint } from './einvoice.testkit'

let h: Harness
// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

// ---------------------------------------------------------------------------------------------------------------
// xmllint: the XSD and small XPath reads over the written XML

const { xsdErrors, xpath } = xmllint(() => h.dir, 'export')

/** The text of the first node at a path of local names ('' when none). */
function text(xml: string, path: string): string {
  return xpath(xml, `string(${localPath(path)})`)
}

function count(xml: string, path: string): number {
  return Number(xpath(xml, `count(${localPath(path)})`))
}

// ---------------------------------------------------------------------------------------------------------------
// Setup through the API

const { seller, client, draft, issued, xmlOf, exported } = exportSetup(() => h, xsdErrors)

/** Expects the refusal not_exportable naming the given rule ids (in the message and in `rules`). */
function expectRuleRefusal(r: TestResponse, ...ids: string[]): void {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('refusal')
  expect(r.body.error.code).toBe('not_exportable')
  const failing = (r.body.error.rules as { id: string; message: string }[]).map((x) => x.id)
  for (const id of ids) {
    expect(failing).toContain(id)
    expect(r.body.error.message).toContain(id)
  }
  for (const x of r.body.error.rules) expect(x.message.length).toBeGreaterThan(10)
}

// ---------------------------------------------------------------------------------------------------------------

describe('every VAT category exports from an issued document and passes the UBL 2.1 XSD', () => {
  test('S: standard rated Lines carry their rate, the breakdown its VAT', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s), {
      lines: [line(), line({ description: 'Books', unit_price: '50.00', vat_rate: '7.00' })],
    })
    const xml = await exported(s, doc.id)
    expect(text(xml, '/Invoice/CustomizationID')).toBe('urn:cen.eu:en16931:2017')
    expect(count(xml, '/Invoice/ProfileID')).toBe(0)
    expect(text(xml, '/Invoice/InvoiceTypeCode')).toBe('380')
    expect(text(xml, '/Invoice/ID')).toBe(doc.document_number)
    expect(count(xml, '/Invoice/TaxTotal/TaxSubtotal')).toBe(2)
    expect(text(xml, "/Invoice/TaxTotal/TaxSubtotal[TaxCategory/Percent='19']/TaxAmount")).toBe('19.00')
    expect(text(xml, "/Invoice/TaxTotal/TaxSubtotal[TaxCategory/Percent='7']/TaxAmount")).toBe('3.50')
    expect(text(xml, '/Invoice/TaxTotal/TaxAmount')).toBe(doc.vat_total)
    expect(text(xml, '/Invoice/LegalMonetaryTotal/PayableAmount')).toBe(doc.total)
    expect(text(xml, '/Invoice/DueDate')).toBe(doc.due_date)
    expect(text(xml, '/Invoice/PaymentTerms/Note')).toContain('30 days')
    expect(text(xml, '/Invoice/AccountingSupplierParty/Party/PartyTaxScheme/CompanyID')).toBe('DE123456789')
    expect(count(xml, '//TaxExemptionReasonCode')).toBe(0)
  })

  test('Z: zero rated Lines carry 0 and no exemption reason', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s), { lines: [line({ vat_rate: '0.00' })] })
    const xml = await exported(s, doc.id)
    expect(text(xml, '/Invoice/InvoiceLine/Item/ClassifiedTaxCategory/ID')).toBe('Z')
    expect(text(xml, '/Invoice/TaxTotal/TaxSubtotal/TaxCategory/Percent')).toBe('0')
    expect(count(xml, '//TaxExemptionReason')).toBe(0)
  })

  test('E: exempt Lines carry the VATEX code and its text in the breakdown', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s), { lines: [exempt('E', 'VATEX-EU-132-1I')] })
    const xml = await exported(s, doc.id)
    expect(text(xml, '//TaxSubtotal/TaxCategory/ID')).toBe('E')
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReasonCode')).toBe('VATEX-EU-132-1I')
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReason')).toContain('article 132')
  })

  test('AE: reverse charge names both VAT numbers and the reason "Reverse charge"', async () => {
    const s = await seller()
    const c = await client(s, { country: 'AT', vat_number: 'ATU12345678' })
    const doc = await issued(s, c, { lines: [exempt('AE', 'VATEX-EU-AE')] })
    const xml = await exported(s, doc.id)
    expect(text(xml, '//AccountingCustomerParty/Party/PartyTaxScheme/CompanyID')).toBe('ATU12345678')
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReasonCode')).toBe('VATEX-EU-AE')
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReason')).toBe('Reverse charge')
    expect(text(xml, '//TaxTotal/TaxAmount')).toBe('0.00')
  })

  test('K: an intra-community supply carries the actual delivery date and the deliver-to country', async () => {
    const s = await seller()
    const c = await client(s, {
      country: 'FR',
      vat_number: 'FR12345678901',
      address: '1 rue de la Paix\nBâtiment B',
      city: 'Paris',
      postal_code: '75002',
    })
    const doc = await issued(s, c, {
      delivery_date: '2026-03-02',
      lines: [exempt('K', 'VATEX-EU-IC', { unit: 'kg', quantity: '12.5', unit_price: '8.00' })],
    })
    const xml = await exported(s, doc.id)
    expect(text(xml, '/Invoice/Delivery/ActualDeliveryDate')).toBe('2026-03-02')
    expect(text(xml, '/Invoice/Delivery/DeliveryLocation/Address/Country/IdentificationCode')).toBe('FR')
    expect(text(xml, '/Invoice/Delivery/DeliveryLocation/Address/StreetName')).toBe('1 rue de la Paix')
    expect(text(xml, '/Invoice/Delivery/DeliveryLocation/Address/AdditionalStreetName')).toBe('Bâtiment B')
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReason')).toBe('Intra-community supply')
    expect(xpath(xml, `string(${localPath('/Invoice/InvoiceLine/InvoicedQuantity')}/@unitCode)`)).toBe('KGM')
    expect(text(xml, '/Invoice/InvoiceLine/LineExtensionAmount')).toBe('100.00')
  })

  test('G: an export outside the EU needs only the Seller VAT number', async () => {
    const s = await seller()
    const c = await client(s, { country: 'US', address: '1 Main St', city: 'Springfield', postal_code: '12345' })
    const doc = await issued(s, c, { lines: [exempt('G', 'VATEX-EU-G')] })
    const xml = await exported(s, doc.id)
    expect(text(xml, '//TaxSubtotal/TaxCategory/ID')).toBe('G')
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReason')).toBe('Export outside the EU')
    expect(count(xml, '//AccountingCustomerParty//PartyTaxScheme')).toBe(0)
  })

  test('O: a document of only O Lines carries no VAT numbers and no percents, and still names its Seller', async () => {
    const s = await seller()
    const c = await client(s, { vat_number: 'DE987654321' })
    const doc = await issued(s, c, {
      lines: [exempt('O', 'VATEX-EU-O'), exempt('O', 'VATEX-EU-O', { description: 'Fee' })],
    })
    const xml = await exported(s, doc.id)
    expect(count(xml, '//PartyTaxScheme')).toBe(0)
    expect(xml).not.toContain('DE123456789')
    expect(xml).not.toContain('DE987654321')
    expect(count(xml, '//Percent')).toBe(0)
    expect(count(xml, '/Invoice/TaxTotal/TaxSubtotal')).toBe(1)
    expect(text(xml, '//TaxSubtotal/TaxCategory/TaxExemptionReason')).toBe('Not subject to VAT')
    expect(text(xml, '//AccountingSupplierParty/Party/PartyIdentification/ID')).toBe(s.publicId)
  })
})

describe('Seller and Buyer', () => {
  test('the Seller identifier is the legal registration number when the Business has one, else its business_id', async () => {
    const s = await seller({ companyId: 'HRB 12345' })
    const xml = await exported(s, (await issued(s, await client(s))).id)
    expect(text(xml, '//AccountingSupplierParty/Party/PartyLegalEntity/CompanyID')).toBe('HRB 12345')
    expect(count(xml, '//AccountingSupplierParty/Party/PartyIdentification')).toBe(0)

    const t = await seller()
    const xml2 = await exported(t, (await issued(t, await client(t))).id)
    expect(text(xml2, '//AccountingSupplierParty/Party/PartyIdentification/ID')).toBe(t.publicId)
  })

  test('a Client VAT number stored without a country code is written with the Client country code first', async () => {
    const s = await seller()
    const c = await client(s, { country: 'AT', vat_number: 'u 123 456 78' })
    const xml = await exported(s, (await issued(s, c, { lines: [exempt('AE', 'VATEX-EU-AE')] })).id)
    expect(text(xml, '//AccountingCustomerParty/Party/PartyTaxScheme/CompanyID')).toBe('ATU12345678')

    const d = await client(s, { country: 'NL', vat_number: '123456789B01' })
    const xml2 = await exported(s, (await issued(s, d)).id)
    expect(text(xml2, '//AccountingCustomerParty/Party/PartyTaxScheme/CompanyID')).toBe('NL123456789B01')
  })

  test('legal name and trading name are written apart, with the Client snapshot taken at issue', async () => {
    const s = await seller({ legalName: 'Seller Holding GmbH' })
    const c = await client(s, { legal_name: 'Buyer Aktiengesellschaft' })
    const doc = await issued(s, c)
    // A change to the Client after issue does not reach the issued document.
    await h.request('PATCH', `/v1/clients/${c}`, { key: s.key, body: { legal_name: 'Renamed AG' } })
    const xml = await exported(s, doc.id)
    expect(text(xml, '//AccountingSupplierParty/Party/PartyLegalEntity/RegistrationName')).toBe('Seller Holding GmbH')
    expect(text(xml, '//AccountingSupplierParty/Party/PartyName/Name')).toBe('Seller GmbH')
    expect(text(xml, '//AccountingCustomerParty/Party/PartyLegalEntity/RegistrationName')).toBe(
      'Buyer Aktiengesellschaft',
    )
    expect(text(xml, '//AccountingCustomerParty/Party/PartyName/Name')).toBe('Buyer AG')
    expect(text(xml, '//AccountingCustomerParty/Party/PostalAddress/CityName')).toBe('Hamburg')
  })
})

describe('Credit Notes', () => {
  test('a Credit Note exports as CreditNote 381 referencing its Invoice, and passes the CreditNote XSD', async () => {
    const s = await seller()
    const acc = await addBankAccount(h.deps.db, h.clock, s.id, {
      name: 'Refunds',
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPP',
    })
    const c = await client(s)
    const inv = await issued(s, c)
    const cn = await issued(s, c, {
      type: 'credit_note',
      credited_document_id: inv.id,
      notes: 'Returned goods',
      bank_account_ids: [acc.id],
    })
    const xml = await exported(s, cn.id)
    expect(xml).toContain('<CreditNote ')
    expect(text(xml, '/CreditNote/CreditNoteTypeCode')).toBe('381')
    expect(text(xml, '/CreditNote/BillingReference/InvoiceDocumentReference/ID')).toBe(inv.document_number)
    expect(text(xml, '/CreditNote/BillingReference/InvoiceDocumentReference/IssueDate')).toBe(inv.issue_date)
    expect(text(xml, '/CreditNote/Note')).toBe('Returned goods')
    expect(count(xml, '/CreditNote/CreditNoteLine')).toBe(1)
    expect(text(xml, '/CreditNote/CreditNoteLine/CreditedQuantity')).toBe('1')
    // UBL 2.1 gives a CreditNote no DueDate of its own: BT-9 sits in its payment means.
    expect(count(xml, '/CreditNote/DueDate')).toBe(0)
    expect(text(xml, '/CreditNote/PaymentMeans/PaymentDueDate')).toBe(cn.due_date)
    expect(text(xml, '/CreditNote/PaymentMeans/PaymentMeansCode')).toBe('58')
    expect(text(xml, '/CreditNote/PaymentMeans/PayeeFinancialAccount/FinancialInstitutionBranch/ID')).toBe('AGRIFRPP')
  })
})

describe('payment means', () => {
  test('a Business with no bank account gets payment means code 1 and no account', async () => {
    const s = await seller()
    const xml = await exported(s, (await issued(s, await client(s))).id)
    expect(count(xml, '/Invoice/PaymentMeans')).toBe(1)
    expect(text(xml, '/Invoice/PaymentMeans/PaymentMeansCode')).toBe('1')
    expect(count(xml, '//PayeeFinancialAccount')).toBe(0)
  })

  test("a EUR document's bank accounts are SEPA credit transfers (58) with their IBANs", async () => {
    const s = await seller()
    const a = await h.bankAccount(s.id, 'Main')
    const b = await h.bankAccount(s.id, 'Savings')
    const doc = await issued(s, await client(s), { bank_account_ids: [a, b] })
    const xml = await exported(s, doc.id)
    expect(count(xml, "/Invoice/PaymentMeans[PaymentMeansCode='58']")).toBe(2)
    expect(text(xml, '/Invoice/PaymentMeans[1]/PayeeFinancialAccount/ID')).toBe('DE89370400440532013000')
    expect(text(xml, '/Invoice/PaymentMeans[2]/PayeeFinancialAccount/Name')).toBe('Savings')
    // BT-83, the remittance the transfer quotes: the document's ISO 11649 payment reference (extensions §15).
    expect(text(xml, '/Invoice/PaymentMeans[1]/PaymentID')).toBe(doc.payment_reference)
  })

  test('a document naming no account is paid into the Business accounts', async () => {
    const s = await seller()
    await h.bankAccount(s.id)
    const doc = await issued(s, await client(s), { bank_account_ids: [] })
    const xml = await exported(s, doc.id)
    expect(text(xml, '/Invoice/PaymentMeans/PaymentMeansCode')).toBe('58')
    expect(text(xml, '/Invoice/PaymentMeans/PayeeFinancialAccount/ID')).toBe('DE89370400440532013000')
  })
})

describe('the rule check refuses with not_exportable and the failing rules', () => {
  test('mixed O Lines: O beside another category fails BR-O-11 and BR-O-12', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s), {
      lines: [line(), exempt('O', 'VATEX-EU-O')],
    })
    const r = await xmlOf(s, doc.id)
    expectRuleRefusal(r, 'BR-O-11', 'BR-O-12', 'BR-O-02')
  })

  test('malformed VAT numbers: a lower-case or unknown country prefix fails BR-CO-09 (the prefix is all it judges)', async () => {
    const s = await seller()
    for (const vat of ['de123456789', 'XX123456789']) {
      const doc = await issued(s, await client(s, { vat_number: vat }))
      expectRuleRefusal(await xmlOf(s, doc.id), 'BR-CO-09')
    }
    const t = await seller({ vatNumber: 'QQ1' })
    expectRuleRefusal(await xmlOf(t, (await issued(t, await client(t))).id), 'BR-CO-09')
  })

  test('AE without a Client VAT number fails BR-AE-02', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s, { country: 'AT' }), { lines: [exempt('AE', 'VATEX-EU-AE')] })
    expectRuleRefusal(await xmlOf(s, doc.id), 'BR-AE-02')
  })

  test('K without a Client VAT number fails BR-IC-02', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s, { country: 'FR' }), { lines: [exempt('K', 'VATEX-EU-IC')] })
    expectRuleRefusal(await xmlOf(s, doc.id), 'BR-IC-02')
  })

  test('S by a Non-VAT Payer fails BR-S-02: its VAT number is written nowhere', async () => {
    const s = await seller({ isVatPayer: false })
    const doc = await issued(s, await client(s))
    expectRuleRefusal(await xmlOf(s, doc.id), 'BR-S-02')
  })

  test('a Non-VAT Payer exports O documents, without its VAT number', async () => {
    const s = await seller({ isVatPayer: false })
    const doc = await issued(s, await client(s), { lines: [exempt('O', 'VATEX-EU-O')] })
    const xml = await exported(s, doc.id)
    expect(xml).not.toContain('DE123456789')
  })

  test('E Lines with different exemption codes fail BR-E-01 (one exempt breakdown)', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s), { lines: [exempt('E', 'VATEX-EU-132'), exempt('E', 'VATEX-EU-143')] })
    expectRuleRefusal(await xmlOf(s, doc.id), 'BR-E-01')
  })

  test('an exemption code that does not mean the category fails its -10 rule; one outside VATEX fails BR-CL-22', async () => {
    const s = await seller()
    const c = await client(s, { country: 'AT', vat_number: 'ATU12345678' })
    const wrong = await issued(s, c, { lines: [exempt('AE', 'VATEX-EU-IC')] })
    expectRuleRefusal(await xmlOf(s, wrong.id), 'BR-AE-10')
    const unknown = await issued(s, c, { lines: [exempt('E', 'VATEX-EU-999')] })
    expectRuleRefusal(await xmlOf(s, unknown.id), 'BR-CL-22')
  })

  test('amounts with a third decimal (a three-decimal currency) fail BR-DEC', async () => {
    const s = await seller({ currency: 'BHD' })
    const doc = await issued(s, await client(s, { currency: 'BHD' }), {
      currency: 'BHD',
      lines: [line({ unit_price: '10.125' })],
    })
    expectRuleRefusal(await xmlOf(s, doc.id), 'BR-DEC-23', 'BR-DEC-09')
    // The same currency exports when its amounts hold two decimals.
    const ok = await issued(s, await client(s, { currency: 'BHD' }), {
      currency: 'BHD',
      lines: [line({ unit_price: '10.100', vat_rate: '10.00' })],
    })
    const xml = await exported(s, ok.id)
    expect(text(xml, '/Invoice/LegalMonetaryTotal/LineExtensionAmount')).toBe('10.10')
  })
})

describe('documents that do not export', () => {
  test('a Draft, a Proforma Invoice and a Quote are not_exportable', async () => {
    const s = await seller()
    const c = await client(s)
    const d = await draft(s, c)
    const r = await xmlOf(s, d.id)
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('not_exportable')
    expect(r.body.error.message).toContain('Draft')
    for (const type of ['proforma', 'quote']) {
      const doc = await issued(s, c, { type })
      const x = await xmlOf(s, doc.id)
      expect(x.status).toBe(422)
      expect(x.body.error.type).toBe('refusal')
      expect(x.body.error.code).toBe('not_exportable')
      expect(x.body.error.rules).toBeUndefined()
    }
  })

  test('a Test business exports nothing: exports_not_in_a_test_business', async () => {
    const s = await seller({ isTest: true })
    const doc = await issued(s, await client(s))
    const r = await xmlOf(s, doc.id)
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('exports_not_in_a_test_business')
  })

  test("another Business's document and an unknown id are 404", async () => {
    const s = await seller()
    const other = await seller()
    const doc = await issued(s, await client(s))
    expect((await xmlOf(other, doc.id)).status).toBe(404)
    expect((await xmlOf(s, 999999)).status).toBe(404)
    expect((await xmlOf(s, Number.NaN)).status).toBe(404)
  })

  test('a Viewer downloads the XML (a read), named after the document number', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s))
    const viewer = await h.key(s.id, 'viewer')
    const r = await xmlOf(s, doc.id, viewer)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="${doc.document_number}.xml"`)
  })
})

describe('user text', () => {
  test('names, descriptions and notes holding <&"\'> are escaped, survive a round trip, and stay valid', async () => {
    const s = await seller({ name: 'Müller & Söhne <GmbH>' })
    const evil = `Tom's "<b>bold</b>" & </cbc:Name><cbc:Injected/>`
    const c = await client(s, { name: 'A & B "Quoted" <Ltd>', address: '<script>alert(1)</script> & Co' })
    const doc = await issued(s, c, {
      notes: 'R&D; costs, ]]> and <!-- and &amp; &lt; &#38; &#0;',
      lines: [line({ description: evil, notes: 'line <note> & "more"' })],
    })
    const r = await xmlOf(s, doc.id)
    expect(r.status).toBe(200)
    const xml = r.text
    expect(xsdErrors(xml)).toBe('')
    expect(xml).not.toContain('<cbc:Injected')
    expect(xml).not.toContain('<script>')
    expect(xml).toContain('A &amp; B')
    expect(text(xml, '/Invoice/InvoiceLine/Item/Name')).toBe(evil)
    expect(text(xml, '/Invoice/InvoiceLine/Note')).toBe('line <note> & "more"')
    // Text that looks like an entity reference is the user's text, not markup.
    expect(text(xml, '/Invoice/Note')).toBe('R&D; costs, ]]> and <!-- and &amp; &lt; &#38; &#0;')
    expect(text(xml, '//AccountingCustomerParty/Party/PartyLegalEntity/RegistrationName')).toBe('A & B "Quoted" <Ltd>')
    expect(text(xml, '//AccountingSupplierParty/Party/PartyLegalEntity/RegistrationName')).toBe('Müller & Söhne <GmbH>')
  })

  test('control characters XML cannot carry are dropped, not written', async () => {
    const s = await seller()
    const doc = await issued(s, await client(s), {
      lines: [line({ description: 'Bell\u0007 and escape\u001b here\ufffe' })],
    })
    const r = await xmlOf(s, doc.id)
    expect(r.status).toBe(200)
    expect(xsdErrors(r.text)).toBe('')
    expect(text(r.text, '/Invoice/InvoiceLine/Item/Name')).toBe('Bell and escape here')
  })
})
