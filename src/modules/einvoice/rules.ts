// The EN16931 rule table (rule set 1.3.16) applied to the model of a document: each rule an id, a predicate and the
// words a person needs to fix the document. Rules on parts the service never writes (allowances, charges, periods)
// are kept where the model carries those parts, so each per-category family stays whole.
import { isCurrency } from '../../shared/currencies'
import { isCountry } from '../../shared/countries'
import { Dec, type Decimal } from '../../shared/money'
import {
  CATEGORY_REASON,
  CREDIT_TRANSFER_CODES,
  PAYMENT_MEANS_CODES,
  UNIT_CODES,
  VAT_CATEGORY_CODES,
  VATEX_CODES,
} from './codes'
import type { XmlFormat } from '../../shared/einvoice-formats'
import {
  FORMAT_PROFILE,
  type Breakdown,
  type DocumentLevelAmount,
  type EInvoiceModel,
  type ModelLine,
  type Party,
} from './model'
import {
  decimalAsDouble,
  doubleSum,
  exactDecimal,
  roundDecimal,
  roundDecimal2 as round2,
  roundDouble2,
  xsDouble,
} from './xpath-numbers'

export interface Rule {
  id: string
  /** What the rule asks, in words that say what to change. */
  message: string
  holds(m: EInvoiceModel): boolean
}

export interface RuleFailure {
  id: string
  message: string
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const ZERO = new Dec('0')
const dec = (s: string): Decimal => new Dec(s)
const filled = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== ''
const sum = (xs: string[]): Decimal => xs.reduce((s, x) => s.plus(dec(x)), ZERO)
/** A total less one amount plus another, an absent amount counting as 0 (BR-CO-13, BR-CO-16). */
const lessPlus = (total: string, less: string | null, plus: string | null): Decimal =>
  dec(total)
    .minus(dec(less ?? '0'))
    .plus(dec(plus ?? '0'))
/** Decimals as written, as the Schematron counts them (string length after the point). */
const writtenDecimals = (s: string): number => (s.split('.')[1] ?? '').length
const isAmount = (s: string | null): boolean => s === null || /^-?[0-9]+(\.[0-9]+)?$/.test(s)

/**
 * The prefixes BR-CO-09 accepts, copied from the official rule sets (CEN 1.3.16), whose UBL and CII lists differ by
 * two codes (AN in CII only, SS in UBL only). BR-CO-09 judges the prefix alone: what follows is no rule's business.
 */
const VAT_PREFIXES = {
  ubl: new Set(
    '1A AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH EL ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XI YE YT ZA ZM ZW'.split(
      ' ',
    ),
  ),
  cii: new Set(
    '1A AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BL BJ BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH EL ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XI YE YT ZA ZM ZW'.split(
      ' ',
    ),
  ),
}

/** A VAT identifier BR-CO-09 passes in this syntax: its first two characters are a prefix of the official list. */
export function wellFormedVatId(id: string, syntax: 'ubl' | 'cii' = 'ubl'): boolean {
  return VAT_PREFIXES[syntax].has(id.slice(0, 2))
}

// ---------------------------------------------------------------------------------------------------------------
// The calculation rules as each official rule set computes them. The UBL rules cast every amount to xs:decimal and
// compute exactly; the CII rules leave many untyped, which XPath computes in doubles (xpath-numbers.ts), so beyond
// about 10^13 a sum, a rounding or a comparison there can differ from the exact one, and the CII rules fire on it.

/**
 * BR-CO-17: a breakdown's tax within one unit of taxable × rate / 100 rounded to two decimals (the tolerance lets VAT
 * rounded to whole units pass), in decimals; CII admits exactly one unit off, UBL does not. A rate that rounds to 0,
 * or no rate, asks for a tax that rounds to 0.
 */
function breakdownTaxHolds(m: EInvoiceModel, b: Breakdown): boolean {
  const tax = dec(b.tax)
  if (b.rate === null || roundDecimal(dec(b.rate)).eq(ZERO)) return roundDecimal(tax).eq(ZERO)
  const expected = round2(dec(b.taxable).abs().times(dec(b.rate).div('100')))
  const [low, high] = [tax.abs().minus('1'), tax.abs().plus('1')]
  return syntaxOf(m) === 'cii' ? low.lte(expected) && high.gte(expected) : low.lt(expected) && high.gt(expected)
}

/** BR-S-09: the same tolerance, bounds excluded; CII multiplies the taxable amount by the untyped rate as doubles. */
function standardTaxHolds(m: EInvoiceModel, b: Breakdown): boolean {
  if (b.rate === null) return false
  const tax = dec(b.tax).abs()
  if (syntaxOf(m) === 'cii') {
    const expected = Math.round(decimalAsDouble(dec(b.taxable).abs()) * xsDouble(b.rate)) / 100
    return decimalAsDouble(tax.minus('1')) < expected && decimalAsDouble(tax.plus('1')) > expected
  }
  const expected = round2(dec(b.taxable).abs().times(dec(b.rate).div('100')))
  return tax.minus('1').lt(expected) && tax.plus('1').gt(expected)
}

/** BR-CO-11 / BR-CO-12: the sum of document level allowances (or charges) equals them added up, to two decimals. */
function documentLevelTotalHolds(m: EInvoiceModel, total: string | null, amounts: string[]): boolean {
  if (total === null) return amounts.length === 0
  return syntaxOf(m) === 'cii'
    ? xsDouble(total) === roundDouble2(doubleSum(amounts))
    : dec(total).eq(round2(sum(amounts)))
}

type Item = { category: string; rate: string | null; amount: string }
const lineItems = (m: EInvoiceModel): Item[] =>
  m.lines.map((l) => ({ category: l.category, rate: l.rate, amount: l.netAmount }))
const docItems = (xs: DocumentLevelAmount[]): Item[] =>
  xs.map((x) => ({ category: x.category, rate: x.rate, amount: x.amount }))
const allItems = (m: EInvoiceModel): Item[] => [...lineItems(m), ...docItems(m.allowances), ...docItems(m.charges)]

function rule(id: string, message: string, holds: (m: EInvoiceModel) => boolean): Rule {
  return { id, message, holds }
}

const syntaxOf = (m: EInvoiceModel): 'ubl' | 'cii' => FORMAT_PROFILE[m.format].syntax

/** A rule the official set holds in one syntax only (the other syntax's rule reads its element differently). */
function inSyntax(syntax: 'ubl' | 'cii', r: Rule): Rule {
  return { ...r, holds: (m) => syntaxOf(m) !== syntax || r.holds(m) }
}

function addressHasCountry(p: Party): boolean {
  return filled(p.address.country)
}

// ---------------------------------------------------------------------------------------------------------------
// Core rules (BR-nn)

const CORE: Rule[] = [
  rule('BR-01', 'An e-invoice names its specification (urn:cen.eu:en16931:2017).', (m) => filled(m.specificationId)),
  rule('BR-02', 'An e-invoice has a number: issue the document first.', (m) => filled(m.number)),
  rule('BR-03', 'An e-invoice has an issue date.', (m) => filled(m.issueDate)),
  rule('BR-04', 'An e-invoice has a type code.', (m) => filled(m.typeCode)),
  rule('BR-05', 'An e-invoice has a currency code.', (m) => filled(m.currency)),
  rule(
    'BR-53',
    'With a VAT accounting currency (BT-6), the total VAT in it (BT-111) is stated.',
    (m) => m.taxCurrency === null || filled(m.taxCurrency.taxTotal),
  ),
  rule('BR-06', 'The Seller has a name: set the Business name or legal name.', (m) => filled(m.seller.name)),
  rule('BR-07', 'The Buyer has a name: set the Client name or legal name.', (m) => filled(m.buyer.name)),
  rule('BR-08', 'The Seller has a postal address.', (m) => m.seller.address !== null),
  rule('BR-09', 'The Seller postal address has a country: set the Business country.', (m) =>
    addressHasCountry(m.seller),
  ),
  rule('BR-10', 'The Buyer has a postal address.', (m) => m.buyer.address !== null),
  rule('BR-11', 'The Buyer postal address has a country: set the Client country.', (m) => addressHasCountry(m.buyer)),
  rule('BR-12', 'An e-invoice has the sum of its Line net amounts.', (m) => filled(m.totals.lineNet)),
  rule('BR-13', 'An e-invoice has its total without VAT.', (m) => filled(m.totals.taxExclusive)),
  rule('BR-14', 'An e-invoice has its total with VAT.', (m) => filled(m.totals.taxInclusive)),
  rule('BR-15', 'An e-invoice has its amount due for payment.', (m) => filled(m.totals.payable)),
  rule('BR-16', 'An e-invoice has at least one Line.', (m) => m.lines.length > 0),
  rule('BR-21', 'Each Line has an identifier.', (m) => m.lines.every((l) => filled(l.id))),
  rule('BR-22', 'Each Line has a quantity.', (m) => m.lines.every((l) => filled(l.quantity))),
  rule('BR-23', 'Each Line has a unit of measure code.', (m) => m.lines.every((l) => filled(l.unitCode))),
  rule('BR-24', 'Each Line has a net amount.', (m) => m.lines.every((l) => filled(l.netAmount))),
  rule('BR-25', 'Each Line has an item name: give every Line a description.', (m) =>
    m.lines.every((l) => filled(l.name)),
  ),
  rule('BR-26', 'Each Line has a net price.', (m) => m.lines.every((l) => filled(l.price))),
  rule('BR-27', 'A Line net price is not negative.', (m) =>
    m.lines.every((l) => !filled(l.price) || dec(l.price).gte(ZERO)),
  ),
  rule('BR-29', 'An invoicing period ends on or after its start.', (m) => {
    const p = m.invoicingPeriod
    return !p || !p.start || !p.end || p.end >= p.start
  }),
  rule('BR-31', 'Each document level allowance has an amount.', (m) => m.allowances.every((a) => filled(a.amount))),
  rule('BR-32', 'Each document level allowance has a VAT category.', (m) =>
    m.allowances.every((a) => filled(a.category)),
  ),
  rule('BR-33', 'Each document level allowance has a reason or reason code.', (m) =>
    m.allowances.every((a) => filled(a.reason) || filled(a.reasonCode)),
  ),
  rule('BR-36', 'Each document level charge has an amount.', (m) => m.charges.every((a) => filled(a.amount))),
  rule('BR-37', 'Each document level charge has a VAT category.', (m) => m.charges.every((a) => filled(a.category))),
  rule('BR-38', 'Each document level charge has a reason or reason code.', (m) =>
    m.charges.every((a) => filled(a.reason) || filled(a.reasonCode)),
  ),
  rule('BR-45', 'Each VAT breakdown has a taxable amount.', (m) => m.breakdown.every((b) => filled(b.taxable))),
  rule('BR-46', 'Each VAT breakdown has a tax amount.', (m) => m.breakdown.every((b) => filled(b.tax))),
  rule('BR-47', 'Each VAT breakdown has a VAT category.', (m) => m.breakdown.every((b) => filled(b.category))),
  rule('BR-48', 'Each VAT breakdown has a VAT rate, except outside the scope of VAT (O).', (m) =>
    m.breakdown.every((b) => b.category === 'O' || filled(b.rate)),
  ),
  rule('BR-49', 'Payment instructions have a payment means code.', (m) => filled(m.payment.code)),
  rule(
    'BR-50',
    'A credit transfer names the account to pay into (IBAN).',
    (m) =>
      !CREDIT_TRANSFER_CODES.has(m.payment.code) ||
      (m.payment.accounts.length > 0 && m.payment.accounts.every((a) => filled(a.iban))),
  ),
  rule(
    'BR-55',
    'A reference to a preceding Invoice names its number.',
    (m) => !m.precedingInvoice || filled(m.precedingInvoice.number),
  ),
  rule(
    'BR-57',
    'A deliver-to address has a country: set the Client country.',
    (m) => !m.delivery.address || filled(m.delivery.address.country),
  ),
  rule(
    'BR-61',
    'A credit transfer names the payment account identifier (IBAN).',
    (m) => !CREDIT_TRANSFER_CODES.has(m.payment.code) || m.payment.accounts.every((a) => filled(a.iban)),
  ),
]

// ---------------------------------------------------------------------------------------------------------------
// Calculation and consistency rules (BR-CO)

const CO: Rule[] = [
  rule('BR-CO-04', 'Each Line has a VAT category.', (m) => m.lines.every((l) => filled(l.category))),
  rule(
    'BR-CO-09',
    'A VAT number starts with a capital ISO 3166-1 country code (EL for Greece): correct the Business or Client vat_number, or give the Client its country.',
    (m) => [m.seller.vatId, m.buyer.vatId].every((id) => id === null || wellFormedVatId(id, syntaxOf(m))),
  ),
  // BR-CO-10, -13, -14, -15 as the official rules compute them: the sum rounded to two decimals, so a sum with a
  // third decimal (a currency of three) breaks them.
  rule(
    'BR-CO-10',
    'The sum of Line net amounts equals the Lines added up, to two decimals: an amount with a third decimal (a currency of three), or in CII a sum its binary floating point cannot hold to the cent (amounts beyond about 10^13), is not exported.',
    (m) =>
      // CII adds the untyped Line amounts as doubles and casts that double to a decimal, exactly.
      dec(m.totals.lineNet).eq(
        round2(
          syntaxOf(m) === 'cii'
            ? exactDecimal(doubleSum(m.lines.map((l) => l.netAmount)))
            : sum(m.lines.map((l) => l.netAmount)),
        ),
      ),
  ),
  rule('BR-CO-11', 'The sum of allowances equals the allowances added up.', (m) =>
    documentLevelTotalHolds(
      m,
      m.totals.allowances,
      m.allowances.map((a) => a.amount),
    ),
  ),
  rule('BR-CO-12', 'The sum of charges equals the charges added up.', (m) =>
    documentLevelTotalHolds(
      m,
      m.totals.charges,
      m.charges.map((a) => a.amount),
    ),
  ),
  rule('BR-CO-13', 'The total without VAT equals the Line net amounts less allowances plus charges.', (m) =>
    // UBL compares the plain case exactly and CII rounds it to two decimals, as each official rule set does.
    m.totals.allowances === null && m.totals.charges === null && syntaxOf(m) === 'ubl'
      ? dec(m.totals.taxExclusive).eq(dec(m.totals.lineNet))
      : dec(m.totals.taxExclusive).eq(round2(lessPlus(m.totals.lineNet, m.totals.allowances, m.totals.charges))),
  ),
  rule(
    'BR-CO-14',
    'The total VAT equals the VAT breakdown amounts added up, to two decimals: an amount with a third decimal (a currency of three), or in CII VAT amounts its binary floating point cannot hold to the cent (beyond about 10^13), is not exported.',
    (m) =>
      // CII adds the untyped amounts as doubles, rounds in doubles and compares with the total read as a double.
      syntaxOf(m) === 'cii'
        ? xsDouble(m.taxTotal) === roundDouble2(doubleSum(m.breakdown.map((b) => b.tax)))
        : m.breakdown.length === 0 || dec(m.taxTotal).eq(round2(sum(m.breakdown.map((b) => b.tax)))),
  ),
  rule(
    'BR-CO-15',
    'The total with VAT equals the total without VAT plus the total VAT, to two decimals: an amount with a third decimal (a currency of three) is not exported.',
    (m) => dec(m.totals.taxInclusive).eq(round2(dec(m.totals.taxExclusive).plus(dec(m.taxTotal)))),
  ),
  rule('BR-CO-16', 'The amount due equals the total with VAT less the paid amount plus rounding.', (m) =>
    dec(m.totals.payable).eq(lessPlus(m.totals.taxInclusive, m.totals.prepaid, m.totals.rounding)),
  ),
  rule(
    'BR-CO-17',
    'Each VAT breakdown tax amount equals its taxable amount × rate / 100, rounded to two decimals.',
    (m) => m.breakdown.every((b) => breakdownTaxHolds(m, b)),
  ),
  rule('BR-CO-18', 'An e-invoice has at least one VAT breakdown.', (m) => m.breakdown.length > 0),
  rule('BR-CO-21', 'Each document level allowance has a reason or reason code.', (m) =>
    m.allowances.every((a) => filled(a.reason) || filled(a.reasonCode)),
  ),
  rule('BR-CO-22', 'Each document level charge has a reason or reason code.', (m) =>
    m.charges.every((a) => filled(a.reason) || filled(a.reasonCode)),
  ),
  rule(
    'BR-CO-26',
    'The Seller is identified by an identifier, a legal registration number or a VAT number.',
    (m) => filled(m.seller.identifier) || filled(m.seller.legalRegistrationId) || filled(m.seller.vatId),
  ),
]

// ---------------------------------------------------------------------------------------------------------------
// Decimals (BR-DEC): every amount at most two decimals, which currencies with three (BHD, KWD, ...) can exceed.

function decimalsRule(id: string, what: string, amounts: (m: EInvoiceModel) => (string | null)[]): Rule {
  return rule(
    id,
    `${what} has at most two decimals; an amount with a third decimal (a currency of three) is not exported.`,
    (m) => amounts(m).every((a) => a === null || (isAmount(a) && writtenDecimals(a) <= 2)),
  )
}

const DEC: Rule[] = [
  decimalsRule('BR-DEC-01', 'A document level allowance amount', (m) => m.allowances.map((a) => a.amount)),
  decimalsRule('BR-DEC-05', 'A document level charge amount', (m) => m.charges.map((a) => a.amount)),
  decimalsRule('BR-DEC-09', 'The sum of Line net amounts', (m) => [m.totals.lineNet]),
  decimalsRule('BR-DEC-10', 'The sum of allowances', (m) => [m.totals.allowances]),
  decimalsRule('BR-DEC-11', 'The sum of charges', (m) => [m.totals.charges]),
  decimalsRule('BR-DEC-12', 'The total without VAT', (m) => [m.totals.taxExclusive]),
  // UBL's BR-DEC-13 compares the VAT total's currency with a path that finds nothing, so only CII's fires, and it
  // asks x = round(x * 100) div 100 of the total read as a double, which a total beyond about 10^13 can fail.
  inSyntax(
    'cii',
    rule(
      'BR-DEC-13',
      'The total VAT has at most two decimals; an amount with a third decimal (a currency of three), or one its binary floating point cannot hold to the cent (beyond about 10^13), is not exported.',
      (m) => {
        // The official test passes when any TaxTotalAmount is not in the document's currency: with BT-111 beside it
        // (extensions §16) it never fires, and the rules here say what the official set says.
        if (m.taxCurrency !== null) return true
        const total = xsDouble(m.taxTotal)
        return total === Math.round(total * 100) / 100
      },
    ),
  ),
  decimalsRule('BR-DEC-15', 'The total VAT in the accounting currency', (m) => [m.taxCurrency?.taxTotal ?? null]),
  decimalsRule('BR-DEC-14', 'The total with VAT', (m) => [m.totals.taxInclusive]),
  decimalsRule('BR-DEC-16', 'The paid amount', (m) => [m.totals.prepaid]),
  decimalsRule('BR-DEC-17', 'The rounding amount', (m) => [m.totals.rounding]),
  decimalsRule('BR-DEC-18', 'The amount due', (m) => [m.totals.payable]),
  decimalsRule('BR-DEC-19', 'Each VAT breakdown taxable amount', (m) => m.breakdown.map((b) => b.taxable)),
  decimalsRule('BR-DEC-20', 'Each VAT breakdown tax amount', (m) => m.breakdown.map((b) => b.tax)),
  decimalsRule('BR-DEC-23', 'Each Line net amount', (m) => m.lines.map((l) => l.netAmount)),
  // UBL's data type rule: every amount element except prices, at most two decimals.
  inSyntax(
    'ubl',
    rule(
      'UBL-DT-01',
      'Every amount has at most two decimals; an amount with a third decimal (a currency of three) is not exported.',
      (m) =>
        [
          m.taxTotal,
          ...Object.values(m.totals),
          ...m.breakdown.flatMap((b) => [b.taxable, b.tax]),
          ...m.lines.map((l) => l.netAmount),
        ].every((a) => a === null || writtenDecimals(a) <= 2),
    ),
  ),
]

// ---------------------------------------------------------------------------------------------------------------
// Code lists (BR-CL)

const countriesOf = (m: EInvoiceModel): (string | null)[] => [
  m.seller.address.country,
  m.buyer.address.country,
  m.delivery.address?.country ?? null,
]

const CL: Rule[] = [
  rule('BR-CL-01', 'The type code is an invoice or credit note code of UNTDID 1001 (380, 381).', (m) =>
    ['380', '381'].includes(m.typeCode),
  ),
  rule('BR-CL-04', 'The currency is an ISO 4217 code.', (m) => isCurrency(m.currency)),
  rule(
    'BR-CL-05',
    'The VAT accounting currency is an ISO 4217 code.',
    (m) => m.taxCurrency === null || isCurrency(m.taxCurrency.code),
  ),
  rule('BR-CL-14', 'Every country is an ISO 3166-1 alpha-2 code.', (m) =>
    countriesOf(m).every((c) => c === null || c === '' || isCountry(c)),
  ),
  rule('BR-CL-16', 'The payment means code is one of UNCL 4461.', (m) => PAYMENT_MEANS_CODES.has(m.payment.code)),
  rule('BR-CL-17', 'Each VAT breakdown category is one of UNCL 5305.', (m) =>
    m.breakdown.every((b) => VAT_CATEGORY_CODES.has(b.category)),
  ),
  rule('BR-CL-18', 'Each Line VAT category is one of UNCL 5305.', (m) =>
    m.lines.every((l) => VAT_CATEGORY_CODES.has(l.category)),
  ),
  rule('BR-CL-22', 'Each exemption code is a code of the CEF VATEX list (such as VATEX-EU-AE).', (m) =>
    m.breakdown.every((b) => b.exemptionCode === null || VATEX_CODES.has(b.exemptionCode.toUpperCase())),
  ),
  rule('BR-CL-23', 'Each Line unit is a UN/ECE Recommendation 20 code.', (m) =>
    m.lines.every((l) => UNIT_CODES.has(l.unitCode)),
  ),
]

// ---------------------------------------------------------------------------------------------------------------
// The per-category families (BR-S, BR-Z, BR-E, BR-AE, BR-IC, BR-G, BR-O), from one description each.

interface Family {
  /** UNCL 5305 category code. */
  category: string
  /** Rule id prefix (K's family is BR-IC). */
  prefix: string
  /** The category in words. */
  words: string
  /** BR-x-01: "at least one" (S, one per rate) or "exactly one" VAT breakdown of the category. */
  breakdowns: 'at-least-one' | 'exactly-one'
  /** BR-x-02..04: what the parties must (or must not) carry. */
  parties: 'seller-vat' | 'seller-and-buyer-vat-or-registration' | 'seller-and-buyer-vat' | 'no-vat-ids'
  /** BR-x-05..07: the rate items of the category carry. */
  rate: 'positive' | 'zero' | 'none'
  /** BR-x-10: the exemption reason its breakdown carries. */
  reason: 'none' | 'any' | 'meaning'
}

const FAMILIES: Family[] = [
  {
    category: 'S',
    prefix: 'BR-S',
    words: 'standard rated (S)',
    breakdowns: 'at-least-one',
    parties: 'seller-vat',
    rate: 'positive',
    reason: 'none',
  },
  {
    category: 'Z',
    prefix: 'BR-Z',
    words: 'zero rated (Z)',
    breakdowns: 'exactly-one',
    parties: 'seller-vat',
    rate: 'zero',
    reason: 'none',
  },
  {
    category: 'E',
    prefix: 'BR-E',
    words: 'exempt from VAT (E)',
    breakdowns: 'exactly-one',
    parties: 'seller-vat',
    rate: 'zero',
    reason: 'any',
  },
  {
    category: 'AE',
    prefix: 'BR-AE',
    words: 'reverse charge (AE)',
    breakdowns: 'exactly-one',
    parties: 'seller-and-buyer-vat-or-registration',
    rate: 'zero',
    reason: 'meaning',
  },
  {
    category: 'K',
    prefix: 'BR-IC',
    words: 'intra-community supply (K)',
    breakdowns: 'exactly-one',
    parties: 'seller-and-buyer-vat',
    rate: 'zero',
    reason: 'meaning',
  },
  {
    category: 'G',
    prefix: 'BR-G',
    words: 'export outside the EU (G)',
    breakdowns: 'exactly-one',
    parties: 'seller-vat',
    rate: 'zero',
    reason: 'meaning',
  },
  {
    category: 'O',
    prefix: 'BR-O',
    words: 'outside the scope of VAT (O)',
    breakdowns: 'exactly-one',
    parties: 'no-vat-ids',
    rate: 'none',
    reason: 'meaning',
  },
]

function partiesHold(f: Family, m: EInvoiceModel): boolean {
  const seller = filled(m.seller.vatId)
  const buyer = filled(m.buyer.vatId)
  switch (f.parties) {
    case 'seller-vat':
      // BT-32 serves as well as a VAT number here (a Non-VAT Payer's tax registration).
      return seller || filled(m.seller.taxRegistrationId)
    case 'seller-and-buyer-vat-or-registration':
      return seller && (buyer || filled(m.buyer.legalRegistrationId))
    case 'seller-and-buyer-vat':
      return seller && buyer
    case 'no-vat-ids':
      return !seller && !buyer
  }
}

function partiesWords(f: Family): string {
  switch (f.parties) {
    case 'seller-vat':
      return "the Seller's VAT number or tax registration id: the Business must be a VAT payer with a vat_number, or have a tax_registration_id"
    case 'seller-and-buyer-vat-or-registration':
      return "the Seller's VAT number and the Client's vat_number"
    case 'seller-and-buyer-vat':
      return "the Seller's VAT number and the Client's vat_number"
    case 'no-vat-ids':
      return 'no VAT number of Seller or Client, so a document with O Lines holds only O Lines'
  }
}

function rateHolds(f: Family, rate: string | null): boolean {
  if (f.rate === 'none') return rate === null
  if (rate === null) return false
  return f.rate === 'positive' ? dec(rate).gt(ZERO) : dec(rate).eq(ZERO)
}

const RATE_WORDS = { positive: 'a VAT rate above 0', zero: 'a VAT rate of 0', none: 'no VAT rate' } as const

function reasonHolds(f: Family, b: Breakdown): boolean {
  switch (f.reason) {
    case 'none':
      return !filled(b.exemptionCode) && !filled(b.exemptionText)
    case 'any':
      return filled(b.exemptionCode) || filled(b.exemptionText)
    case 'meaning': {
      const meaning = CATEGORY_REASON[f.category]!
      return filled(b.exemptionCode)
        ? meaning.codes.includes(b.exemptionCode.toUpperCase())
        : b.exemptionText === meaning.text
    }
  }
}

function reasonWords(f: Family): string {
  switch (f.reason) {
    case 'none':
      return 'carries no exemption reason: its Lines take no vat_exemption_code'
    case 'any':
      return 'carries an exemption reason: give its Lines one vat_exemption_code'
    case 'meaning':
      return `carries the exemption reason ${CATEGORY_REASON[f.category]!.codes[0]} ("${CATEGORY_REASON[f.category]!.text}") on every Line`
  }
}

/**
 * BR-x-08 for one VAT breakdown: its taxable amount against the category's Line net amounts (S: at its rate) plus
 * charges less allowances, each breakdown on its own (split breakdowns of a category each fail it). UBL sums in
 * decimals and compares exactly, its S within one unit of the taxable amount read as a double; CII rounds each sum to
 * two decimals and compares with the untyped taxable amount as doubles, exactly for S and O, within one unit else.
 */
function taxableHolds(f: Family, m: EInvoiceModel, b: Breakdown): boolean {
  // An S breakdown without a rate asks nothing ("every $rate in" an empty rate).
  if (f.category === 'S' && b.rate === null) return true
  const ofBand = (xs: Item[]) =>
    xs
      .filter(
        (x) => x.category === f.category && (f.category !== 'S' || (x.rate !== null && dec(x.rate).eq(dec(b.rate!)))),
      )
      .map((x) => x.amount)
  const [lines, allowances, charges] = [
    ofBand(lineItems(m)),
    ofBand(docItems(m.allowances)),
    ofBand(docItems(m.charges)),
  ]
  if (syntaxOf(m) === 'ubl') {
    const expected = sum(lines).plus(sum(charges)).minus(sum(allowances))
    if (f.category !== 'S') return dec(b.taxable).eq(expected)
    // `xs:decimal(cbc:TaxableAmount - 1)`: the subtraction is in doubles, its result cast exactly.
    const taxable = xsDouble(b.taxable)
    return (
      lines.length + allowances.length + charges.length > 0 &&
      exactDecimal(taxable - 1).lt(expected) &&
      exactDecimal(taxable + 1).gt(expected)
    )
  }
  const expected = decimalAsDouble(
    round2(sum(lines))
      .plus(round2(sum(charges)))
      .minus(round2(sum(allowances))),
  )
  const taxable = xsDouble(b.taxable)
  return f.category === 'S' || f.category === 'O'
    ? taxable === expected
    : taxable - 1 < expected && taxable + 1 > expected
}

function familyRules(f: Family): Rule[] {
  const c = f.category
  const of = <T extends { category: string }>(xs: T[]) => xs.filter((x) => x.category === c)
  const bands = (m: EInvoiceModel) => of(m.breakdown)
  const out: Rule[] = [
    rule(
      `${f.prefix}-01`,
      f.breakdowns === 'at-least-one'
        ? `A document with ${f.words} Lines has a VAT breakdown in that category.`
        : `A document with ${f.words} Lines has exactly one VAT breakdown in that category: give all its Lines the same vat_exemption_code.`,
      (m) => {
        if (of(allItems(m)).length === 0) return true
        const n = bands(m).length
        return f.breakdowns === 'at-least-one' ? n >= 1 : n === 1
      },
    ),
    rule(
      `${f.prefix}-02`,
      `Lines ${f.words} need ${partiesWords(f)}.`,
      (m) => of(m.lines).length === 0 || partiesHold(f, m),
    ),
    rule(
      `${f.prefix}-03`,
      `Document level allowances ${f.words} need ${partiesWords(f)}.`,
      (m) => of(m.allowances).length === 0 || partiesHold(f, m),
    ),
    rule(
      `${f.prefix}-04`,
      `Document level charges ${f.words} need ${partiesWords(f)}.`,
      (m) => of(m.charges).length === 0 || partiesHold(f, m),
    ),
    rule(`${f.prefix}-05`, `Lines ${f.words} carry ${RATE_WORDS[f.rate]}.`, (m) =>
      of<ModelLine>(m.lines).every((l) => rateHolds(f, l.rate)),
    ),
    rule(`${f.prefix}-06`, `Document level allowances ${f.words} carry ${RATE_WORDS[f.rate]}.`, (m) =>
      of(m.allowances).every((a) => rateHolds(f, a.rate)),
    ),
    rule(`${f.prefix}-07`, `Document level charges ${f.words} carry ${RATE_WORDS[f.rate]}.`, (m) =>
      of(m.charges).every((a) => rateHolds(f, a.rate)),
    ),
    rule(
      `${f.prefix}-08`,
      `The taxable amount of the ${f.words} VAT breakdown equals its Line net amounts${f.category === 'S' ? ' at that rate' : ''}, less allowances, plus charges.`,
      (m) => bands(m).every((b) => taxableHolds(f, m, b)),
    ),
    rule(
      `${f.prefix}-09`,
      f.category === 'S'
        ? `The tax amount of a ${f.words} VAT breakdown equals its taxable amount × its rate.`
        : `The tax amount of the ${f.words} VAT breakdown is 0.`,
      (m) => bands(m).every((b) => (f.category === 'S' ? standardTaxHolds(m, b) : dec(b.tax).eq(ZERO))),
    ),
    rule(`${f.prefix}-10`, `The ${f.words} VAT breakdown ${reasonWords(f)}.`, (m) =>
      bands(m).every((b) => reasonHolds(f, b)),
    ),
  ]
  if (f.category === 'K') {
    out.push(
      rule(
        'BR-IC-11',
        'An intra-community supply (K) names the actual delivery date or the invoicing period: set the delivery_date.',
        (m) =>
          bands(m).length === 0 ||
          filled(m.delivery.date) ||
          (m.invoicingPeriod !== null && (filled(m.invoicingPeriod.start) || filled(m.invoicingPeriod.end))),
      ),
      rule(
        'BR-IC-12',
        'An intra-community supply (K) names the deliver-to country: give the Client its country.',
        (m) => bands(m).length === 0 || filled(m.delivery.address?.country),
      ),
    )
  }
  if (f.category === 'O') {
    const onlyO = (xs: { category: string }[]) => xs.every((x) => x.category === 'O')
    out.push(
      rule(
        'BR-O-11',
        'A document outside the scope of VAT (O) has no other VAT breakdown: put O Lines on a document of their own.',
        (m) => bands(m).length === 0 || onlyO(m.breakdown),
      ),
      rule(
        'BR-O-12',
        'A document outside the scope of VAT (O) has no Line in another category: put O Lines on a document of their own.',
        (m) => bands(m).length === 0 || onlyO(m.lines),
      ),
      rule(
        'BR-O-13',
        'A document outside the scope of VAT (O) has no allowance in another category.',
        (m) => bands(m).length === 0 || onlyO(m.allowances),
      ),
      rule(
        'BR-O-14',
        'A document outside the scope of VAT (O) has no charge in another category.',
        (m) => bands(m).length === 0 || onlyO(m.charges),
      ),
    )
  }
  return out
}

const CATEGORIES: Rule[] = FAMILIES.flatMap(familyRules)

/** The whole EN16931 table, in the standard's order. */
export const RULES: readonly Rule[] = [...CORE, ...CO, ...DEC, ...CL, ...CATEGORIES]

// ---------------------------------------------------------------------------------------------------------------
// The CIUS rules: XRechnung 3.0 (KoSIT 2.5.0, BR-DE-*) and Peppol BIS Billing 3.0 (3.0.19, PEPPOL-*, and the national
// rules for a German seller, DE-R-*), each the fatal rules a document of this service can break, under their own ids.

const CREDIT_TRANSFER = new Set(['30', '58'])
const VAT_CODES_DE16 = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M'])

/** The German rules XRechnung and Peppol (for a German seller) share, under each set's own ids. */
function germanRules(ids: (n: number) => string): Rule[] {
  const contact = (m: EInvoiceModel) => m.seller.contact
  return [
    rule(ids(1), 'Payment instructions are given (payment means).', (m) => filled(m.payment.code)),
    rule(
      ids(2),
      'The Seller contact is given: set the Business contact (name, phone, email).',
      (m) => contact(m) !== null,
    ),
    rule(ids(3), 'The Seller city is given: set the Business city.', (m) => filled(m.seller.address.city)),
    rule(ids(4), 'The Seller post code is given: set the Business postal_code.', (m) =>
      filled(m.seller.address.postalCode),
    ),
    rule(ids(5), 'The Seller contact point (a name) is given: set the Business contact name.', (m) =>
      filled(contact(m)?.name),
    ),
    rule(ids(6), 'The Seller contact telephone number is given: set the Business contact phone.', (m) =>
      filled(contact(m)?.phone),
    ),
    rule(ids(7), 'The Seller contact email is given: set the Business contact email or the Business email.', (m) =>
      filled(contact(m)?.email),
    ),
    rule(ids(8), 'The Buyer city is given: set the Client city.', (m) => filled(m.buyer.address.city)),
    rule(ids(9), 'The Buyer post code is given: set the Client postal_code.', (m) =>
      filled(m.buyer.address.postalCode),
    ),
    rule(
      ids(10),
      'A deliver-to address has a city: set the Client city.',
      (m) => !m.delivery.address || filled(m.delivery.address.city),
    ),
    rule(
      ids(11),
      'A deliver-to address has a post code: set the Client postal_code.',
      (m) => !m.delivery.address || filled(m.delivery.address.postalCode),
    ),
    rule(ids(14), 'Every VAT breakdown carries its rate.', (m) => m.breakdown.every((b) => filled(b.rate))),
    rule(
      ids(15),
      'The buyer reference (BT-10, e.g. the Leitweg-ID) is given: set the document or Client buyer_reference.',
      (m) => filled(m.buyerReference),
    ),
    rule(
      ids(16),
      'A document with VAT categories S, Z, E, AE, K or G names the Seller VAT number or tax registration id.',
      (m) =>
        !m.lines.some((l) => VAT_CODES_DE16.has(l.category)) ||
        filled(m.seller.vatId) ||
        filled(m.seller.taxRegistrationId),
    ),
    rule(
      ids(23),
      'A credit transfer (payment means 30 or 58) names the account to pay into.',
      (m) => !CREDIT_TRANSFER.has(m.payment.code) || m.payment.accounts.length > 0,
    ),
  ]
}

/** Peppol's rules that both parties have an electronic address, which XRechnung holds too. */
const ELECTRONIC_ADDRESSES_GIVEN: Rule[] = [
  rule(
    'PEPPOL-EN16931-R010',
    "The Buyer electronic address is given: set the Client's electronic_address or email.",
    (m) => m.buyer.electronicAddress !== null,
  ),
  rule(
    'PEPPOL-EN16931-R020',
    "The Seller electronic address is given: set the Business's electronic_address or email.",
    (m) => m.seller.electronicAddress !== null,
  ),
]

const XRECHNUNG: Rule[] = [
  ...germanRules((n) => (n === 23 ? 'BR-DE-23-a' : `BR-DE-${n}`)),
  rule('PEPPOL-EN16931-R001', 'The business process (BT-23) is given.', (m) => filled(m.processId)),
  ...ELECTRONIC_ADDRESSES_GIVEN,
]

/** GS1 check digit of a GLN (PEPPOL-COMMON-R040). */
function validGln(v: string): boolean {
  if (!/^[0-9]{13}$/.test(v)) return false
  const digits = [...v].map(Number)
  const sumOf = digits.slice(0, 12).reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0)
  return (10 - (sumOf % 10)) % 10 === digits[12]
}

/** A Belgian enterprise number: 10 digits, the last two 97 less the first eight modulo 97 (PEPPOL-COMMON-R043). */
function validBelgian(v: string): boolean {
  if (!/^[0-9]{10}$/.test(v)) return false
  return 97 - (Number(v.slice(0, 8)) % 97) === Number(v.slice(8))
}

/** The Peppol category a VATEX code belongs to (P0104 to P0111); a code of another category there is refused. */
const VATEX_CATEGORY: Record<string, { id: string; category: string }> = {
  'VATEX-EU-G': { id: 'PEPPOL-EN16931-P0104', category: 'G' },
  'VATEX-EU-O': { id: 'PEPPOL-EN16931-P0105', category: 'O' },
  'VATEX-EU-IC': { id: 'PEPPOL-EN16931-P0106', category: 'K' },
  'VATEX-EU-AE': { id: 'PEPPOL-EN16931-P0107', category: 'AE' },
  'VATEX-EU-D': { id: 'PEPPOL-EN16931-P0108', category: 'E' },
  'VATEX-EU-F': { id: 'PEPPOL-EN16931-P0109', category: 'E' },
  'VATEX-EU-I': { id: 'PEPPOL-EN16931-P0110', category: 'E' },
  'VATEX-EU-J': { id: 'PEPPOL-EN16931-P0111', category: 'E' },
}

/** Peppol's copy of the EAS list (3.0.19), which holds no EM (email) and no AN, AQ, AS, AU. */
const PEPPOL_EAS = new Set(
  `0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0151 0177 0183 0184 0188 0190 0191 0192 0193 0195 0196 0198
  0199 0200 0201 0202 0204 0208 0209 0210 0211 0212 0213 0215 0216 0218 0221 0230 0235 9910 9913 9914 9915 9918 9919 9920
  9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945
  9946 9947 9948 9949 9950 9951 9952 9953 9957 9959 0147 0154 0158 0170 0194 0203 0205 0217 0225 0240`.split(/\s+/),
)

const addresses = (m: EInvoiceModel) =>
  [m.seller.electronicAddress, m.buyer.electronicAddress].filter(
    (a): a is { scheme: string; value: string } => a !== null,
  )
const germanSeller = (m: EInvoiceModel) => m.seller.address.country === 'DE'

const PEPPOL: Rule[] = [
  rule(
    'PEPPOL-EN16931-R003',
    'A buyer reference or a purchase order reference is given: set the document buyer_reference or order_reference.',
    (m) => filled(m.buyerReference) || filled(m.orderReference),
  ),
  ...ELECTRONIC_ADDRESSES_GIVEN,
  rule(
    'PEPPOL-EN16931-R120',
    'Each Line net amount equals quantity × unit price within 0.02: a currency without minor units rounds a fractional price beyond that; give such Lines whole prices.',
    (m) =>
      m.lines.every((l) =>
        dec(l.netAmount)
          .minus(dec(l.quantity).times(dec(l.price)))
          .abs()
          .lte(dec('0.02')),
      ),
  ),
  ...Object.entries(VATEX_CATEGORY).map(([code, { id, category }]) =>
    rule(id, `The exemption code ${code} is used only with VAT category ${category}.`, (m) =>
      m.breakdown.every((b) => b.exemptionCode?.toUpperCase() !== code || b.category === category),
    ),
  ),
  rule(
    'PEPPOL-EN16931-CL008',
    'Peppol addresses are Peppol participant ids (e.g. 0088 GLN, 9930 German VAT number, 0208 Belgian enterprise number), not email (EM): set the electronic_address of the Business and of the Client.',
    (m) => addresses(m).every((a) => PEPPOL_EAS.has(a.scheme)),
  ),
  rule('PEPPOL-COMMON-R040', 'A GLN (scheme 0088) has 13 digits and a valid GS1 check digit.', (m) =>
    addresses(m).every((a) => a.scheme !== '0088' || validGln(a.value)),
  ),
  rule('PEPPOL-COMMON-R043', 'A Belgian enterprise number (scheme 0208) has 10 digits and a valid check.', (m) =>
    addresses(m).every((a) => a.scheme !== '0208' || validBelgian(a.value)),
  ),
  // The national rules of a German seller.
  ...germanRules((n) => `DE-R-${String(n === 23 ? '023-1' : n).padStart(3, '0')}`).map((r) => ({
    ...r,
    holds: (m: EInvoiceModel) => !germanSeller(m) || r.holds(m),
  })),
]

/** The rules a document exported in `format` answers to: EN16931's, and its CIUS's. */
export function rulesFor(format: XmlFormat): readonly Rule[] {
  switch (format) {
    case 'ubl':
    case 'cii':
      return RULES
    case 'xrechnung-ubl':
    case 'xrechnung-cii':
      return [...RULES, ...XRECHNUNG]
    case 'peppol':
      return [...RULES, ...PEPPOL]
  }
}

/** Every rule the model breaks; a predicate that cannot even read the model counts as broken. */
export function checkModel(m: EInvoiceModel, rules: readonly Rule[] = RULES): RuleFailure[] {
  const failures: RuleFailure[] = []
  for (const r of rules) {
    let ok: boolean
    try {
      ok = r.holds(m)
    } catch {
      ok = false
    }
    if (!ok) failures.push({ id: r.id, message: r.message })
  }
  return failures
}
