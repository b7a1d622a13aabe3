// XPath 2.0 numbers as the official rule sets meet them in Saxon (no schema, so element text is untyped): what each
// rule computes in xs:double and what in xs:decimal, so that the rule table fires exactly where the official rules do.
//
// - Untyped text in arithmetic, in sum() and compared with a number becomes the nearest xs:double (JS Number parses
//   the same way); sum() adds the doubles left to right; `x * 10 * 10` is two multiplications, not one by 100.
// - round() on a double rounds half toward positive infinity, as Math.round does.
// - xs:decimal(double) is the double's exact binary value written in decimal (Saxon casts through new BigDecimal(d)):
//   185187215625610.62 as a double is 185187215625610.625, never the shortest digits that read back the same.
// - A decimal compared with a double is promoted to the nearest double.
import { Dec, type Decimal } from '../../shared/money'

/** An untyped value (element text) as XPath makes it a double. */
export const xsDouble = (text: string): number => Number(text)

/** sum() over untyped values: each a double, added in document order. */
export const doubleSum = (texts: readonly string[]): number => texts.reduce((s, x) => s + xsDouble(x), 0)

/** xs:decimal(d): the exact value of the double, as Saxon casts it. */
export function exactDecimal(d: number): Decimal {
  if (!Number.isFinite(d)) throw new RangeError(`${d} has no decimal value`)
  // d = m / 2^k with m whole: doubling is exact, and a finite double needs at most 1074 of them.
  let m = d
  let k = 0
  while (!Number.isInteger(m)) {
    m *= 2
    k++
  }
  // m / 2^k = m × 5^k / 10^k, whole digits with the point k places from the right.
  return new Dec(`${(BigInt(m) * 5n ** BigInt(k)).toString()}e-${k}`)
}

/** A decimal where XPath compares it with a double (or adds a double to it): the nearest double. */
export const decimalAsDouble = (d: Decimal): number => Number(d.toFixed())

/** XPath round() on a decimal: half toward positive infinity, to a whole number. */
export function roundDecimal(x: Decimal): Decimal {
  const shifted = x.plus('0.5')
  // big.js rounding modes: 0 toward zero, 3 away from zero; together they make floor().
  return shifted.round(0, shifted.gte('0') ? 0 : 3)
}

/** `round(x * 10 * 10) div 100` on a decimal, exact: half toward positive infinity, to two decimals. */
export const roundDecimal2 = (x: Decimal): Decimal => roundDecimal(x.times('100')).div('100')

/** `round(x * 10 * 10) div 100` on a double, in doubles. */
export const roundDouble2 = (x: number): number => Math.round(x * 10 * 10) / 100
