// The step rules of a reminder schedule (extensions §14), pure: which step is due on a day, across month ends and
// leap years; days overdue; placeholders filled once and unknown ones found.
import { describe, expect, test } from 'bun:test'
import { daysOverdue, fillPlaceholders, latestStepDue, stepDate, unknownPlaceholders, type ReminderStep } from './steps'

const steps = (...days: number[]): ReminderStep[] => days.map((d) => ({ days: d, subject: null, message: null }))

describe('latestStepDue', () => {
  test('no step has come before the first step’s day; on it, that step', () => {
    expect(latestStepDue('2026-03-24', steps(7, 14, 30), '2026-03-30')).toBeNull()
    expect(latestStepDue('2026-03-24', steps(7, 14, 30), '2026-03-31')?.days).toBe(7)
  })

  test('after several steps came, only the latest is due, whatever order the steps are written in', () => {
    expect(latestStepDue('2026-03-24', steps(30, 7, 14), '2026-04-10')?.days).toBe(14)
    expect(latestStepDue('2026-03-24', steps(30, 7, 14), '2027-01-01')?.days).toBe(30)
  })

  test('a negative step comes before the due date, a 0 step on it', () => {
    expect(latestStepDue('2026-03-24', steps(-3, 0), '2026-03-20')).toBeNull()
    expect(latestStepDue('2026-03-24', steps(-3, 0), '2026-03-21')?.days).toBe(-3)
    expect(latestStepDue('2026-03-24', steps(-3, 0), '2026-03-24')?.days).toBe(0)
  })

  test('step days count calendar days across month ends and leap days', () => {
    expect(stepDate('2028-02-28', 1)).toBe('2028-02-29')
    expect(stepDate('2027-02-28', 1)).toBe('2027-03-01')
    expect(stepDate('2026-01-31', 30)).toBe('2026-03-02')
    expect(stepDate('2026-12-31', 1)).toBe('2027-01-01')
    expect(stepDate('2026-03-01', -30)).toBe('2026-01-30')
    expect(latestStepDue('2028-02-28', steps(1), '2028-02-29')?.days).toBe(1)
    expect(latestStepDue('2028-02-28', steps(2), '2028-02-29')).toBeNull()
  })

  test('no steps: nothing is ever due', () => {
    expect(latestStepDue('2026-03-24', [], '2030-01-01')).toBeNull()
  })
})

describe('daysOverdue', () => {
  test('whole days after the due date; 0 on it and before it', () => {
    expect(daysOverdue('2026-03-24', '2026-03-31')).toBe(7)
    expect(daysOverdue('2026-03-24', '2026-03-24')).toBe(0)
    expect(daysOverdue('2026-03-24', '2026-03-21')).toBe(0)
    expect(daysOverdue('2028-02-28', '2028-03-01')).toBe(2)
  })
})

describe('placeholders', () => {
  const values = {
    number: 'INV-1',
    amount_due: '10.00 EUR',
    due_date: '2026-03-24',
    days_overdue: '7',
    client: 'Acme {{business}}',
    business: 'Shop',
    link: 'https://x.example/p/t',
  }

  test('each placeholder is filled, spaces inside the braces allowed; a value is never read again as a placeholder', () => {
    expect(fillPlaceholders('{{number}} for {{ client }} from {{business}}', values)).toBe(
      'INV-1 for Acme {{business}} from Shop',
    )
  })

  test('unknown placeholders are found once each, known ones are not', () => {
    expect(unknownPlaceholders('{{number}} {{amount}} {{amount}} {{total}} {{link}}')).toEqual(['amount', 'total'])
    expect(unknownPlaceholders('no placeholders, {single} braces')).toEqual([])
  })
})
