// The UBL 2.1 writer: an EN16931 model as an `Invoice` (380) or `CreditNote` (381), elements in the order the OASIS
// schemas require, written by xml-writer.ts, which escapes every text and attribute from users.
import { prefixed, xmlDocument, type XmlElement as XMLBuilder } from './xml-writer'
import type { BankAccount, EInvoiceModel, Party, PostalAddress } from './model'

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
}

/** An aggregate (cac:) element. */
const agg = prefixed(NS.cac, 'cac').element
/** A basic (cbc:) element with its text; nothing is written for an absent value. */
const basic = prefixed(NS.cbc, 'cbc').text

function address(parent: XMLBuilder, name: string, a: PostalAddress): void {
  const el = agg(parent, name)
  basic(el, 'StreetName', a.street)
  basic(el, 'AdditionalStreetName', a.additionalStreet)
  basic(el, 'CityName', a.city)
  basic(el, 'PostalZone', a.postalCode)
  if (a.country) basic(agg(el, 'Country'), 'IdentificationCode', a.country)
}

function partyTaxScheme(party: XMLBuilder, companyId: string, scheme: 'VAT' | 'TAX'): void {
  const tax = agg(party, 'PartyTaxScheme')
  basic(tax, 'CompanyID', companyId)
  basic(agg(tax, 'TaxScheme'), 'ID', scheme)
}

function party(parent: XMLBuilder, role: 'AccountingSupplierParty' | 'AccountingCustomerParty', p: Party): void {
  const el = agg(agg(parent, role), 'Party')
  if (p.electronicAddress) basic(el, 'EndpointID', p.electronicAddress.value, { schemeID: p.electronicAddress.scheme })
  if (p.identifier) basic(agg(el, 'PartyIdentification'), 'ID', p.identifier)
  if (p.tradingName) basic(agg(el, 'PartyName'), 'Name', p.tradingName)
  address(el, 'PostalAddress', p.address)
  if (p.vatId) partyTaxScheme(el, p.vatId, 'VAT')
  // BT-32 is the tax scheme that is not VAT.
  if (p.taxRegistrationId) partyTaxScheme(el, p.taxRegistrationId, 'TAX')
  const legal = agg(el, 'PartyLegalEntity')
  basic(legal, 'RegistrationName', p.name)
  basic(legal, 'CompanyID', p.legalRegistrationId)
  if (p.contact) {
    const contact = agg(el, 'Contact')
    basic(contact, 'Name', p.contact.name)
    basic(contact, 'Telephone', p.contact.phone)
    basic(contact, 'ElectronicMail', p.contact.email)
  }
}

function taxCategory(
  parent: XMLBuilder,
  name: 'TaxCategory' | 'ClassifiedTaxCategory',
  category: string,
  rate: string | null,
  code?: string | null,
  text?: string | null,
): void {
  const el = agg(parent, name)
  basic(el, 'ID', category)
  basic(el, 'Percent', rate)
  basic(el, 'TaxExemptionReasonCode', code)
  basic(el, 'TaxExemptionReason', text)
  basic(agg(el, 'TaxScheme'), 'ID', 'VAT')
}

function paymentMeans(parent: XMLBuilder, m: EInvoiceModel, account: BankAccount | null): void {
  const el = agg(parent, 'PaymentMeans')
  basic(el, 'PaymentMeansCode', m.payment.code)
  // A CreditNote has no document-level DueDate in UBL 2.1: its due date (BT-9) goes here.
  if (m.kind === 'credit_note') basic(el, 'PaymentDueDate', m.dueDate)
  basic(el, 'PaymentID', m.payment.paymentId)
  if (account) {
    const acc = agg(el, 'PayeeFinancialAccount')
    basic(acc, 'ID', account.iban)
    basic(acc, 'Name', account.name)
    if (account.bic) basic(agg(acc, 'FinancialInstitutionBranch'), 'ID', account.bic)
  }
}

/** The UBL 2.1 XML of a model that passed the rule check. */
export async function writeUbl(m: EInvoiceModel): Promise<string> {
  const credit = m.kind === 'credit_note'
  const money = { currencyID: m.currency }
  const doc = xmlDocument(credit ? NS.creditNote : NS.invoice, credit ? 'CreditNote' : 'Invoice', {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  })
  const root = doc.root

  basic(root, 'CustomizationID', m.specificationId)
  basic(root, 'ProfileID', m.processId)
  basic(root, 'ID', m.number)
  basic(root, 'IssueDate', m.issueDate)
  if (!credit) basic(root, 'DueDate', m.dueDate)
  basic(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode', m.typeCode)
  basic(root, 'Note', m.note)
  basic(root, 'DocumentCurrencyCode', m.currency)
  basic(root, 'TaxCurrencyCode', m.taxCurrency?.code)
  basic(root, 'BuyerReference', m.buyerReference)
  if (m.invoicingPeriod) {
    const period = agg(root, 'InvoicePeriod')
    basic(period, 'StartDate', m.invoicingPeriod.start)
    basic(period, 'EndDate', m.invoicingPeriod.end)
  }
  if (m.orderReference) basic(agg(root, 'OrderReference'), 'ID', m.orderReference)
  if (m.precedingInvoice) {
    const ref = agg(agg(root, 'BillingReference'), 'InvoiceDocumentReference')
    basic(ref, 'ID', m.precedingInvoice.number)
    basic(ref, 'IssueDate', m.precedingInvoice.issueDate)
  }
  party(root, 'AccountingSupplierParty', m.seller)
  party(root, 'AccountingCustomerParty', m.buyer)

  if (m.delivery.date || m.delivery.address) {
    const delivery = agg(root, 'Delivery')
    basic(delivery, 'ActualDeliveryDate', m.delivery.date)
    if (m.delivery.address) address(agg(delivery, 'DeliveryLocation'), 'Address', m.delivery.address)
    if (m.delivery.partyName) basic(agg(agg(delivery, 'DeliveryParty'), 'PartyName'), 'Name', m.delivery.partyName)
  }

  if (m.payment.accounts.length === 0) paymentMeans(root, m, null)
  else for (const account of m.payment.accounts) paymentMeans(root, m, account)
  if (m.paymentTerms) basic(agg(root, 'PaymentTerms'), 'Note', m.paymentTerms)

  const taxTotal = agg(root, 'TaxTotal')
  basic(taxTotal, 'TaxAmount', m.taxTotal, money)
  for (const b of m.breakdown) {
    const sub = agg(taxTotal, 'TaxSubtotal')
    basic(sub, 'TaxableAmount', b.taxable, money)
    basic(sub, 'TaxAmount', b.tax, money)
    taxCategory(sub, 'TaxCategory', b.category, b.rate, b.exemptionCode, b.exemptionText)
  }
  // BT-111: the VAT total in the accounting currency, a TaxTotal of its own with no subtotals (BR-53, PEPPOL R054).
  if (m.taxCurrency)
    basic(agg(root, 'TaxTotal'), 'TaxAmount', m.taxCurrency.taxTotal, { currencyID: m.taxCurrency.code })

  const totals = agg(root, 'LegalMonetaryTotal')
  basic(totals, 'LineExtensionAmount', m.totals.lineNet, money)
  basic(totals, 'TaxExclusiveAmount', m.totals.taxExclusive, money)
  basic(totals, 'TaxInclusiveAmount', m.totals.taxInclusive, money)
  basic(totals, 'AllowanceTotalAmount', m.totals.allowances, money)
  basic(totals, 'ChargeTotalAmount', m.totals.charges, money)
  basic(totals, 'PrepaidAmount', m.totals.prepaid, money)
  basic(totals, 'PayableRoundingAmount', m.totals.rounding, money)
  basic(totals, 'PayableAmount', m.totals.payable, money)

  for (const l of m.lines) {
    const line = agg(root, credit ? 'CreditNoteLine' : 'InvoiceLine')
    basic(line, 'ID', l.id)
    basic(line, 'Note', l.note)
    basic(line, credit ? 'CreditedQuantity' : 'InvoicedQuantity', l.quantity, { unitCode: l.unitCode })
    basic(line, 'LineExtensionAmount', l.netAmount, money)
    const item = agg(line, 'Item')
    basic(item, 'Name', l.name)
    taxCategory(item, 'ClassifiedTaxCategory', l.category, l.rate)
    basic(agg(line, 'Price'), 'PriceAmount', l.price, money)
  }
  return doc.end()
}
