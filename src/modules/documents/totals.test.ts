// Document money as pure functions, checked against hand-computed values: Line nets rounded half away from zero
// at the currency's scale, VAT per band (category and rate, EN16931), bands highest rate first, minor units exact.
import { describe, expect, test } from 'bun:test'
import { AMOUNT_CEILING, computeTotals, lineNet, toMinor, type LineMoney } from './totals'
import { Dec } from '../../shared/money'

const L = (
  quantity: string,
  unitPrice: string,
  vatRate: string,
  vatCategory = Number(vatRate) === 0 ? 'Z' : 'S',
): LineMoney => ({ quantity, unitPrice, vatRate, vatCategory })

interface Case {
  name: string
  scale: number
  lines: LineMoney[]
  lineNets: string[]
  bands: Array<[category: string, rate: string, net: string, vat: string]>
  net: string
  vat: string
  total: string
  minor: [net: string, vat: string, total: string]
}

const CASES: Case[] = [
  {
    name: 'mixed rates (EUR): 19%, 7% and 0%, two Lines sharing the 19% band',
    scale: 2,
    lines: [L('3', '19.99', '19.00'), L('1.5', '10.00', '7.00'), L('2', '5.555', '19.00'), L('1', '100.00', '0.00')],
    lineNets: ['59.97', '15.00', '11.11', '100.00'],
    // 19%: (59.97 + 11.11) × 0.19 = 13.5052 → 13.51; 7%: 15 × 0.07 = 1.05.
    bands: [
      ['S', '19.00', '71.08', '13.51'],
      ['S', '7.00', '15.00', '1.05'],
      ['Z', '0.00', '100.00', '0.00'],
    ],
    net: '186.08',
    vat: '14.56',
    total: '200.64',
    minor: ['18608', '1456', '20064'],
  },
  {
    name: 'VAT rounded once per band, not per Line (3 × 0.10 at 5% is 0.02, not 0.03)',
    scale: 2,
    lines: [L('1', '0.10', '5.00'), L('1', '0.10', '5.00'), L('1', '0.10', '5.00')],
    lineNets: ['0.10', '0.10', '0.10'],
    bands: [['S', '5.00', '0.30', '0.02']],
    net: '0.30',
    vat: '0.02',
    total: '0.32',
    minor: ['30', '2', '32'],
  },
  {
    name: 'half away from zero on Line nets and VAT (1.005 → 1.01; 0.005 → 0.01), exact decimals not binary floats',
    scale: 2,
    lines: [L('3', '0.335', '10.00'), L('1', '0.25', '2.00'), L('0.3333', '1.005', '0.00')],
    // 3 × 0.335 = 1.005 → 1.01; 0.3333 × 1.005 = 0.3349665 → 0.33.
    lineNets: ['1.01', '0.25', '0.33'],
    bands: [
      ['S', '10.00', '1.01', '0.10'], // 0.101 → 0.10
      ['S', '2.00', '0.25', '0.01'], // 0.005 → 0.01
      ['Z', '0.00', '0.33', '0.00'],
    ],
    net: '1.59',
    vat: '0.11',
    total: '1.70',
    minor: ['159', '11', '170'],
  },
  {
    name: 'a VAT-included Product billed at its price_without_vat (10.00 incl. 19% → 8.40)',
    scale: 2,
    lines: [L('3', '8.40', '19.00')],
    lineNets: ['25.20'],
    bands: [['S', '19.00', '25.20', '4.79']], // 4.788 → 4.79
    net: '25.20',
    vat: '4.79',
    total: '29.99',
    minor: ['2520', '479', '2999'],
  },
  {
    name: 'each 0% category is its own band: Z, E, AE, K, G, O never merge',
    scale: 2,
    lines: [
      L('1', '1.00', '0', 'Z'),
      L('1', '2.00', '0', 'E'),
      L('1', '3.00', '0', 'AE'),
      L('1', '4.00', '0', 'K'),
      L('1', '5.00', '0', 'G'),
      L('1', '6.00', '0', 'O'),
      L('1', '10.00', '21.00'),
    ],
    lineNets: ['1.00', '2.00', '3.00', '4.00', '5.00', '6.00', '10.00'],
    bands: [
      ['S', '21.00', '10.00', '2.10'],
      ['Z', '0.00', '1.00', '0.00'],
      ['E', '0.00', '2.00', '0.00'],
      ['AE', '0.00', '3.00', '0.00'],
      ['K', '0.00', '4.00', '0.00'],
      ['G', '0.00', '5.00', '0.00'],
      ['O', '0.00', '6.00', '0.00'],
    ],
    net: '31.00',
    vat: '2.10',
    total: '33.10',
    minor: ['3100', '210', '3310'],
  },
  {
    name: 'JPY (0 decimals): 3 × 333.5 = 1000.5 → 1001, VAT 100.1 → 100 and 78.4 → 78',
    scale: 0,
    lines: [L('3', '333.5', '10.00'), L('1', '980', '8.00')],
    lineNets: ['1001', '980'],
    bands: [
      ['S', '10.00', '1001', '100'],
      ['S', '8.00', '980', '78'],
    ],
    net: '1981',
    vat: '178',
    total: '2159',
    minor: ['1981', '178', '2159'],
  },
  {
    name: 'KWD (3 decimals): 3 × 1.2345 = 3.7035 → 3.704, VAT 0.1852 → 0.185',
    scale: 3,
    lines: [L('3', '1.2345', '5.00'), L('2', '0.0005', '0.00')],
    lineNets: ['3.704', '0.001'],
    bands: [
      ['S', '5.00', '3.704', '0.185'],
      ['Z', '0.00', '0.001', '0.000'],
    ],
    net: '3.705',
    vat: '0.185',
    total: '3.890',
    minor: ['3705', '185', '3890'],
  },
  {
    name: 'the largest Line net, 999999999999999.99, stays exact (its minor units pass 2^53)',
    scale: 2,
    lines: [L('1', '999999999999999.99', '0.00')],
    lineNets: ['999999999999999.99'],
    bands: [['Z', '0.00', '999999999999999.99', '0.00']],
    net: '999999999999999.99',
    vat: '0.00',
    total: '999999999999999.99',
    minor: ['99999999999999999', '0', '99999999999999999'],
  },
  {
    name: 'large amounts with VAT stay exact: 123456789012.34 at 19%',
    scale: 2,
    lines: [L('1', '123456789012.34', '19.00')],
    lineNets: ['123456789012.34'],
    bands: [['S', '19.00', '123456789012.34', '23456789912.34']], // 23456789912.3446 → .34
    net: '123456789012.34',
    vat: '23456789912.34',
    total: '146913578924.68',
    minor: ['12345678901234', '2345678991234', '14691357892468'],
  },
  {
    name: 'no Lines: everything is zero at the currency scale',
    scale: 2,
    lines: [],
    lineNets: [],
    bands: [],
    net: '0.00',
    vat: '0.00',
    total: '0.00',
    minor: ['0', '0', '0'],
  },
]

describe('computeTotals against hand-computed values', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const t = computeTotals(c.lines, c.scale)
    expect(t.lineNets).toEqual(c.lineNets)
    expect(t.bands.map((b) => [b.category, b.rate, b.net, b.vat])).toEqual(c.bands)
    expect([t.net, t.vat, t.total]).toEqual([c.net, c.vat, c.total])
    expect([t.netMinor, t.vatMinor, t.totalMinor]).toEqual(c.minor)
    // Each band's minor units are its amounts without the point.
    for (const b of t.bands) {
      expect(b.netMinor).toBe(toMinor(new Dec(b.net), c.scale))
      expect(b.vatMinor).toBe(toMinor(new Dec(b.vat), c.scale))
    }
  })

  test('bands come highest rate first whatever the order of the Lines', () => {
    const lines = [
      L('1', '1', '0'),
      L('1', '1', '7.00'),
      L('1', '1', '0', 'E'),
      L('1', '1', '25.50'),
      L('1', '1', '19.00'),
    ]
    const rates = computeTotals(lines, 2).bands.map((b) => b.rate)
    expect(rates.slice(0, 3)).toEqual(['25.50', '19.00', '7.00'])
    expect(rates.slice(3).sort()).toEqual(['0.00', '0.00'])
  })

  test('rates written differently ("19", "19.0", "19.00") are one band', () => {
    const t = computeTotals([L('1', '10', '19'), L('1', '10', '19.0'), L('1', '10', '19.00')], 2)
    expect(t.bands).toHaveLength(1)
    expect(t.bands[0]).toMatchObject({ rate: '19.00', net: '30.00', vat: '5.70' })
  })

  test('total is always net_total + vat_total, and vat_total the sum of the bands', () => {
    for (const c of CASES) {
      const t = computeTotals(c.lines, c.scale)
      expect(new Dec(t.net).plus(t.vat).eq(t.total)).toBe(true)
      expect(t.bands.reduce((s, b) => s.plus(b.vat), new Dec('0')).eq(t.vat)).toBe(true)
      expect(t.bands.reduce((s, b) => s.plus(b.net), new Dec('0')).eq(t.net)).toBe(true)
    }
  })
})

describe('lineNet and the 10^15 ceiling', () => {
  test('the ceiling is 1,000,000,000,000,000 and the largest two-decimal net below it is exact', () => {
    expect(AMOUNT_CEILING.toFixed()).toBe('1000000000000000')
    const n = lineNet({ quantity: '1', unitPrice: '999999999999999.99' }, 2)
    expect(n.toFixed(2)).toBe('999999999999999.99')
    expect(n.lt(AMOUNT_CEILING)).toBe(true)
  })

  test('a net that rounds up to 10^15 reaches the ceiling (3 × 333333333333333.331667)', () => {
    const n = lineNet({ quantity: '3', unitPrice: '333333333333333.331667' }, 2)
    expect(n.toFixed(2)).toBe('1000000000000000.00')
    expect(n.gte(AMOUNT_CEILING)).toBe(true)
  })

  test('toMinor writes minor units as exact text, beyond 2^53', () => {
    expect(toMinor(new Dec('999999999999999.99'), 2)).toBe('99999999999999999')
    expect(toMinor(new Dec('12.345'), 3)).toBe('12345')
    expect(toMinor(new Dec('1001'), 0)).toBe('1001')
    expect(toMinor(new Dec('0.005'), 2)).toBe('1')
  })
})
