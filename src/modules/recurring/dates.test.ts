// The date rules of a recurring invoice (extensions §13), pure: month ends, leap years, intervals, ends, resuming.
import { describe, expect, test } from 'bun:test'
import { dateAt, fillPlaceholders, firstIndexFrom, nextAt, periodOf, upcoming, type Schedule } from './dates'

const monthly = (startDate: string, more: Partial<Schedule> = {}): Schedule => ({
  frequency: 'month',
  interval: 1,
  startDate,
  endDate: null,
  count: null,
  ...more,
})

describe('the dates of a schedule', () => {
  test('a month step keeps the day of start_date and takes the last day where that day does not exist', () => {
    expect(upcoming(monthly('2026-01-31'), 0, 0, 5)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ])
  })

  test('in a leap year Jan 31 is followed by Feb 29, and the 31st comes back after it', () => {
    expect(upcoming(monthly('2028-01-31'), 0, 0, 3)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31'])
  })

  test('a yearly schedule from Feb 29 falls on Feb 28 in common years and on Feb 29 in the next leap year', () => {
    const s: Schedule = { ...monthly('2028-02-29'), frequency: 'year' }
    expect(upcoming(s, 0, 0, 5)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29'])
  })

  test('intervals: every 2 weeks, every 3 days, every 3 months (a quarter), every 2 years', () => {
    expect(upcoming({ ...monthly('2026-03-10'), frequency: 'week', interval: 2 }, 0, 0, 3)).toEqual([
      '2026-03-10',
      '2026-03-24',
      '2026-04-07',
    ])
    expect(upcoming({ ...monthly('2026-02-27'), frequency: 'day', interval: 3 }, 0, 0, 3)).toEqual([
      '2026-02-27',
      '2026-03-02',
      '2026-03-05',
    ])
    expect(upcoming(monthly('2026-11-30', { interval: 3 }), 0, 0, 3)).toEqual([
      '2026-11-30',
      '2027-02-28',
      '2027-05-30',
    ])
    expect(upcoming({ ...monthly('2026-03-10'), frequency: 'year', interval: 2 }, 0, 0, 2)).toEqual([
      '2026-03-10',
      '2028-03-10',
    ])
  })

  test('the schedule ends after end_date: the end date itself is made, the one after it is not', () => {
    const s = monthly('2026-01-15', { endDate: '2026-03-15' })
    expect(upcoming(s, 0, 0, 12)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15'])
    expect(nextAt(s, 3, 3)).toBeNull()
  })

  test('the schedule ends after count Invoices, counting those made so far', () => {
    const s = monthly('2026-01-15', { count: 3 })
    expect(upcoming(s, 0, 0, 12)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15'])
    expect(upcoming(s, 1, 1, 12)).toEqual(['2026-02-15', '2026-03-15'])
    expect(nextAt(s, 3, 3)).toBeNull()
    // Dates skipped while paused made no Invoice: they do not count against count.
    expect(upcoming(s, 5, 1, 12)).toEqual(['2026-06-15', '2026-07-15'])
  })

  test('resuming finds the first date on or after today, never one that passed', () => {
    const s = monthly('2026-01-31')
    expect(dateAt(s, firstIndexFrom(s, '2026-03-01'))).toBe('2026-03-31')
    expect(dateAt(s, firstIndexFrom(s, '2026-03-31'))).toBe('2026-03-31')
    expect(dateAt(s, firstIndexFrom(s, '2036-04-01'))).toBe('2036-04-30')
    const weekly: Schedule = { ...s, frequency: 'week', startDate: '2026-01-01' }
    expect(dateAt(weekly, firstIndexFrom(weekly, '2026-01-09'))).toBe('2026-01-15')
    expect(firstIndexFrom(weekly, '2025-12-01')).toBe(0)
  })

  test('no date past the year 9999 is made', () => {
    expect(dateAt({ ...monthly('9999-11-30'), frequency: 'month' }, 2)).toBeNull()
    expect(upcoming(monthly('9999-11-30'), 0, 0, 5)).toEqual(['9999-11-30', '9999-12-30'])
  })
})

describe('placeholders', () => {
  test('{{date}}, {{month}}, {{year}} and {{period}} are filled in for the date, the period ending the day before the next date', () => {
    const s = monthly('2026-01-31')
    const at = { date: '2026-02-28', period: periodOf(s, 1) }
    expect(fillPlaceholders('Retainer {{month}} {{year}} ({{period}}), dated {{date}}', at)).toBe(
      'Retainer February 2026 (2026-02-28 – 2026-03-30), dated 2026-02-28',
    )
    expect(fillPlaceholders('no placeholder {{other}}', at)).toBe('no placeholder {{other}}')
  })
})
