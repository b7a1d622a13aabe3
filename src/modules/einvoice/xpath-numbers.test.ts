// XPath numbers as Saxon-HE 9.9 computes them; each expected value is what Saxon answered to the same expression.
import { describe, expect, test } from 'bun:test'
import { Dec } from '../../shared/money'
import { decimalAsDouble, doubleSum, exactDecimal, roundDecimal, roundDecimal2, roundDouble2 } from './xpath-numbers'

describe('XPath numbers as the official rules meet them in Saxon', () => {
  test('xs:decimal(double) is the exact binary value, not the shortest digits that read back the same', () => {
    // xs:decimal(xs:double("185187215625610.62")) → 185187215625610.625
    expect(exactDecimal(185187215625610.62).toFixed()).toBe('185187215625610.625')
    // xs:decimal(sum((0.1, 0.2))) on untyped values → the double 0.30000000000000004 written out in full
    expect(exactDecimal(doubleSum(['0.1', '0.2'])).toFixed()).toBe(
      '0.3000000000000000444089209850062616169452667236328125',
    )
    expect(exactDecimal(1e16).toFixed()).toBe('10000000000000000')
    expect(exactDecimal(-2.5).toFixed()).toBe('-2.5')
    // The smallest double still has a finite expansion (1074 binary places).
    expect(exactDecimal(Number.MIN_VALUE).toFixed().length).toBe(1076)
  })

  test('sum() adds doubles left to right: 1e16 + 1 + 1 is 1e16', () => {
    expect(doubleSum(['1e16', '1', '1'])).toBe(1e16)
    expect(doubleSum([])).toBe(0)
  })

  test('x * 10 * 10 is two roundings in doubles, not one multiplication by 100', () => {
    // round(x * 10 * 10) div 100 with x = 396743679310261.88 → 3.9674367931026194E14; x * 100 would give .84
    expect(roundDouble2(396743679310261.88)).toBe(396743679310261.94)
    expect(Math.round(396743679310261.88 * 100) / 100).toBe(396743679310261.84)
  })

  test('round() goes half toward positive infinity, on decimals as on doubles', () => {
    expect(roundDecimal(new Dec('2.5')).toFixed()).toBe('3')
    expect(roundDecimal(new Dec('-2.5')).toFixed()).toBe('-2')
    expect(roundDecimal2(new Dec('185187215625610.625')).toFixed()).toBe('185187215625610.63')
    expect(roundDecimal2(new Dec('-0.125')).toFixed()).toBe('-0.12')
  })

  test('a decimal compared with a double becomes the nearest double: xs:decimal("0.1") = xs:double("0.1")', () => {
    expect(decimalAsDouble(new Dec('0.1'))).toBe(0.1)
    expect(decimalAsDouble(new Dec('185187215625610.625'))).toBe(185187215625610.62)
  })
})
