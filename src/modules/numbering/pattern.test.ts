import { describe, expect, test } from 'bun:test'
import { formatNumber, parsePattern, readNumber } from './pattern'

describe('number patterns', () => {
  test('a pattern needs exactly one counter and at most one year', () => {
    expect(parsePattern('INV-{YYYY}-{NNNN}')).toMatchObject({ width: 4, hasYear: true, max: 9999 })
    expect(parsePattern('C{NNNNN}')).toMatchObject({ width: 5, hasYear: false, max: 99999 })
    expect(parsePattern('INV-{YYYY}')).toBeNull()
    expect(parsePattern('{NN}-{NN}')).toBeNull()
    expect(parsePattern('X{YY}{NN}')).toBeNull()
    expect(parsePattern('X{NNNNNNNNNNNNNNNN}')).toBeNull()
  })

  test('numbers are written with the counter padded to its width and the year', () => {
    const p = parsePattern('INV-{YYYY}-{NNNN}')!
    expect(formatNumber(p, 7, 2026)).toBe('INV-2026-0007')
    expect(formatNumber(p, 7, 2026, 'TEST-')).toBe('TEST-INV-2026-0007')
  })

  test('a written number is read back to its counter and year; other shapes are refused', () => {
    const p = parsePattern('INV-{YYYY}-{NNNN}')!
    expect(readNumber(p, 'INV-2026-0042')).toEqual({ counter: 42, year: 2026, beyond: false })
    expect(readNumber(p, 'INV-2026-42')).toBeNull()
    expect(readNumber(p, 'INV-2026-12345')).toEqual({ counter: 12345, year: 2026, beyond: true })
    expect(readNumber(p, 'inv-2026-0042')).toBeNull()
    expect(readNumber(p, 'TEST-INV-2026-0001', 'TEST-')).toEqual({ counter: 1, year: 2026, beyond: false })
    const c = parsePattern('C{NNNNN}')!
    expect(readNumber(c, 'C00012')).toEqual({ counter: 12, year: null, beyond: false })
    expect(readNumber(c, 'X00012')).toBeNull()
  })
})
