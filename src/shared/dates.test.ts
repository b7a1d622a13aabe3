// The contract's date and timestamp formats: real calendar days in the years 0000 to 9999, never a signed year.
import { describe, expect, test } from 'bun:test'
import { addDays, isDate, LAST_DATE, parseTimestamp, utcDay } from './dates'

describe('isDate', () => {
  test('real days of the years 0000 to 0099 are dates (they are not read as 1900 to 1999)', () => {
    for (const d of ['0000-01-01', '0050-01-01', '0099-01-01', '0099-12-31', '0004-02-29', '0000-02-29'])
      expect(isDate(d)).toBe(true)
  })

  test('leap days follow the Gregorian rule in every century, the first one included', () => {
    expect(isDate('0100-02-29')).toBe(false) // a century, not divisible by 400
    expect(isDate('0400-02-29')).toBe(true)
    expect(isDate('0001-02-29')).toBe(false)
    expect(isDate('2024-02-29')).toBe(true)
    expect(isDate('2026-02-29')).toBe(false)
  })

  test('impossible days, other shapes and years past 9999 are not dates', () => {
    for (const d of [
      '2026-02-30',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '+10000-01-01',
      '10000-01-01',
      '-0001-01-01',
      '2026-01-01T00:00:00Z',
      '',
    ])
      expect(isDate(d)).toBe(false)
    expect(isDate(LAST_DATE)).toBe(true)
  })
})

describe('utcDay and addDays', () => {
  test('utcDay writes four-digit years, 0000 and 9999 included', () => {
    expect(utcDay(new Date('0050-06-01T12:00:00Z'))).toBe('0050-06-01')
    expect(utcDay(new Date('9999-12-31T23:59:59.999Z'))).toBe('9999-12-31')
  })

  test('utcDay never writes a signed or five-digit year: outside 0000..9999 it throws', () => {
    expect(() => utcDay(new Date('+010000-01-01T00:00:00Z'))).toThrow(RangeError)
    expect(() => utcDay(new Date('-000001-12-31T00:00:00Z'))).toThrow(RangeError)
    expect(() => utcDay(new Date(Number.NaN))).toThrow(RangeError)
  })

  test('addDays counts UTC days across months, leap days and early years', () => {
    expect(addDays('2026-01-31', 30)).toBe('2026-03-02')
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDays('0050-12-31', 1)).toBe('0051-01-01')
    expect(addDays('2026-03-10', 0)).toBe('2026-03-10')
  })

  test('addDays answers null, not a date it cannot write, past 9999-12-31 or before 0000-01-01', () => {
    expect(addDays('9999-12-30', 1)).toBe('9999-12-31')
    expect(addDays('9999-12-31', 1)).toBeNull()
    expect(addDays('2026-03-10', 999_999 * 10)).toBeNull()
    expect(addDays('0000-01-01', -1)).toBeNull()
  })
})

describe('parseTimestamp', () => {
  test('takes a UTC or offset timestamp of a real day', () => {
    expect(parseTimestamp('2026-02-28T23:59:59Z')?.toISOString()).toBe('2026-02-28T23:59:59.000Z')
    expect(parseTimestamp('2024-02-29T10:00:00+02:00')?.toISOString()).toBe('2024-02-29T08:00:00.000Z')
    expect(parseTimestamp('0050-01-01T00:00:00.5Z')?.toISOString()).toBe('0050-01-01T00:00:00.500Z')
  })

  test('refuses an impossible calendar day instead of rolling it over into the next month', () => {
    for (const v of [
      '2026-02-30T00:00:00Z',
      '2026-02-29T12:00:00Z',
      '2026-04-31T00:00:00+01:00',
      '2026-13-01T00:00:00Z',
      '2026-00-01T00:00:00Z',
    ])
      expect(parseTimestamp(v)).toBeNull()
  })

  test('refuses impossible times, missing zones and instants a zone pushes out of 0000..9999', () => {
    for (const v of [
      '2026-02-28T25:00:00Z',
      '2026-02-28T12:60:00Z',
      '2026-02-28T12:00:00',
      '2026-02-28',
      '9999-12-31T23:00:00-02:00',
      '0000-01-01T00:30:00+01:00',
    ])
      expect(parseTimestamp(v)).toBeNull()
  })
})
