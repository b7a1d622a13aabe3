// The UN/CEFACT CII D16B writer: an EN16931 model as a `CrossIndustryInvoice` (380 or 381), elements in the order
// the D16B schemas require, written by xml-writer.ts like the UBL writer. Factur-X embeds exactly this XML.
import { prefixed, xmlDocument, type XmlElement as XMLBuilder } from './xml-writer'
import type { EInvoiceModel, Party, PostalAddress } from './model'

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
}

const ram = prefixed(NS.ram, 'ram')
const el = ram.element
/** A ram: element with its text; nothing is written for an absent value. */
const val = ram.text

/** A date as CII writes it: format 102, YYYYMMDD. */
function date(parent: XMLBuilder, name: string, iso: string | null, qualified = false): void {
  if (!iso) return
  const prefix = qualified ? 'qdt' : 'udt'
  el(parent, name)
    .ele(qualified ? NS.qdt : NS.udt, `${prefix}:DateTimeString`, { format: '102' })
    .txt(iso.replace(/-/g, ''))
}

function address(parent: XMLBuilder, a: PostalAddress): void {
  const x = el(parent, 'PostalTradeAddress')
  val(x, 'PostcodeCode', a.postalCode)
  val(x, 'LineOne', a.street)
  val(x, 'LineTwo', a.additionalStreet)
  val(x, 'CityName', a.city)
  val(x, 'CountryID', a.country)
}

function party(parent: XMLBuilder, name: 'SellerTradeParty' | 'BuyerTradeParty', p: Party): void {
  const x = el(parent, name)
  val(x, 'ID', p.identifier)
  val(x, 'Name', p.name)
  if (p.legalRegistrationId || p.tradingName) {
    const legal = el(x, 'SpecifiedLegalOrganization')
    val(legal, 'ID', p.legalRegistrationId)
    val(legal, 'TradingBusinessName', p.tradingName)
  }
  if (p.contact) {
    const c = el(x, 'DefinedTradeContact')
    val(c, 'PersonName', p.contact.name)
    if (p.contact.phone) val(el(c, 'TelephoneUniversalCommunication'), 'CompleteNumber', p.contact.phone)
    if (p.contact.email) val(el(c, 'EmailURIUniversalCommunication'), 'URIID', p.contact.email)
  }
  address(x, p.address)
  if (p.electronicAddress)
    val(el(x, 'URIUniversalCommunication'), 'URIID', p.electronicAddress.value, {
      schemeID: p.electronicAddress.scheme,
    })
  if (p.vatId) val(el(x, 'SpecifiedTaxRegistration'), 'ID', p.vatId, { schemeID: 'VA' })
  if (p.taxRegistrationId) val(el(x, 'SpecifiedTaxRegistration'), 'ID', p.taxRegistrationId, { schemeID: 'FC' })
}

function tradeTax(
  parent: XMLBuilder,
  b: {
    tax?: string
    taxable?: string
    category: string
    rate: string | null
    exemptionCode?: string | null
    exemptionText?: string | null
  },
): void {
  const x = el(parent, 'ApplicableTradeTax')
  if (b.tax !== undefined) val(x, 'CalculatedAmount', b.tax)
  val(x, 'TypeCode', 'VAT')
  val(x, 'ExemptionReason', b.exemptionText)
  if (b.taxable !== undefined) val(x, 'BasisAmount', b.taxable)
  val(x, 'CategoryCode', b.category)
  val(x, 'ExemptionReasonCode', b.exemptionCode)
  val(x, 'RateApplicablePercent', b.rate)
}

/** The CII D16B XML of a model that passed the rule check. */
export async function writeCii(m: EInvoiceModel): Promise<string> {
  const money = { currencyID: m.currency }
  const doc = xmlDocument(NS.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:ram': NS.ram,
    'xmlns:udt': NS.udt,
    'xmlns:qdt': NS.qdt,
  })
  const root = doc.root

  const context = root.ele(NS.rsm, 'rsm:ExchangedDocumentContext')
  if (m.processId) val(el(context, 'BusinessProcessSpecifiedDocumentContextParameter'), 'ID', m.processId)
  val(el(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID', m.specificationId)

  const header = root.ele(NS.rsm, 'rsm:ExchangedDocument')
  val(header, 'ID', m.number)
  val(header, 'TypeCode', m.typeCode)
  date(header, 'IssueDateTime', m.issueDate)
  if (m.note) val(el(header, 'IncludedNote'), 'Content', m.note)

  const tx = root.ele(NS.rsm, 'rsm:SupplyChainTradeTransaction')
  for (const l of m.lines) {
    const item = el(tx, 'IncludedSupplyChainTradeLineItem')
    const line = el(item, 'AssociatedDocumentLineDocument')
    val(line, 'LineID', l.id)
    if (l.note) val(el(line, 'IncludedNote'), 'Content', l.note)
    val(el(item, 'SpecifiedTradeProduct'), 'Name', l.name)
    val(el(el(item, 'SpecifiedLineTradeAgreement'), 'NetPriceProductTradePrice'), 'ChargeAmount', l.price)
    val(el(item, 'SpecifiedLineTradeDelivery'), 'BilledQuantity', l.quantity, { unitCode: l.unitCode })
    const settlement = el(item, 'SpecifiedLineTradeSettlement')
    tradeTax(settlement, { category: l.category, rate: l.rate })
    val(el(settlement, 'SpecifiedTradeSettlementLineMonetarySummation'), 'LineTotalAmount', l.netAmount)
  }

  const agreement = el(tx, 'ApplicableHeaderTradeAgreement')
  val(agreement, 'BuyerReference', m.buyerReference)
  party(agreement, 'SellerTradeParty', m.seller)
  party(agreement, 'BuyerTradeParty', m.buyer)
  if (m.orderReference) val(el(agreement, 'BuyerOrderReferencedDocument'), 'IssuerAssignedID', m.orderReference)

  const delivery = el(tx, 'ApplicableHeaderTradeDelivery')
  if (m.delivery.address) {
    const shipTo = el(delivery, 'ShipToTradeParty')
    val(shipTo, 'Name', m.delivery.partyName)
    address(shipTo, m.delivery.address)
  }
  if (m.delivery.date) date(el(delivery, 'ActualDeliverySupplyChainEvent'), 'OccurrenceDateTime', m.delivery.date)

  const settlement = el(tx, 'ApplicableHeaderTradeSettlement')
  val(settlement, 'PaymentReference', m.payment.paymentId)
  // BT-6 comes before BT-5 in CII's order.
  val(settlement, 'TaxCurrencyCode', m.taxCurrency?.code)
  val(settlement, 'InvoiceCurrencyCode', m.currency)
  const means = m.payment.accounts.length ? m.payment.accounts : [null]
  for (const account of means) {
    const x = el(settlement, 'SpecifiedTradeSettlementPaymentMeans')
    val(x, 'TypeCode', m.payment.code)
    if (account) {
      const acc = el(x, 'PayeePartyCreditorFinancialAccount')
      val(acc, 'IBANID', account.iban)
      val(acc, 'AccountName', account.name)
      if (account.bic) val(el(x, 'PayeeSpecifiedCreditorFinancialInstitution'), 'BICID', account.bic)
    }
  }
  for (const b of m.breakdown) tradeTax(settlement, b)
  if (m.invoicingPeriod) {
    const period = el(settlement, 'BillingSpecifiedPeriod')
    date(period, 'StartDateTime', m.invoicingPeriod.start)
    date(period, 'EndDateTime', m.invoicingPeriod.end)
  }
  if (m.paymentTerms || m.dueDate) {
    const terms = el(settlement, 'SpecifiedTradePaymentTerms')
    val(terms, 'Description', m.paymentTerms)
    date(terms, 'DueDateDateTime', m.dueDate)
  }
  const totals = el(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation')
  val(totals, 'LineTotalAmount', m.totals.lineNet)
  val(totals, 'ChargeTotalAmount', m.totals.charges)
  val(totals, 'AllowanceTotalAmount', m.totals.allowances)
  val(totals, 'TaxBasisTotalAmount', m.totals.taxExclusive)
  // Only the VAT total carries its currency in CII: the rules find the document currency's total by it.
  val(totals, 'TaxTotalAmount', m.taxTotal, money)
  // BT-111: a second VAT total, in the accounting currency (BR-53).
  if (m.taxCurrency) val(totals, 'TaxTotalAmount', m.taxCurrency.taxTotal, { currencyID: m.taxCurrency.code })
  val(totals, 'RoundingAmount', m.totals.rounding)
  val(totals, 'GrandTotalAmount', m.totals.taxInclusive)
  val(totals, 'TotalPrepaidAmount', m.totals.prepaid)
  val(totals, 'DuePayableAmount', m.totals.payable)
  if (m.precedingInvoice) {
    const ref = el(settlement, 'InvoiceReferencedDocument')
    val(ref, 'IssuerAssignedID', m.precedingInvoice.number)
    date(ref, 'FormattedIssueDateTime', m.precedingInvoice.issueDate, true)
  }
  return doc.end()
}
