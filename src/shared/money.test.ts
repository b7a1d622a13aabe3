// The money module by table: the contract's decimal rules at every currency scale, rounding, and VAT split out of a price.
import { describe, expect, test } from 'bun:test'
import { productPrices } from '../modules/products/products.present'
import { currencyScale } from './currencies'
import {
  AMOUNT_PATTERN,
  Dec,
  asWritten,
  decimalsOf,
  format,
  formatMinor,
  fromMinor,
  integerDigitsOf,
  parseDecimal,
  round,
  stored,
  type DecimalRules,
} from './money'

/** Parses and stores as the Product price does: the currency's scale, zero or more. */
function priceIn(input: unknown, currency: string): { ok: true; text: string } | { ok: false; message: string } {
  const scale = currencyScale(currency)
  const r = parseDecimal(input, { maxDecimals: scale, min: 'zero' })
  return r.ok ? { ok: true, text: asWritten(r, scale) } : { ok: false, message: r.message }
}

describe('parseDecimal at every currency scale', () => {
  // [currency, accepted as written → stored text, refused for too many decimals]
  const table: ReadonlyArray<readonly [string, number, ReadonlyArray<readonly [string, string]>, readonly string[]]> = [
    [
      'JPY',
      0,
      [
        ['0', '0'],
        ['1500', '1500'],
        ['1.5e1', '15'],
        ['999999999999999', '999999999999999'],
      ],
      ['1.5', '0.1', '1e-1', '1500.0', '10.00'],
    ],
    [
      'EUR',
      2,
      [
        ['0', '0'],
        ['10.5', '10.5'],
        ['10.50', '10.50'],
        ['0.01', '0.01'],
        ['1e-2', '0.01'],
        ['999999999999999.99', '999999999999999.99'],
      ],
      ['1.001', '0.005', '1e-3', '10.500', '1.000'],
    ],
    [
      'KWD',
      3,
      [
        ['1.234', '1.234'],
        ['1.2', '1.2'],
        ['1.230', '1.230'],
        ['0.001', '0.001'],
        ['999999999999999.999', '999999999999999.999'],
      ],
      ['1.2345', '0.0001', '1.2300'],
    ],
    [
      'CLF',
      4,
      [
        ['1.2345', '1.2345'],
        ['0.0001', '0.0001'],
        ['12.5', '12.5'],
      ],
      ['1.23456', '0.00001', '12.50000'],
    ],
  ]
  for (const [currency, scale, accepted, refused] of table) {
    test(`${currency} (scale ${scale}) keeps an accepted price exactly as written`, () => {
      expect(currencyScale(currency)).toBe(scale)
      for (const [input, text] of accepted)
        expect({ input, got: priceIn(input, currency) }).toEqual({ input, got: { ok: true, text } })
    })
    test(`${currency} (scale ${scale}) refuses more decimals than ${scale} instead of rounding`, () => {
      for (const input of refused) {
        const r = priceIn(input, currency)
        expect({ input, ok: r.ok }).toEqual({ input, ok: false })
        if (!r.ok)
          expect(r.message).toBe(
            scale === 0 ? 'must be a whole amount with no decimals' : `must have at most ${scale} decimals`,
          )
      }
    })
  }

  test('decimals count as written: trailing zeros beyond the scale are refused, never dropped to the scale', () => {
    expect(priceIn('10.500', 'EUR')).toEqual({ ok: false, message: 'must have at most 2 decimals' })
    expect(priceIn('1.000', 'EUR')).toEqual({ ok: false, message: 'must have at most 2 decimals' })
    expect(priceIn('10.0', 'JPY')).toEqual({ ok: false, message: 'must be a whole amount with no decimals' })
    expect(priceIn('-0.00', 'JPY')).toEqual({ ok: false, message: 'must be a whole amount with no decimals' })
    // Up to the scale, trailing zeros are kept as written.
    expect(priceIn('10.50', 'EUR')).toEqual({ ok: true, text: '10.50' })
    expect(priceIn('10.5', 'EUR')).toEqual({ ok: true, text: '10.5' })
  })

  test('an exponent shifts the written decimals: "1.50e1" has one, "150e-2" has two, "1.500e1" has two', () => {
    expect(priceIn('1.50e1', 'EUR')).toEqual({ ok: true, text: '15.0' })
    expect(priceIn('1.50e1', 'JPY')).toEqual({ ok: false, message: 'must be a whole amount with no decimals' })
    expect(priceIn('150e-2', 'EUR')).toEqual({ ok: true, text: '1.50' })
    expect(priceIn('1500e-3', 'EUR')).toEqual({ ok: false, message: 'must have at most 2 decimals' })
    expect(priceIn('1.500e1', 'EUR')).toEqual({ ok: true, text: '15.00' })
  })

  test('the same written-decimals rule holds for every decimal field: quantity at 4, vat_rate at 2', () => {
    expect(parseDecimal('1.00000', { maxDecimals: 4, min: 'positive' })).toEqual({
      ok: false,
      message: 'must have at most 4 decimals',
    })
    expect(parseDecimal('19.000', { maxDecimals: 2, maxIntegerDigits: 3 })).toEqual({
      ok: false,
      message: 'must have at most 2 decimals',
    })
    const qty = parseDecimal('2.5000', { maxDecimals: 4, min: 'positive' })
    expect(qty.ok && asWritten(qty, 4)).toBe('2.5000')
  })
})

describe('the 15-digit limit before the point', () => {
  test('999999999999999.99 round-trips exactly through parse, store and format', () => {
    const r = parseDecimal('999999999999999.99', { maxDecimals: 2 })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(asWritten(r, 2)).toBe('999999999999999.99')
    expect(format(r.value, 2)).toBe('999999999999999.99')
    expect(format(stored(asWritten(r, 2)), 2)).toBe('999999999999999.99')
    expect(integerDigitsOf(r.value)).toBe(15)
  })

  test.each(['1000000000000000', '9999999999999999.99', '1e15', '1e999', '-1000000000000000'])(
    '%p has 16 or more digits before the point and is refused',
    (input) => {
      const r = parseDecimal(input, { maxDecimals: 2, min: 'any' })
      expect(r).toEqual({ ok: false, message: 'must have at most 15 digits before the decimal point' })
    },
  )

  test('leading zeros do not count as digits: 15 significant digits behind zeros are accepted', () => {
    const r = parseDecimal('000999999999999999.5', { maxDecimals: 2 })
    expect(r.ok && asWritten(r, 2)).toBe('999999999999999.5')
  })

  test('a field with its own limit (vat_rate: 3 digits) refuses a fourth', () => {
    const rules: DecimalRules = { maxDecimals: 2, maxIntegerDigits: 3 }
    expect(parseDecimal('100', rules).ok).toBe(true)
    expect(parseDecimal('1000', rules)).toEqual({
      ok: false,
      message: 'must have at most 3 digits before the decimal point',
    })
  })
})

describe('exponents', () => {
  // An exponent of up to three digits is read; only one of more than three digits is refused.
  const accepted: ReadonlyArray<readonly [string, string]> = [
    ['1e3', '1000'],
    ['1E3', '1000'],
    ['1e-2', '0.01'],
    ['1.5E+2', '150'],
    ['1.5e1', '15'],
    ['15e-2', '0.15'],
    ['1e003', '1000'],
    ['0e999', '0'],
  ]
  test.each(accepted)('%p is read as %p', (input, text) => {
    expect(priceIn(input, 'EUR')).toEqual({ ok: true, text })
  })

  test.each(['1e1000', '1E+1000', '1e-1000', '0e0000'])(
    '%p has an exponent of more than three digits and is refused as such',
    (input) => {
      expect(parseDecimal(input, { maxDecimals: 2, min: 'any' })).toEqual({
        ok: false,
        message: 'has an exponent of more than three digits',
      })
    },
  )

  test('a three-digit negative exponent still meets the decimals rule', () => {
    expect(priceIn('1e-999', 'EUR')).toEqual({ ok: false, message: 'must have at most 2 decimals' })
  })
})

describe('signs and zero', () => {
  test.each([
    ['-0', '0'],
    ['-0.00', '0.00'],
    ['-0e5', '0'],
    ['0', '0'],
  ])('%p is zero, not a negative amount, and passes min zero', (input, text) => {
    const r = parseDecimal(input, { maxDecimals: 2, min: 'zero' })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(asWritten(r, 2)).toBe(text)
    expect(r.value.eq('0')).toBe(true)
    expect((r.value as unknown as { s: number }).s).toBe(1)
    expect(format(r.value, 2)).toBe('0.00')
  })

  test('a negative amount is refused under min zero, zero under min positive', () => {
    expect(parseDecimal('-0.01', { maxDecimals: 2, min: 'zero' })).toEqual({
      ok: false,
      message: 'must be zero or more',
    })
    expect(parseDecimal('-0', { maxDecimals: 2, min: 'positive' })).toEqual({
      ok: false,
      message: 'must be above zero',
    })
    expect(parseDecimal('0.00', { maxDecimals: 2, min: 'positive' })).toEqual({
      ok: false,
      message: 'must be above zero',
    })
    const any = parseDecimal('-12.50', { maxDecimals: 2, min: 'any' })
    expect(any.ok && asWritten(any, 2)).toBe('-12.50')
  })

  test('leading zeros are read as the number they pad: "007.50" is 7.50', () => {
    expect(priceIn('007.50', 'EUR')).toEqual({ ok: true, text: '7.50' })
    expect(priceIn('000', 'JPY')).toEqual({ ok: true, text: '0' })
  })
})

describe('what is not a decimal string', () => {
  test.each([12.5, 0, 1e3, -1])('the JSON number %p is refused, never read', (input) => {
    expect(parseDecimal(input, { maxDecimals: 2, min: 'any' })).toEqual({
      ok: false,
      message: 'must be a decimal string such as "12.50", not a JSON number',
    })
  })

  test.each([[null], [undefined], [true], [{}], [['1']]])('%p is refused as not a decimal string', (input) => {
    expect(parseDecimal(input, { maxDecimals: 2 })).toEqual({
      ok: false,
      message: 'must be a decimal string such as "12.50"',
    })
  })

  test.each([
    '1,5',
    '',
    ' ',
    '1.',
    '.5',
    '0x10',
    'NaN',
    'Infinity',
    '-Infinity',
    '+5',
    '1e',
    'e3',
    '1.2.3',
    '1 000',
    '--1',
    '١٢',
    '1e+',
    '5%',
  ])('%p is refused as garbage', (input) => {
    expect(parseDecimal(input, { maxDecimals: 4, min: 'any' })).toEqual({
      ok: false,
      message: 'must be a decimal number written like "12.50"',
    })
  })
})

describe('rounding: half away from zero, in one place', () => {
  const table: ReadonlyArray<readonly [string, number, string]> = [
    ['2.345', 2, '2.35'],
    ['-2.345', 2, '-2.35'],
    ['2.3449999', 2, '2.34'],
    ['-2.3449999', 2, '-2.34'],
    ['2.355', 2, '2.36'],
    ['0.005', 2, '0.01'],
    ['-0.005', 2, '-0.01'],
    ['0.0049999999999999999999999', 2, '0.00'],
    ['2.5', 0, '3'],
    ['-2.5', 0, '-3'],
    ['1.0005', 3, '1.001'],
    ['1.00005', 4, '1.0001'],
    ['999999999999999.995', 2, '1000000000000000.00'],
  ]
  test.each(table)('%p at %p decimals is %p', (value, scale, expected) => {
    expect(format(new Dec(value), scale)).toBe(expected)
    expect(round(new Dec(value), scale).toFixed(scale)).toBe(expected)
  })

  test('format writes exactly the scale, pads with zeros, and never writes a negative zero', () => {
    expect(format(new Dec('7'), 2)).toBe('7.00')
    expect(format(new Dec('7.1'), 3)).toBe('7.100')
    expect(format(new Dec('-0.001'), 2)).toBe('0.00')
    expect(format(new Dec('-0.4'), 0)).toBe('0')
    expect(format(new Dec('1e-30'), 2)).toBe('0.00')
    expect(format(new Dec('1e20'), 0)).toBe('100000000000000000000')
  })

  test('format output always matches the contract Amount pattern', () => {
    const re = new RegExp(AMOUNT_PATTERN)
    for (const v of ['0', '-0.001', '1e20', '1e-30', '-12.345', '3.14159'])
      for (const s of [0, 2, 3, 4]) expect(format(new Dec(v), s)).toMatch(re)
  })

  test('division keeps enough digits that rounding decides on the exact value', () => {
    // 2/3 = 0.666…: half away from zero gives 0.67 (a truncated quotient must not make it 0.66).
    expect(format(new Dec('2').div('3'), 2)).toBe('0.67')
    expect(format(new Dec('1').div('3'), 2)).toBe('0.33')
    expect(format(new Dec('-2').div('3'), 2)).toBe('-0.67')
  })

  test('the strict constructor refuses JS numbers, so no float ever enters a computation', () => {
    expect(() => new Dec(1.1 as unknown as string)).toThrow()
  })

  test('decimalsOf counts carried decimals, not written trailing zeros', () => {
    expect(decimalsOf(new Dec('1.50'))).toBe(1)
    expect(decimalsOf(new Dec('100'))).toBe(0)
    expect(decimalsOf(new Dec('0.001'))).toBe(3)
    expect(decimalsOf(new Dec('1e-2'))).toBe(2)
  })
})

describe('productPrices: VAT added to or divided out of a price at the currency scale', () => {
  const P = (price: string, vatRate: string, vatIncluded: boolean, currency: string) =>
    productPrices({ price, vatRate, vatIncluded, currency })
  const table: ReadonlyArray<readonly [string, string, string, boolean, string, string]> = [
    // [price, currency, vat_rate, included, without, with]
    ['119.00', 'EUR', '19.00', true, '100.00', '119.00'],
    ['100', 'EUR', '19.00', false, '100.00', '119.00'],
    // 10 / 1.19 = 8.4033…
    ['10.00', 'EUR', '19.00', true, '8.40', '10.00'],
    ['1.05', 'EUR', '5.00', true, '1.00', '1.05'],
    // Ties: the exact quotient or product ends in 5 one place beyond the scale; half away from zero goes up.
    ['0.05', 'EUR', '100.00', true, '0.03', '0.05'],
    ['0.15', 'EUR', '100.00', true, '0.08', '0.15'],
    ['0.05', 'EUR', '10.00', false, '0.05', '0.06'],
    ['2.5', 'EUR', '19.00', false, '2.50', '2.98'],
    ['5', 'JPY', '100.00', true, '3', '5'],
    ['1000', 'JPY', '10.00', false, '1000', '1100'],
    ['1100', 'JPY', '10.00', true, '1000', '1100'],
    ['999', 'JPY', '8.00', true, '925', '999'],
    ['0.005', 'KWD', '100.00', true, '0.003', '0.005'],
    ['1.234', 'KWD', '5.00', false, '1.234', '1.296'],
    ['10.000', 'KWD', '19.00', true, '8.403', '10.000'],
    ['1.2345', 'CLF', '19.00', false, '1.2345', '1.4691'],
    ['0', 'EUR', '19.00', true, '0.00', '0.00'],
    ['12.34', 'EUR', '0.00', true, '12.34', '12.34'],
    ['12.34', 'EUR', '0.00', false, '12.34', '12.34'],
    ['999999999999999.99', 'EUR', '100.00', false, '999999999999999.99', '1999999999999999.98'],
  ]
  test.each(table)(
    '%p %s at %p (included %p) is %p before and %p after VAT',
    (price, currency, rate, included, without, withVat) => {
      expect(P(price, rate, included, currency)).toEqual({ withoutVat: without, withVat })
    },
  )

  test('the tie case 0.05 at 100% included really divides to exactly 0.025', () => {
    expect(new Dec('0.05').div(new Dec('1').plus(new Dec('100').div('100'))).toString()).toBe('0.025')
  })

  test('a currency the table does not know (old data) is shown at two decimals', () => {
    expect(P('10.005', '0.00', false, 'XXX')).toEqual({ withoutVat: '10.01', withVat: '10.01' })
  })
})

describe('formatMinor: whole minor units written without decimal arithmetic', () => {
  test('writes what format(fromMinor()) writes at scales 0, 2 and 3, signs, zero and past 2^53', () => {
    const minors = [0n, 1n, -1n, 5n, 99n, 100n, -100n, 101n, 12345n, -12345n, 999_999_999_999_999_999n, -(2n ** 62n)]
    for (const scale of [0, 2, 3])
      for (const m of minors) expect(formatMinor(m, scale)).toBe(format(fromMinor(m, scale), scale))
    expect(formatMinor(-5n, 2)).toBe('-0.05')
    expect(formatMinor(999_999_999_999_999_999n, 3)).toBe('999999999999999.999')
  })
})
