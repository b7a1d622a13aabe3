// The date rules of a recurring invoice (extensions §13): its dates, where it ends, what resuming skips. Pure.
import { addDays } from '../../shared/dates'
import type { RecurringFrequency } from '../../db/schema'
import { words } from '../words'

/** What the dates of a schedule depend on. */
export interface Schedule {
  frequency: RecurringFrequency
  interval: number
  startDate: string
  endDate: string | null
  count: number | null
}

function daysInMonth(year: number, month0: number): number {
  const at = new Date(0)
  at.setUTCFullYear(year, month0 + 1, 0)
  return at.getUTCDate()
}

const pad = (n: number, w: number) => String(n).padStart(w, '0')

/**
 * The schedule's date number `k` (0: `start_date`), or null past the year 9999. A month or year step is counted from
 * `start_date` itself, not from the date before: the 31st stays the 31st wherever the month has one (Jan 31 → Feb 28
 * → Mar 31), and Feb 29 comes back in each leap year.
 */
export function dateAt(s: Pick<Schedule, 'frequency' | 'interval' | 'startDate'>, k: number): string | null {
  if (s.frequency === 'day') return addDays(s.startDate, k * s.interval)
  if (s.frequency === 'week') return addDays(s.startDate, 7 * k * s.interval)
  const months = k * s.interval * (s.frequency === 'year' ? 12 : 1)
  const y0 = Number(s.startDate.slice(0, 4))
  const m0 = Number(s.startDate.slice(5, 7)) - 1
  const d0 = Number(s.startDate.slice(8, 10))
  const total = m0 + months
  const year = y0 + Math.floor(total / 12)
  const month0 = total % 12
  if (year > 9999) return null
  return `${pad(year, 4)}-${pad(month0 + 1, 2)}-${pad(Math.min(d0, daysInMonth(year, month0)), 2)}`
}

/** Whether date number `k` falls within the schedule's end, `made` Invoices having been made so far. */
function within(s: Schedule, date: string | null, made: number): date is string {
  if (date === null) return false
  if (s.endDate !== null && date > s.endDate) return false
  if (s.count !== null && made >= s.count) return false
  return true
}

/** Where a schedule stands: the number and date of its next date, or null once it has ended. */
export interface Next {
  index: number
  date: string
}

/** The schedule's date number `k` if it is still to come after `made` Invoices, else null (the schedule has ended). */
export function nextAt(s: Schedule, k: number, made: number): Next | null {
  const date = dateAt(s, k)
  return within(s, date, made) ? { index: k, date } : null
}

/** The smallest date number whose date is on or after `day` (the first date a resumed or changed schedule keeps). */
export function firstIndexFrom(s: Pick<Schedule, 'frequency' | 'interval' | 'startDate'>, day: string): number {
  if (s.startDate >= day) return 0
  const span = (Date.parse(day) - Date.parse(s.startDate)) / 86_400_000
  // An estimate from below (a step is at most 31 days a month, 366 a year), then forward to the first date on or after.
  const longest = { day: 1, week: 7, month: 31, year: 366 }[s.frequency] * s.interval
  let k = Math.max(0, Math.floor(span / longest))
  for (;;) {
    const d = dateAt(s, k)
    if (d === null || d >= day) return k
    k++
  }
}

/** The next `n` dates still to come (fewer once the schedule ends), from date number `from` after `made` Invoices. */
export function upcoming(s: Schedule, from: number, made: number, n: number): string[] {
  const out: string[] = []
  for (let k = from; out.length < n; k++) {
    const next = nextAt(s, k, made + out.length)
    if (!next) break
    out.push(next.date)
  }
  return out
}

/** The period a date covers, for `{{period}}`: from the date to the day before the schedule's following date. */
export function periodOf(
  s: Pick<Schedule, 'frequency' | 'interval' | 'startDate'>,
  k: number,
): { from: string; to: string } {
  const from = dateAt(s, k)!
  const following = dateAt(s, k + 1)
  return { from, to: (following && addDays(following, -1)) ?? '9999-12-31' }
}

/** The month's name for `{{month}}`, in the document's language (extensions §18): the words module's. */
export function monthName(date: string, language = 'en'): string {
  return words(language).month(date)
}

/** Fills `{{date}}`, `{{month}}`, `{{year}}` and `{{period}}` of a Line's description or the notes for one date. */
export function fillPlaceholders(
  text: string,
  at: { date: string; period: { from: string; to: string }; language?: string },
): string {
  if (!text.includes('{{')) return text
  return text
    .replaceAll('{{date}}', at.date)
    .replaceAll('{{month}}', monthName(at.date, at.language))
    .replaceAll('{{year}}', at.date.slice(0, 4))
    .replaceAll('{{period}}', `${at.period.from} – ${at.period.to}`)
}
