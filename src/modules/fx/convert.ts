// Exchange rates as exact decimals (extensions §16): reading a rate sent, crossing ECB rates through the euro, and
// stating a document's VAT in the Business's currency, each product rounded half away from zero once, at the end.
import { currencyScale } from '../../shared/currencies'
import { Dec, format, parseDecimal, round, stored, toMinor, type Decimal } from '../../shared/money'

/** A rate has at most this many significant digits, sent or crossed. */
export const RATE_DIGITS = 10

/** The significant digits of a decimal (big.js keeps them without leading or trailing zeros). */
function significantDigits(value: Decimal): number {
  return (value as unknown as { c: number[] }).c.length
}

/** Reads an `exchange_rate` sent on a Draft: a decimal string above 0 with at most 10 significant digits. */
export function parseRate(input: unknown): { ok: true; rate: string } | { ok: false; message: string } {
  const r = parseDecimal(input, { maxDecimals: 30, maxIntegerDigits: RATE_DIGITS, min: 'positive' })
  if (!r.ok) return { ok: false, message: r.message.replace('"12.50"', '"0.9123"') }
  if (significantDigits(r.value) > RATE_DIGITS)
    return { ok: false, message: `must have at most ${RATE_DIGITS} significant digits` }
  return { ok: true, rate: r.value.toFixed() }
}

/** Rounds half away from zero to 10 significant digits, written without exponent or trailing zeros. */
function toRateDigits(value: Decimal): string {
  return new Dec(value.prec(RATE_DIGITS, 1).toFixed()).toFixed()
}

/**
 * The rate for one unit of `from` in units of `to`, from the ECB's rates of one day (units per euro, the euro itself
 * being 1): the quotient of the two, rounded half away from zero to 10 significant digits. Null when the day has no
 * rate for either currency.
 */
export function crossRate(eurRates: Record<string, string>, from: string, to: string): string | null {
  const per = (c: string) => (c === 'EUR' ? new Dec('1') : eurRates[c] ? stored(eurRates[c]!) : null)
  const f = per(from)
  const t = per(to)
  if (!f || !t) return null
  return toRateDigits(t.div(f))
}

/** An amount of the document's currency in the accounting currency at `rate`, rounded at that currency's scale. */
export function convertAmount(amount: string, rate: string, scale: number): Decimal {
  return round(stored(amount).times(stored(rate)), scale)
}

export interface AccountingFigures {
  /** vat_total_accounting: the VAT total × rate, rounded once. */
  vatTotal: string
  netMinor: string
  vatMinor: string
  /** Each band's VAT × rate (vat_accounting) and its net and VAT in minor units, in the bands' order. */
  bands: { vat: string; netMinor: string; vatMinor: string }[]
}

/**
 * A document's VAT (and net, for the reports) in the accounting currency at its rate: the total and each band
 * converted on their own, so the bands' sum may differ from the total by the rounding; the total is the one stated.
 */
export function accountingFigures(
  doc: { netTotal: string; vatTotal: string },
  bands: readonly { net: string; vat: string }[],
  rate: string,
  accountingCurrency: string,
): AccountingFigures {
  const scale = currencyScale(accountingCurrency)
  const vat = convertAmount(doc.vatTotal, rate, scale)
  const net = convertAmount(doc.netTotal, rate, scale)
  return {
    vatTotal: format(vat, scale),
    netMinor: toMinor(net, scale),
    vatMinor: toMinor(vat, scale),
    bands: bands.map((b) => {
      const bv = convertAmount(b.vat, rate, scale)
      return {
        vat: format(bv, scale),
        netMinor: toMinor(convertAmount(b.net, rate, scale), scale),
        vatMinor: toMinor(bv, scale),
      }
    }),
  }
}
