// Money as exact decimals: one strict big.js constructor, the contract's parsing rules, rounding in one place.
import BigBase from 'big.js'
import type { Big } from 'big.js'

/** A big.js copy that refuses JS numbers (strict); rounding to a scale goes through round() alone. */
export const Dec = BigBase()
Dec.strict = true
// Division keeps 40 decimals and truncates the rest, so the one rounding in round() (half away from zero)
// always sees the exact digits it decides on; truncating never pushes a ...4999 up to ...5000.
Dec.RM = 0
Dec.DP = 40
Dec.NE = -50 // never print exponents
Dec.PE = 50
export type Decimal = Big

/** The contract's Amount pattern, as it is written in answers. */
export const AMOUNT_PATTERN = '^-?[0-9]+(\\.[0-9]+)?$'
// Accepted on input: the Amount pattern with an optional exponent of at most three digits.
const INPUT_RE = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/
const EXPONENT_RE = /[eE][+-]?([0-9]+)$/

export interface DecimalRules {
  /** Most decimals allowed (the currency's scale, or the field's own limit). */
  maxDecimals: number
  /** Most digits before the point; the contract's default is 15. */
  maxIntegerDigits?: number
  min?: 'zero' | 'positive' | 'any'
  /** Words naming the limit, e.g. "the currency's 2". */
  decimalsWords?: string
}

export type ParseResult =
  | { ok: true; value: Decimal /** decimals as written, trailing zeros included */; decimals: number }
  | { ok: false; message: string }

/** Parses a decimal string by the contract's rules; never rounds: too many decimals is an error. */
export function parseDecimal(input: unknown, rules: DecimalRules): ParseResult {
  if (typeof input === 'number')
    return { ok: false, message: 'must be a decimal string such as "12.50", not a JSON number' }
  if (typeof input !== 'string') return { ok: false, message: 'must be a decimal string such as "12.50"' }
  const text = input.trim()
  if (!INPUT_RE.test(text)) return { ok: false, message: 'must be a decimal number written like "12.50"' }
  const exp = EXPONENT_RE.exec(text)
  if (exp && exp[1]!.length > 3) return { ok: false, message: 'has an exponent of more than three digits' }
  let value: Decimal
  try {
    value = new Dec(text)
  } catch {
    return { ok: false, message: 'must be a decimal number written like "12.50"' }
  }
  // -0 is zero, not a negative amount.
  if (value.eq('0')) value = new Dec('0')
  const min = rules.min ?? 'zero'
  if (min === 'zero' && value.lt('0')) return { ok: false, message: 'must be zero or more' }
  if (min === 'positive' && value.lte('0')) return { ok: false, message: 'must be above zero' }
  // Decimals count as written, trailing zeros included: "10.500" is three decimals and is refused at a scale of two,
  // never quietly cut to "10.50". An exponent shifts them ("1.5e1" has none, "15e-2" has two).
  const decimals = Math.max(writtenDecimals(text), decimalsOf(value))
  if (decimals > rules.maxDecimals) {
    return {
      ok: false,
      message:
        rules.maxDecimals === 0
          ? 'must be a whole amount with no decimals'
          : `must have at most ${rules.maxDecimals} decimals`,
    }
  }
  const maxInt = rules.maxIntegerDigits ?? 15
  if (integerDigitsOf(value) > maxInt)
    return { ok: false, message: `must have at most ${maxInt} digits before the decimal point` }
  return { ok: true, value, decimals }
}

/** Decimals as written: "1.50" has 2, "1.5e1" has 0, "15e-2" has 2. */
function writtenDecimals(text: string): number {
  const m = /^-?[0-9]+(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text)!
  return Math.max(0, (m[1]?.length ?? 0) - Number(m[2] ?? 0))
}

/** Stores a parsed decimal as written, its trailing zeros kept; parseDecimal has already held it to `maxDecimals`. */
export function asWritten(r: { value: Decimal; decimals: number }, maxDecimals: number): string {
  return r.value.toFixed(Math.min(Math.max(r.decimals, decimalsOf(r.value)), maxDecimals))
}

/** Decimals actually carried (trailing zeros do not count: "1.50" has 1). */
export function decimalsOf(value: Decimal): number {
  const c = (value as unknown as { c: number[]; e: number }).c
  const e = (value as unknown as { e: number }).e
  return Math.max(0, c.length - e - 1)
}

export function integerDigitsOf(value: Decimal): number {
  const e = (value as unknown as { e: number }).e
  return value.eq('0') ? 1 : Math.max(1, e + 1)
}

/** Rounds half away from zero to `scale` decimals; the only rounding in the service. */
export function round(value: Decimal, scale: number): Decimal {
  return value.round(scale, 1)
}

/** Reads a decimal the service stored itself (exact text); throws on anything else, which would be a bug. */
export function stored(text: string): Decimal {
  return new Dec(text)
}

/** Writes at exactly `scale` decimals, never in exponent form. */
export function format(value: Decimal, scale: number): string {
  const s = round(value, scale).toFixed(scale)
  return s.startsWith('-') && /^-0(\.0+)?$/.test(s) ? s.slice(1) : s
}

/** 10^scale, the minor units in one major unit of a currency of that scale. */
function unitOf(scale: number): Decimal {
  return new Dec('1' + '0'.repeat(scale))
}

/** An amount in minor units as exact integer text (rounded half away from zero at the scale); may pass 2^53. */
export function toMinor(value: Decimal, scale: number): string {
  return round(value, scale).times(unitOf(scale)).toFixed(0)
}

/** Minor units (integer text or a Decimal) back to the amount at the currency's scale. */
export function fromMinor(minor: Decimal | string | number | bigint, scale: number): Decimal {
  return new Dec(typeof minor === 'bigint' ? minor.toString() : (minor as never)).div(unitOf(scale))
}

/**
 * Whole minor units (a bigint, which may pass 2^53) written as the amount at the currency's scale: the same text as
 * format(fromMinor(minor, scale), scale), without decimal arithmetic, for reports that write a thousand of them.
 */
export function formatMinor(minor: bigint, scale: number): string {
  const digits = (minor < 0n ? -minor : minor).toString().padStart(scale + 1, '0')
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  return minor < 0n ? `-${text}` : text
}
