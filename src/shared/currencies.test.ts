import { test, expect } from 'bun:test'
import { CURRENCY_SCALES, currencyScale, isCurrency } from './currencies'

const cases: ReadonlyArray<readonly [scale: number, codes: readonly string[]]> = [
  [
    0,
    [
      'BIF',
      'CLP',
      'DJF',
      'GNF',
      'ISK',
      'JPY',
      'KMF',
      'KRW',
      'PYG',
      'RWF',
      'UGX',
      'UYI',
      'VND',
      'VUV',
      'XAF',
      'XOF',
      'XPF',
    ],
  ],
  [
    2,
    [
      'EUR',
      'USD',
      'GBP',
      'CHF',
      'HUF',
      'TWD',
      'IDR',
      'VES',
      'VED',
      'SLE',
      'ZWG',
      'MRU',
      'STN',
      'XCG',
      'MGA',
      'BOV',
      'CHE',
      'CHW',
      'COU',
      'MXV',
      'USN',
      'XAD',
    ],
  ],
  [3, ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']],
  [4, ['CLF', 'UYW']],
]

for (const [scale, codes] of cases) {
  test(`currencies with ${scale} minor-unit digits report scale ${scale}`, () => {
    for (const code of codes) {
      expect({ code, scale: currencyScale(code) }).toEqual({ code, scale })
      expect(isCurrency(code)).toBe(true)
    }
  })
}

test('the zero-, three- and four-decimal classes are exactly the ISO 4217 ones', () => {
  for (const [scale, codes] of cases) {
    if (scale === 2) continue
    const actual = Object.keys(CURRENCY_SCALES)
      .filter((c) => CURRENCY_SCALES[c] === scale)
      .sort()
    expect(actual).toEqual([...codes].sort())
  }
})

test('every other listed currency has scale 2 and the table holds the 166 computable codes', () => {
  const scales = new Set(Object.values(CURRENCY_SCALES))
  expect([...scales].sort()).toEqual([0, 2, 3, 4])
  expect(Object.keys(CURRENCY_SCALES)).toHaveLength(166)
})

test('codes without a minor unit (metals, bond units, SDR, test, no-currency) are refused', () => {
  for (const code of ['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XBA', 'XBB', 'XBC', 'XBD', 'XSU', 'XUA', 'XTS', 'XXX']) {
    expect(isCurrency(code)).toBe(false)
    expect(() => currencyScale(code)).toThrow(Error)
  }
})

test('withdrawn codes are refused', () => {
  for (const code of ['ANG', 'CUC', 'HRK', 'SLL', 'ZWL', 'VEF', 'MRO', 'STD', 'BYR', 'LTL']) {
    expect(isCurrency(code)).toBe(false)
    expect(() => currencyScale(code)).toThrow(Error)
  }
})

test('unknown, malformed, lower-case and prototype-property codes are refused', () => {
  for (const code of [
    '',
    'ABC',
    'US',
    'USDX',
    'usd',
    'Eur',
    ' EUR',
    'toString',
    'constructor',
    '__proto__',
    'hasOwnProperty',
  ]) {
    expect(isCurrency(code)).toBe(false)
    expect(() => currencyScale(code)).toThrow(/Unknown currency code/)
  }
})

test('the currency table cannot be modified', () => {
  expect(Object.isFrozen(CURRENCY_SCALES)).toBe(true)
})
