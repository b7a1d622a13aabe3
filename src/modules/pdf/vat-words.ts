// VAT as a person reads it on a PDF: "VAT 19%", "Reverse charge", "Exempt (VATEX-EU-132)", never "VAT S 19.00%".
import { stored } from '../../shared/money'

/** A rate as people write it: "19", "7.5", "0". */
function rateWords(rate: string): string {
  return stored(rate).toFixed().replace(/\.0+$/, '')
}

/** What a VAT category and rate mean, with the exemption codes its Lines name (for E). */
export function vatWords(category: string, rate: string, exemptionCodes: (string | null)[] = []): string {
  const codes = [...new Set(exemptionCodes.filter((c): c is string => !!c))]
  switch (category) {
    case 'S':
      return `VAT ${rateWords(rate)}%`
    case 'Z':
      return 'VAT 0% (zero rated)'
    case 'E':
      return codes.length ? `Exempt (${codes.join(', ')})` : 'Exempt'
    case 'AE':
      return 'Reverse charge'
    case 'K':
      return 'Intra-EU supply, VAT exempt'
    case 'G':
      return 'Export outside the EU, VAT exempt'
    case 'O':
      return 'Not subject to VAT'
    default:
      return `VAT ${rateWords(rate)}% (${category})`
  }
}

/** The short form in a Line's VAT column. */
export function lineVatWords(category: string, rate: string): string {
  switch (category) {
    case 'S':
    case 'Z':
      return `${rateWords(rate)}%`
    case 'E':
      return 'Exempt'
    case 'AE':
      return 'Rev. charge'
    case 'K':
      return 'Intra-EU'
    case 'G':
      return 'Export'
    case 'O':
      return 'No VAT'
    default:
      return `${rateWords(rate)}%`
  }
}

/**
 * The VAT in the Business's currency with the rate (extensions §16, EU VAT Directive Art. 230): "VAT in EUR: 19.45
 * (1 USD = 0.9123 EUR)". Null when the document states none (same currency, or no rate yet on a Draft).
 */
export function accountingVatWords(doc: {
  currency: string
  exchange_rate: string | null
  accounting_currency: string | null
  vat_total_accounting: string | null
}): string | null {
  if (!doc.exchange_rate || !doc.accounting_currency || doc.vat_total_accounting === null) return null
  return `VAT in ${doc.accounting_currency}: ${doc.vat_total_accounting} (1 ${doc.currency} = ${doc.exchange_rate} ${doc.accounting_currency})`
}
